// The starter generator: solution regions become NotImplemented stubs; bad markers are reported by file:line.
#include <catch2/catch.hpp>

#include <string>

#include "core/files.h"
#include "core/starter_generator.h"

namespace {

const std::string kData = TITO_TESTS_DATA_DIR "/starter/";

std::string marker_error_of(const std::string& file) {
  try {
    tito::make_starter(tito::read_file(kData + file), file, "01_tensor", "");
  } catch (const tito::MarkerError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("solution regions become one NotImplemented line at the BEGIN indentation", "[starter]") {
  const std::string starter =
      tito::make_starter(tito::read_file(kData + "reference.cpp"), "reference.cpp", "01_tensor", "// header\n");
  CHECK(starter == tito::read_file(kData + "expected_starter.cpp"));
}

TEST_CASE("no solution text leaks into the starter", "[starter]") {
  const std::string starter = tito::make_starter(tito::read_file(kData + "reference.cpp"), "reference.cpp", "01_tensor", "");
  CHECK(starter.find("zeros(") == std::string::npos);
  CHECK(starter.find("return x + 1") == std::string::npos);
  CHECK(starter.find("SOLUTION") == std::string::npos);
}

TEST_CASE("a file without regions is copied unchanged below the header", "[starter]") {
  CHECK(tito::make_starter("int x = 1;\n", "plain.cpp", "01_tensor", "// h\n") == "// h\nint x = 1;\n");
}

TEST_CASE("regions are listed with their names, lessons and lines", "[starter]") {
  auto regions = tito::scan_solution_regions(tito::read_file(kData + "reference.cpp"), "reference.cpp");
  REQUIRE(regions.size() == 2);
  CHECK(regions[0].name == "tinytorch::mm");
  CHECK(regions[0].lesson == "6. Matrix multiplication");
  CHECK(regions[0].begin_line == 6);
  CHECK(regions[0].end_line == 9);
  CHECK(regions[1].name == "tinytorch::detail::helper");
}

TEST_CASE("malformed markers are reported with file and line", "[starter]") {
  CHECK(marker_error_of("unterminated.cpp") == "unterminated.cpp:2: BEGIN SOLUTION is never closed by END SOLUTION");
  CHECK(marker_error_of("nested.cpp") ==
        "nested.cpp:3: BEGIN SOLUTION inside the region opened at line 2 (regions cannot nest)");
  CHECK(marker_error_of("end_without_begin.cpp") == "end_without_begin.cpp:3: END SOLUTION without a BEGIN SOLUTION before it");
  CHECK(marker_error_of("missing_name.cpp") == "missing_name.cpp:2: BEGIN SOLUTION has no name=\"...\" attribute");
  CHECK(marker_error_of("missing_lesson.cpp") == "missing_lesson.cpp:2: BEGIN SOLUTION has no lesson=\"...\" attribute");
}
