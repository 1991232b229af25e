// torch::autograd::profiler::RecordProfile: a Chrome trace of the ops run while the guard lives,
// and RECORD_FUNCTION spans of one's own. Timings differ between runs and libraries, so only the
// trace's shape is printed: which op names and which keys it holds.
#include <iostream>
#include <sstream>
#include <string>

#include "compat.h"

namespace profiler_record_profile_program {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

COMPAT_PROGRAM(profiler_record_profile) {
  auto a = torch::arange(6, torch::kFloat).reshape({2, 3});
  auto b = torch::ones({3, 2});
  std::ostringstream trace;
  {
    torch::autograd::profiler::RecordProfile profile(trace);
    {
      RECORD_FUNCTION("my_block", {});  // declares `guard`, as LibTorch's macro does
      auto c = torch::mm(a, b);
      auto d = torch::relu(c);
      std::cout << "result " << d << "\n";
    }
  }
  const std::string text = trace.str();
  std::cout << "mm recorded " << has(text, "\"aten::mm\"") << "\n";
  std::cout << "relu recorded " << has(text, "\"aten::relu\"") << "\n";
  std::cout << "span recorded " << has(text, "\"my_block\"") << "\n";
  std::cout << "complete events " << has(text, "\"ph\": \"X\"") << "\n";
  std::cout << "has ts and dur " << (has(text, "\"ts\":") && has(text, "\"dur\":")) << "\n";
  // Nothing is recorded once the guard is gone.
  std::ostringstream second;
  auto e = torch::mm(a, b);
  {
    torch::autograd::profiler::RecordProfile profile(second);
  }
  std::cout << "empty trace has mm " << has(second.str(), "aten::mm") << "\n";
  return 0;
}

}  // namespace profiler_record_profile_program
