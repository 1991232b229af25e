// tinytorch::utils::json_quoted, nlohmann::json's string escaping for the JSON the framework lays out
// itself (module 14's Chrome trace, module 20's submission, the milestones' result lines), and module
// 19's report, which nlohmann::json writes and reads whole.
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

TEST_CASE("json_quoted: bytes that are not UTF-8 become U+FFFD, so the text stays valid JSON", "[json]") {
  const std::string replacement = "\xef\xbf\xbd";
  CHECK(json_quoted("bad \xff byte") == "\"bad " + replacement + " byte\"");
  CHECK(json_quoted("cut \xc3") == "\"cut " + replacement + "\"");      // a sequence cut short
  CHECK(json_quoted("\xc3\xa9\x80") == "\"\xc3\xa9" + replacement + "\"");  // a stray continuation byte
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

TEST_CASE("a benchmark report whose CPU name is not UTF-8 is still written and read back", "[json]") {
  tinytorch::utils::benchmark::BenchmarkReport report;
  report.model_name = "m";
  report.timestamp = "2026-12-04T14:03:59Z";
  report.system.cpu = "cpu \xff";
  const std::string text = report.to_json();
  CHECK(tinytorch::utils::benchmark::BenchmarkReport::from_json(text).system.cpu == "cpu \xef\xbf\xbd");
}
