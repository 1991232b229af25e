// tinytorch::utils::json_quoted, the one JSON string writer of the framework's hand-written JSON
// (module 14's Chrome trace, module 19's report, module 20's submission, the milestones' result lines).
#include <catch2/catch.hpp>

#include <string>

#include "tinytorch/utils/benchmark.h"
#include "tinytorch/utils/json.h"

using tinytorch::utils::json_quoted;

TEST_CASE("json_quoted: quotes, backslashes and control characters escaped; UTF-8 passes", "[json][olympics]") {
  CHECK(json_quoted("") == "\"\"");
  CHECK(json_quoted("plain text") == "\"plain text\"");
  CHECK(json_quoted("a \"quoted\" name") == "\"a \\\"quoted\\\" name\"");
  CHECK(json_quoted("C:\\data\\") == "\"C:\\\\data\\\\\"");
  CHECK(json_quoted("tab\tnew\nline\rfeed\fback\b") == "\"tab\\tnew\\nline\\rfeed\\fback\\b\"");
  CHECK(json_quoted(std::string("nul\0here", 8)) == "\"nul\\u0000here\"");
  CHECK(json_quoted("\x01\x1f") == "\"\\u0001\\u001f\"");
  CHECK(json_quoted("\x7f") == "\"\x7f\"");  // DEL is not a control character to JSON
  CHECK(json_quoted("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x9a\x80") == "\"caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x9a\x80\"");
  CHECK(json_quoted("/") == "\"/\"");  // JSON allows the solidus as it is
}

TEST_CASE("json_quoted: every byte below 0x80 reads back as itself through module 19's parser", "[json]") {
  std::string all;
  for (int byte = 1; byte < 0x80; ++byte) all += static_cast<char>(byte);
  all += "caf\xc3\xa9";
  tinytorch::utils::benchmark::BenchmarkReport report;
  report.model_name = all;
  report.timestamp = "2026-12-04T14:03:59Z";
  const std::string text = report.to_json();
  CHECK(text.find(json_quoted(all)) != std::string::npos);
  CHECK(tinytorch::utils::benchmark::BenchmarkReport::from_json(text).model_name == all);
}
