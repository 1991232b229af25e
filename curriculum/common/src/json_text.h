#pragma once
// Just enough JSON writing for the test binaries' two outputs (the case list and the event stream);
// the test binary stays free of a JSON library.
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tito_catch {

// A JSON string literal. Invalid UTF-8 (e.g. raw bytes in a message) becomes '?', so that
// tito's strict parser never drops an event over one bad byte.
inline std::string json_quote(const std::string& text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '"' || byte == '\\') {
      out += '\\';
      out += static_cast<char>(byte);
    } else if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\t') {
      out += "\\t";
    } else if (byte < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out += escaped;
    } else if (byte < 0x80) {
      out += static_cast<char>(byte);
    } else {
      std::size_t length = (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 0;
      bool valid = length > 0 && i + length <= text.size();
      for (std::size_t k = 1; valid && k < length; ++k)
        valid = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
      if (valid) {
        out.append(text, i, length);
        i += length - 1;
      } else {
        out += '?';
      }
    }
  }
  return out + "\"";
}

// "[points=10]" -> 10; 0 when a case carries no points tag.
template <typename Tags>
int points_from_tags(const Tags& tags) {
  static const std::string prefix = "points=";
  for (const std::string& tag : tags)
    if (tag.rfind(prefix, 0) == 0) return std::atoi(tag.c_str() + prefix.size());
  return 0;
}

}  // namespace tito_catch
