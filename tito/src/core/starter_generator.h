#pragma once
// Turns the reference source of a learner file into the learner's starter: every
//   <indent>// BEGIN SOLUTION name="tinytorch::mm" lesson="6. Matrix multiplication"
//   ...
//   <indent>// END SOLUTION
// region becomes one line, at the BEGIN line's indentation:
//   <indent>throw tinytorch::NotImplemented("tinytorch::mm", "01_tensor", "6. Matrix multiplication");
#include <stdexcept>
#include <string>
#include <vector>

namespace tito {

struct SolutionRegion {
  std::string name;    // the function the learner writes, e.g. "tinytorch::mm"
  std::string lesson;  // the lesson section that explains it
  int begin_line = 0;  // 1-based
  int end_line = 0;
};

// A malformed marker; what() reads "<file>:<line>: <problem>".
class MarkerError : public std::runtime_error {
 public:
  MarkerError(const std::string& file, int line, const std::string& problem);
  std::string file;
  int line;
};

// Finds and validates every region. Throws MarkerError on an unterminated or nested region, an END
// without BEGIN, or a BEGIN missing its name or lesson attribute. `file_label` is used in errors.
std::vector<SolutionRegion> scan_solution_regions(const std::string& source, const std::string& file_label);

// The starter text (header comment + source with regions replaced). Throws MarkerError.
// `module_folder` is "01_tensor"; `header` is the comment block put on top (may be empty).
std::string make_starter(const std::string& source, const std::string& file_label, const std::string& module_folder,
                         const std::string& header);

}  // namespace tito
