// The transcript comparison that decides, outside the learner's process, whether a case that reported
// success earns its points (tito/src/run/transcript.h), and the parsing of "observed" events.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "run/test_events.h"
#include "run/transcript.h"

using namespace tito;

namespace {

Observation tensor(std::vector<double> values, std::string dtype = "float", double rtol = 0, double atol = 0) {
  Observation o;
  o.dtype = std::move(dtype);
  o.sizes = {static_cast<int64_t>(values.size())};
  o.numel = static_cast<int64_t>(values.size());
  o.values = std::move(values);
  o.rtol = rtol;
  o.atol = atol;
  return o;
}

Observation text(std::string words) {
  Observation o;
  o.text = std::move(words);
  return o;
}

}  // namespace

TEST_CASE("identical transcripts match, and an empty one matches only an empty one", "[transcript]") {
  const std::vector<Observation> reference = {text("CHECK( t.numel() == 6 ): 6 == 6"), tensor({1.5, -2.25})};
  CHECK(compare_transcripts(reference, reference).same);
  const TranscriptMatch forged = compare_transcripts({}, reference);
  CHECK_FALSE(forged.same);
  CHECK(forged.difference == "0 results recorded where the reference records 2");
  CHECK_FALSE(compare_transcripts(reference, {}).same);
}

TEST_CASE("tensor values agree within rounding, or twice the matcher's tolerance, and no further", "[transcript]") {
  const Observation reference = tensor({1.0, 100.0});
  CHECK(compare_transcripts({tensor({1.0000001, 100.0001})}, {reference}).same);  // float summation order
  const TranscriptMatch off = compare_transcripts({tensor({1.0, 100.1})}, {reference});
  CHECK_FALSE(off.same);
  CHECK(off.difference == "result 1 of 1: element 1 of a float tensor of sizes [2]: got 100.1, the reference 100");

  // AllClose(expected, 1e-3, 1e-3) passed on both sides: they may differ by up to twice that.
  const Observation loose = tensor({1.0}, "float", 1e-3, 1e-3);
  CHECK(compare_transcripts({tensor({1.0039})}, {loose}).same);
  CHECK_FALSE(compare_transcripts({tensor({1.0041})}, {loose}).same);

  // Integers are exact; doubles get a much smaller rounding allowance than floats.
  CHECK_FALSE(compare_transcripts({tensor({3}, "long")}, {tensor({4}, "long")}).same);
  CHECK_FALSE(compare_transcripts({tensor({1.0000001}, "double")}, {tensor({1.0}, "double")}).same);
}

TEST_CASE("NaN matches only NaN and an infinity only itself", "[transcript]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  CHECK(compare_transcripts({tensor({nan, inf, -inf})}, {tensor({nan, inf, -inf})}).same);
  CHECK_FALSE(compare_transcripts({tensor({0.0})}, {tensor({nan})}).same);
  CHECK_FALSE(compare_transcripts({tensor({nan})}, {tensor({0.0})}).same);
  CHECK_FALSE(compare_transcripts({tensor({-inf})}, {tensor({inf})}).same);
  CHECK_FALSE(compare_transcripts({tensor({1e30})}, {tensor({inf})}).same);
}

TEST_CASE("sizes, dtype and the kind of observation must agree", "[transcript]") {
  Observation reshaped = tensor({1, 2, 3, 4});
  reshaped.sizes = {2, 2};
  const TranscriptMatch sizes = compare_transcripts({tensor({1, 2, 3, 4})}, {reshaped});
  CHECK_FALSE(sizes.same);
  CHECK(sizes.difference == "result 1 of 1: got a float tensor of sizes [4] where the reference has a float tensor of sizes [2, 2]");
  CHECK_FALSE(compare_transcripts({tensor({1}, "double")}, {tensor({1}, "float")}).same);
  CHECK_FALSE(compare_transcripts({text("CHECK( x ): held")}, {tensor({1})}).same);
  // The order matters: the same results, swapped, are not the same transcript.
  CHECK_FALSE(compare_transcripts({tensor({2}), tensor({1})}, {tensor({1}), tensor({2})}).same);
}

TEST_CASE("texts agree except for addresses and the last digits of numbers", "[transcript]") {
  CHECK(texts_match("CHECK( a.data_ptr() == b.data_ptr() ): 0x55d0c0 == 0x55d0c0",
                    "CHECK( a.data_ptr() == b.data_ptr() ): 0x7ffe10 == 0x7ffe10"));
  CHECK(texts_match("CHECK( loss == 0.25f ): 0.2500001f == 0.25f", "CHECK( loss == 0.25f ): 0.25f == 0.25f"));
  CHECK_FALSE(texts_match("CHECK( loss == 0.25f ): 0.3f == 0.25f", "CHECK( loss == 0.25f ): 0.25f == 0.25f"));
  CHECK_FALSE(texts_match("CHECK( t.numel() == 6 ): 7 == 6", "CHECK( t.numel() == 6 ): 6 == 6"));
  CHECK_FALSE(texts_match("CHECK( x ): failed", "CHECK( x ): held"));
  CHECK(texts_match("CHECK( n == -3 ): -3 == -3", "CHECK( n == -3 ): -3 == -3"));
  CHECK_FALSE(texts_match("CHECK( n == -3 ): 3 == -3", "CHECK( n == -3 ): -3 == -3"));
  // Digits inside a name are text: "conv2d" is not a number.
  CHECK_FALSE(texts_match("conv2d", "conv3d"));
}

TEST_CASE("observed events belong to the case that is running, never to one that has ended", "[transcript]") {
  const RunEvents events = parse_events_text(
      "{\"event\":\"observed\",\"text\":\"before any case\"}\n"
      "{\"event\":\"case_start\",\"name\":\"a\",\"points\":2}\n"
      "{\"event\":\"observed\",\"dtype\":\"float\",\"sizes\":[2],\"numel\":2,\"values\":[0.5,\"nan\"],\"rtol\":0,\"atol\":0}\n"
      "{\"event\":\"observed\",\"text\":\"CHECK( x ): held\"}\n"
      "{\"event\":\"case_end\",\"name\":\"a\",\"passed\":true}\n"
      "{\"event\":\"observed\",\"text\":\"after its end\"}\n");
  REQUIRE(events.cases.size() == 1);
  const auto& observed = events.cases[0].observations;
  REQUIRE(observed.size() == 2);
  CHECK(observed[0].dtype == "float");
  CHECK(observed[0].sizes == std::vector<int64_t>{2});
  CHECK(observed[0].values[0] == 0.5);
  CHECK(std::isnan(observed[0].values[1]));
  CHECK(observed[1].text == "CHECK( x ): held");
}
