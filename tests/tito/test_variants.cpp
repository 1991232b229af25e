// Known-wrong variants (core/variants.h): loading variants.json and applying a variant to the
// reference, with the errors that name the variant when it no longer fits.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/curriculum.h"
#include "core/errors.h"
#include "core/variants.h"

namespace fs = std::filesystem;

namespace {

struct VariantsFile {
  fs::path path;
  explicit VariantsFile(const std::string& json) {
    path = fs::temp_directory_path() / ("tito_test_variants_" + std::to_string(random()) + ".json");
    std::ofstream(path) << json;
  }
  ~VariantsFile() { fs::remove(path); }
};

tito::ModuleInfo module_with(const fs::path& variants) {
  tito::ModuleInfo module;
  module.number = "01";
  module.slug = "alpha";
  module.learner_files = {"framework/src/01_alpha/add.cpp"};
  module.variants = variants;
  return module;
}

const std::string kReference =
    "int add(int a, int b) {\n"
    "  // BEGIN SOLUTION name=\"add\" lesson=\"1. Adding\"\n"
    "  const int sum = a + b;\n"
    "  return sum;\n"
    "  // END SOLUTION\n"
    "}\n"
    "int twice(int a) { return a + a; }\n";

tito::Variant variant(const std::string& original, const std::string& replacement) {
  return tito::Variant{"minus", "framework/src/01_alpha/add.cpp", original, replacement, "subtracts", ""};
}

}  // namespace

TEST_CASE("variants.json: snippets as strings or lists of lines, caught_by optional", "[variants]") {
  VariantsFile file(R"({"variants": [
    {"name": "minus", "file": "framework/src/01_alpha/add.cpp", "description": "subtracts",
     "original": "a + b", "replacement": "a - b", "caught_by": "adds two numbers"},
    {"name": "lines", "file": "framework/src/01_alpha/add.cpp", "description": "returns 0",
     "original": ["  const int sum = a + b;", "  return sum;"], "replacement": ["  return 0;"]}]})");
  const auto variants = tito::load_variants(module_with(file.path));
  REQUIRE(variants.size() == 2);
  CHECK(variants[0].caught_by == "adds two numbers");
  CHECK(variants[1].original == "  const int sum = a + b;\n  return sum;");
  CHECK(variants[1].caught_by.empty());
  CHECK(tito::load_variants(module_with("/nonexistent/variants.json")).empty());
}

TEST_CASE("variants.json: a missing field names the file and the variant", "[variants]") {
  VariantsFile file(R"({"variants": [{"name": "minus", "file": "framework/src/01_alpha/add.cpp", "original": "a + b"}]})");
  CHECK_THROWS_WITH(tito::load_variants(module_with(file.path)),
                    Catch::Contains(file.path.string()) && Catch::Contains("variant minus has no \"replacement\""));
  VariantsFile broken("{not json");
  CHECK_THROWS_WITH(tito::load_variants(module_with(broken.path)), Catch::Contains("is not valid JSON"));
}

TEST_CASE("a variant replaces its text inside a SOLUTION region", "[variants]") {
  const auto module = module_with("variants.json");
  const std::string changed = tito::apply_variant(variant("const int sum = a + b;", "const int sum = a - b;"), module, kReference);
  CHECK(changed.find("const int sum = a - b;") != std::string::npos);
  CHECK(changed.find("return a + a;") != std::string::npos);  // the rest is untouched
}

TEST_CASE("a variant that no longer fits the reference is an error naming it", "[variants]") {
  const auto module = module_with("variants.json");
  CHECK_THROWS_WITH(tito::apply_variant(variant("a * b", "a - b"), module, kReference),
                    "variant minus: its original text is no longer in framework/src/01_alpha/add.cpp");
  CHECK_THROWS_WITH(tito::apply_variant(variant("a + ", "a - "), module, kReference),
                    Catch::Contains("variant minus: its original text occurs more than once"));
  CHECK_THROWS_WITH(tito::apply_variant(variant("return a + a;", "return a;"), module, kReference),
                    Catch::Contains("variant minus: its original text (framework/src/01_alpha/add.cpp:7) is not inside a "
                                    "SOLUTION region"));
  tito::Variant elsewhere = variant("a + b", "a - b");
  elsewhere.file = "framework/src/01_alpha/other.cpp";
  CHECK_THROWS_WITH(tito::apply_variant(elsewhere, module, kReference),
                    Catch::Contains("is not a learner file of module 01"));
  CHECK_THROWS_AS(tito::apply_variant(variant("a + b", "a + b"), module, kReference), tito::UserError);
}
