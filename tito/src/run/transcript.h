#pragma once
// A test case's transcript: what the code under test produced while the case ran, in order, as the
// test helpers recorded it ("observed" events, curriculum/common/src/events_file.h). Grading compares a
// learner's transcript with the reference solution's on the same secret inputs, here in tito rather
// than in the learner's process, so a case's points never rest on what the learner's process says.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace tito {

struct Observation {
  // An assertion: "CHECK( t.numel() == 6 ): 6 == 6", or only its verdict ("...: held").
  std::string text;
  // A tensor a matcher saw (dtype not empty): its sizes, element count and first values, with the
  // matcher's tolerance (0 for Equals).
  std::string dtype;  // "float", "double", "long", "bool", "undefined"
  std::vector<int64_t> sizes;
  int64_t numel = 0;
  std::vector<double> values;  // NaN and infinities included
  double rtol = 0, atol = 0;

  bool is_tensor() const { return !dtype.empty(); }
};

// From an "observed" event; fields it lacks stay empty.
Observation observation_from_json(const nlohmann::json& event);
// The same fields as such an event (NaN and infinities as "nan", "inf", "-inf"): observation_from_json
// reads it back unchanged.
nlohmann::json observation_to_json(const Observation& observation);

struct TranscriptMatch {
  bool same = true;
  std::string difference;  // the first difference, in words, when not the same
};

// Whether a learner's transcript says what the reference's says: the same observations in the same
// order; tensors of the same dtype and sizes whose values agree within twice the matcher's tolerance
// (two results that both passed AllClose(expected) may sit on either side of it) and never closer
// than rounding allows; texts equal except for numbers, compared with a small tolerance, and
// addresses (0x...), which differ between processes.
TranscriptMatch compare_transcripts(const std::vector<Observation>& learner, const std::vector<Observation>& reference);

// The text rule above, on its own.
bool texts_match(const std::string& learner, const std::string& reference);

}  // namespace tito
