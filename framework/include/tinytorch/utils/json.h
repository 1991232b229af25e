#pragma once
// JSON string literals for the JSON lines and files the framework lays out itself: module 14's Chrome
// trace, module 20's submission, the milestones' TITO_RESULT lines. The escaping is nlohmann::json's
// (src/serialize/json.cpp); this header keeps nlohmann out of the installed headers.
//
//   tinytorch::utils::json_quoted("a \"b\"\n")  ->  "a \"b\"\n"  (quotes included, as JSON text)
#include <string>
#include <string_view>

namespace tinytorch {
namespace utils {

// `text` as a JSON string, quotes included. " and \ are escaped; \b \f \n \r \t by name; any other
// control character (below 0x20) as \u00XX; valid UTF-8 passes unchanged (JSON allows it unescaped).
// Bytes that are not valid UTF-8 become U+FFFD, so the result is always valid JSON.
std::string json_quoted(std::string_view text);

}  // namespace utils
}  // namespace tinytorch
