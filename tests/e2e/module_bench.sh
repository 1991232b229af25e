#!/usr/bin/env bash
# `tito module bench NN`: timing a learner's own code as the lessons ask, through the real tito binary.
#   - a module with no timing program of its own says so, and how to time with one's own program;
#   - --program: the learner's own .cpp (with main()) is built against their code and run, arguments after --;
#     a missing file, a file that is not .cpp and a program that does not compile each get a clear error;
#   - module 17's timing program (curriculum/17_acceleration/bench) runs on the learner's kernels and prints
#     the machine, the build and the load beside its tables, and refuses an unknown option;
#   - `tito module test 17` shows the measuring case's table without --verbose.
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR (a configured and built tree).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch bench
expect() { grep -qF -- "$1" "$OUT" || fail "expected '$1' in the output of the last command"; }

cd "$SCRATCH"
run 0 "$TITO" init
cd workspace

step "a module without a timing program points to --program"
run 0 "$TITO" module start 01 --reference
run 1 "$TITO" module bench 01
expect "module 01 (Tensor) has no timing program of its own"
expect "tito module bench 01 --program my_timing.cpp"

step "the learner's own timing program, with its arguments"
cat > my_timing.cpp <<'CPP'
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <tinytorch/torch.h>
int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 8;
  const torch::Tensor a = torch::ones({n, n});
  const auto start = std::chrono::steady_clock::now();
  const torch::Tensor c = torch::mm(a, a);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("mm %lld: c[0][0] = %.0f in %.3f ms\n", static_cast<long long>(n), c[0][0].item<float>(), ms);
  return 0;
}
CPP
run 0 "$TITO" module bench 01 --program my_timing.cpp -- 32
expect "mm 32: c[0][0] = 32 in "
run 1 "$TITO" module bench 01 --program missing.cpp
expect "missing.cpp: there is no such file"
cp my_timing.cpp my_timing.txt
run 1 "$TITO" module bench 01 --program my_timing.txt
expect "a timing program is one C++ source file ending in .cpp"
printf 'int main() { return undeclared_name; }\n' > broken.cpp
run 1 "$TITO" module bench 01 --program broken.cpp
expect "The timing program did not compile against your code."
expect "undeclared_name"

step "module 17's timing program on the learner's kernels"
run 0 "$TITO" module complete 01
for m in 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16; do
  run 0 "$TITO" module start $m --reference
  run 0 "$TITO" module complete $m
done
run 0 "$TITO" module start 17 --reference
run 0 "$TITO" module bench 17 -- --sizes 64,96 --threads 1,2 --repeats 1
expect "machine:  "
expect "load:     "
expect "fast kernels linked (your module 17)"
expect "your GEMM, 2 threads"
grep -qE '^ +96 +[0-9.]+ ms' "$OUT" || fail "no row for n = 96 in the matmul table"
expect "LeNet-5 C3 (64x6x14x14, 16 of 5x5)"
run 1 "$TITO" module bench 17 -- --bogus 1
expect "unknown option '--bogus'"

step "the measuring case's table in tito module test, without --verbose"
run 0 "$TITO" module test 17 "[measure]"
expect "512 x 512 matmul"
expect "your GEMM, 2 threads"

echo "module_bench: all checks passed"
