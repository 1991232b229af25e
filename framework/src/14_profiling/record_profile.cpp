// torch::autograd::profiler::RecordProfile and RECORD_FUNCTION (tinytorch/autograd/profiler.h):
// an OpObserver (tinytorch/dispatch.h) that turns every finished op into a Chrome trace event.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <mutex>
#include <ostream>
#include <thread>

#include "tinytorch/autograd/profiler.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/utils/json.h"

namespace tinytorch {
namespace {

struct TraceEvent {
  std::string name;
  double ts_us;
  double dur_us;
  uint64_t thread;
  std::vector<std::vector<int64_t>> input_sizes;
};

double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

uint64_t thread_number() { return std::hash<std::thread::id>()(std::this_thread::get_id()) % 100000; }

// Where the next op's span starts on this thread, for the profiling session `session`.
struct ThreadBoundary {
  uint64_t session = 0;
  double us = 0;
};
thread_local ThreadBoundary boundary;

class TraceRecorder final : public OpObserver {
 public:
  void start() {
    std::lock_guard<std::mutex> lock(mutex_);
    events_.clear();
    ++session_;
    start_us_ = now_us();
    boundary = {session_, start_us_};
  }

  // The op's span runs from this thread's boundary to now; the boundary moves past the time this
  // bookkeeping takes, so that the profiler's own cost is in no op's span.
  void on_op(const OpHandle& op, ArrayRef<Tensor> inputs, ArrayRef<Tensor> /*outputs*/) override {
    const double end = now_us();
    // LibTorch's names: "aten::add" for the op registered as "add.Scalar".
    const std::string name = op.name();
    TraceEvent event{"aten::" + name.substr(0, name.find('.')), 0, 0, thread_number(), {}};
    for (const Tensor& input : inputs) {
      event.input_sizes.push_back(input.defined() ? input.sizes().vec() : std::vector<int64_t>{});
    }
    add(std::move(event), end);
    boundary.us = now_us();
  }

  // A span whose start is known (RECORD_FUNCTION).
  void add_span(const char* name, double start, double end, std::vector<std::vector<int64_t>> input_sizes) {
    TraceEvent event{name, start - start_us_, end - start, thread_number(), std::move(input_sizes)};
    std::lock_guard<std::mutex> lock(mutex_);
    events_.push_back(std::move(event));
  }

  // Ops after this point start their spans here (the start or end of a RECORD_FUNCTION).
  void set_boundary(double us) { boundary = {session_, us}; }

  void write(std::ostream& out) {
    std::lock_guard<std::mutex> lock(mutex_);
    out << "{\"traceEvents\": [\n";
    for (size_t i = 0; i < events_.size(); ++i) {
      const TraceEvent& e = events_[i];
      char times[160];
      std::snprintf(times, sizeof times, "\"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": 0, \"tid\": %llu", e.ts_us,
                    e.dur_us, static_cast<unsigned long long>(e.thread));
      out << "  {\"name\": " << utils::json_quoted(e.name) << ", \"cat\": \"cpu_op\", " << times << ", \"args\": {\"Input Dims\": [";
      for (size_t k = 0; k < e.input_sizes.size(); ++k) {
        out << (k ? ", [" : "[");
        for (size_t d = 0; d < e.input_sizes[k].size(); ++d) out << (d ? ", " : "") << e.input_sizes[k][d];
        out << "]";
      }
      out << "]}}" << (i + 1 < events_.size() ? ",\n" : "\n");
    }
    out << "], \"displayTimeUnit\": \"ms\"}\n";
    events_.clear();
  }

 private:
  void add(TraceEvent event, double end) {
    // A thread's first op in this session starts where it ends: its start is unknown.
    const double start = boundary.session == session_ ? boundary.us : end;
    event.ts_us = start - start_us_;
    event.dur_us = end - start;
    std::lock_guard<std::mutex> lock(mutex_);
    events_.push_back(std::move(event));
  }

  std::mutex mutex_;
  std::vector<TraceEvent> events_;
  uint64_t session_ = 0;
  double start_us_ = 0;
};

TraceRecorder& recorder() {
  static TraceRecorder* const instance = new TraceRecorder();  // never destroyed: ops may run at exit
  return *instance;
}

bool recording() { return op_observer() == &recorder(); }

}  // namespace

namespace autograd {
namespace profiler {

RecordProfile::RecordProfile(std::ostream& out) : out_(out) { init(); }

RecordProfile::RecordProfile(const std::string& filename)
    : file_(std::make_unique<std::ofstream>(filename, std::ios::binary)), out_(*file_) {
  TT_CHECK(file_->good(), "RecordProfile: could not open '", filename,
           "' for writing; check that its directory exists and is writable");
  init();
}

void RecordProfile::init() {
  TT_CHECK(op_observer() == nullptr,
           "RecordProfile: a profiler is already recording; let the first RecordProfile go out of scope first "
           "(one profiler at a time)");
  recorder().start();
  set_op_observer(&recorder());
}

RecordProfile::~RecordProfile() {
  if (!recording()) return;
  set_op_observer(nullptr);
  recorder().write(out_);
  out_.flush();
}

}  // namespace profiler
}  // namespace autograd

RecordFunction::RecordFunction(const char* name, const std::vector<Tensor>& inputs) : name_(name) {
  if (!recording()) return;
  active_ = true;
  for (const Tensor& input : inputs) input_sizes_.push_back(input.defined() ? input.sizes().vec() : std::vector<int64_t>{});
  start_us_ = now_us();
  recorder().set_boundary(start_us_);
}

RecordFunction::~RecordFunction() {
  if (!active_ || !recording()) return;
  const double end = now_us();
  recorder().add_span(name_, start_us_, end, std::move(input_sizes_));
  recorder().set_boundary(now_us());
}

}  // namespace tinytorch
