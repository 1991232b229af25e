#pragma once
// JSON string literals for the JSON the framework writes by hand (it has no JSON library): module
// 19's benchmark report, module 20's submission, the milestones' TITO_RESULT lines.
//
//   tinytorch::utils::json_quoted("a \"b\"\n")  ->  "a \"b\"\n"  (quotes included, as JSON text)
#include <cstdio>
#include <string>
#include <string_view>

namespace tinytorch {
namespace utils {

// `text` as a JSON string, quotes included. " and \ are escaped; \b \f \n \r \t by name; any other
// control character (below 0x20) as \u00XX. Every other byte passes unchanged, so UTF-8 text stays
// UTF-8 (JSON allows it unescaped). The caller's bytes are not checked to be valid UTF-8.
inline std::string json_quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char code[8];
          std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += code;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

}  // namespace utils
}  // namespace tinytorch
