// The OpenBLAS baseline for the matmul cases: cblas_sgemm on row-major n x n float matrices, into a
// preallocated C (so it does not pay for allocating the result, which torch::mm does; at these
// sizes that is well under 1% of the time). Same JSON lines and case names as bench_tinytorch.
#include <cblas.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "harness.h"

int main(int argc, char** argv) {
  const bench::Options options = bench::parse_options(argc, argv);
  const std::vector<int> sizes = {64, 256, 512, 1024};
  if (options.list) {
    for (int n : sizes) std::printf("matmul_%d       cblas_sgemm %dx%d\n", n, n, n);
    return 0;
  }
  openblas_set_num_threads(options.threads);
  // Which kernel OpenBLAS picked: OPENBLAS_CORETYPE in the environment overrides its CPU detection.
  const char* coretype = std::getenv("OPENBLAS_CORETYPE");
  const char* l2_size = std::getenv("OPENBLAS_L2_SIZE");
  const bench::Fields env = {{"openblas_core", openblas_get_corename()},
                             {"OPENBLAS_CORETYPE", coretype ? coretype : ""},
                             {"OPENBLAS_L2_SIZE", l2_size ? l2_size : ""}};
  for (int n : sizes) {
    const std::string name = "matmul_" + std::to_string(n);
    if (!options.wants(name)) continue;
    std::vector<float> a(static_cast<size_t>(n) * n), b(a.size()), c(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<float>((i * 37) % 101) / 101.0f - 0.5f;
      b[i] = static_cast<float>((i * 53) % 97) / 97.0f - 0.5f;
    }
    const bench::Timing timing = bench::measure(
        [&] {
          cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                      c.data(), n);
        },
        options.budget());
    bench::print_result(name, "openblas", options.threads, timing, 2.0 * n * n * n, env);
  }
  return 0;
}
