#pragma once
// JSON for the test binaries' two outputs (the case list and the event stream), by nlohmann::json.
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

namespace tito_catch {

// One JSON line (no spaces, members in the order given). Invalid UTF-8 (e.g. raw bytes in a message)
// becomes U+FFFD rather than making dump() throw (its default, type_error 316), so that tito's strict
// parser never loses an event over one bad byte.
inline std::string json_line(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// A JSON string literal, quotes included, for the members the helpers lay out themselves.
inline std::string json_quote(const std::string& text) { return json_line(text); }

// "[points=10]" -> 10; 0 when a case carries no points tag.
template <typename Tags>
int points_from_tags(const Tags& tags) {
  static const std::string prefix = "points=";
  for (const std::string& tag : tags)
    if (tag.rfind(prefix, 0) == 0) return std::atoi(tag.c_str() + prefix.size());
  return 0;
}

}  // namespace tito_catch
