// Module 19 (Benchmarking), given code: the machine a measurement ran on (SystemInfo), in a file of
// its own so that any program can print it without linking module 19's statistics (module 17's
// timing program runs before the learner reaches module 19).
#include <sys/utsname.h>

#include <fstream>
#include <string>
#include <thread>

#include "tinytorch/parallel.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

SystemInfo SystemInfo::current() {
  SystemInfo info;
  struct utsname names {};
  if (uname(&names) == 0) {
    info.os = std::string(names.sysname) + " " + names.release + " " + names.machine;
  } else {
    info.os = "unknown";
  }
  info.cpu = "unknown";
  std::ifstream cpuinfo("/proc/cpuinfo");  // Linux; elsewhere the CPU stays "unknown"
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.compare(0, 10, "model name") == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) info.cpu = line.substr(colon + 2);
      break;
    }
  }
  info.cpu_count = static_cast<int64_t>(std::thread::hardware_concurrency());
  info.threads = get_num_threads();
#if defined(__clang__)
  info.compiler = "Clang " + std::to_string(__clang_major__) + "." + std::to_string(__clang_minor__) + "." +
                  std::to_string(__clang_patchlevel__);
#elif defined(__GNUC__)
  info.compiler = "GCC " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
                  std::to_string(__GNUC_PATCHLEVEL__);
#else
  info.compiler = "unknown";
#endif
  return info;
}

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
