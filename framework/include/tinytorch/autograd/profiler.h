#pragma once
// LibTorch's legacy profiler, as its C++ programs spell it (torch/csrc/autograd/profiler_legacy.h):
//
//   {
//     torch::autograd::profiler::RecordProfile guard("trace.json");
//     model->forward(x);            // every op run while the guard lives is recorded
//   }                               // the trace is written when the guard goes
//
// The file is a Chrome trace ({"traceEvents": [...]}), which Perfetto (ui.perfetto.dev) and
// chrome://tracing open: one complete event (ph "X") per op with its name, start ts and duration
// dur in microseconds, the thread, and the input shapes under args "Input Dims".
// RECORD_FUNCTION("name", inputs) (at::RecordFunction) adds a span of one's own, such as one
// training step, around the ops inside it.
//
// How an op is timed: ops report themselves after their kernel (record_op, tinytorch/dispatch.h),
// so an op's span starts where the previous op on its thread, or the innermost open RECORD_FUNCTION,
// ended: the kernel plus the given code just before it. Code between ops that is not an op (reading
// a file, printing) is counted in the next op's span: wrap it in RECORD_FUNCTION to see it apart.
// With no profiler alive the cost is one branch per op on a null pointer.
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace autograd {
namespace profiler {

struct RecordProfile {
  // Records until destroyed, then writes the trace to out / to the file (created or truncated
  // now, so that a bad path fails before the work). One profiler at a time.
  explicit RecordProfile(std::ostream& out);
  explicit RecordProfile(const std::string& filename);
  ~RecordProfile();
  RecordProfile(const RecordProfile&) = delete;
  RecordProfile& operator=(const RecordProfile&) = delete;

 private:
  void init();
  std::unique_ptr<std::ofstream> file_;
  std::ostream& out_;
};

}  // namespace profiler
}  // namespace autograd

// A named span in the trace (at::RecordFunction); nothing but one branch when no profiler records.
class RecordFunction {
 public:
  explicit RecordFunction(const char* name, const std::vector<Tensor>& inputs = {});
  ~RecordFunction();
  RecordFunction(const RecordFunction&) = delete;
  RecordFunction& operator=(const RecordFunction&) = delete;

 private:
  const char* name_;
  bool active_ = false;
  double start_us_ = 0;
  std::vector<std::vector<int64_t>> input_sizes_;
};

}  // namespace tinytorch

// RECORD_FUNCTION("step", std::vector<torch::Tensor>{x}): a span from here to the end of the scope.
// As in LibTorch the macro declares a variable named `guard` (one per scope). LibTorch takes the
// inputs as c10::IValues; TinyTorch's IValue holds no tensors, so a vector of tensors (or {}) it is.
#define RECORD_FUNCTION(fn, inputs) ::tinytorch::RecordFunction guard(fn, inputs)
