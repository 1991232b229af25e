#!/usr/bin/env bash
# What a learner sees when their code goes wrong, through the real tito binary, on module 01 taken
# from the reference and then broken on purpose:
#   a subset of cases by tag or name, and --json;
#   a crash: re-run under AddressSanitizer, the kind of error and the learner's file:line named;
#   a hang: signs of life while it runs, where it was when stopped, and the next case stuck in the
#     same place stopped early;
#   a compile error: the first error in the learner's file, one line for the cases not run;
#   sizes printed alike on both sides; no "module complete" advice once the module is complete.
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR (a configured and built tree).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch diagnostics
expect() { grep -q -- "$1" "$OUT" || fail "expected '$1' in the output of the last command"; }
reject() { if grep -q -- "$1" "$OUT"; then fail "did not expect '$1' in the output"; fi; }
# plant FILE PATTERN TEXT: insert TEXT after the first line matching PATTERN (fails if none does).
plant() {
  grep -qF -- "$2" "$1" || fail "cannot plant: no '$2' in $1"
  python3 - "$1" "$2" "$3" <<'PY'
import sys
path, pattern, text = sys.argv[1:]
lines = open(path).read().split("\n")
at = next(i for i, line in enumerate(lines) if pattern in line)
lines.insert(at + 1, text)
open(path, "w").write("\n".join(lines))
PY
}

cd "$SCRATCH"
run 0 "$TITO" init
cd workspace
run 0 "$TITO" module start 01 --reference
M=modules/01_tensor
cp -r "$M" "$SCRATCH/pristine"
restore() { rm -rf "$M"; cp -r "$SCRATCH/pristine" "$M"; }

step "a subset by tag, and the report as JSON"
run 0 "$TITO" module test 01 "[matmul]"
expect "only the cases matching \"\[matmul\]\""
reject "reshape"
expect "next: tito module test 01"
"$TITO" module test 01 "[matmul]" --json >"$OUT" 2>"$SCRATCH/err.txt" || fail "module test --json failed"
python3 - "$OUT" <<'PY' || fail "module test --json"
import json, sys
report = json.load(open(sys.argv[1]))
assert report["module"] == "01" and report["filter"] == "[matmul]", report
cases = report["cases"]
assert len(cases) == 5, [c["name"] for c in cases]
assert all(c["name"].startswith(("mm ", "matmul ", "bmm ")) for c in cases), [c["name"] for c in cases]
assert all({"name", "points", "status", "failure"} <= set(c) for c in cases)
assert all(c["status"] == "passed" and c["failure"] == "" for c in cases)
assert report["points_possible"] == sum(c["points"] for c in cases) == 20
PY
run 0 "$TITO" module test 01 "mm multiplies*"
[[ $(grep -c '^  \[ok\]' "$OUT") == 1 ]] || fail "a name wildcard should select one case"

step "a crash is re-run under AddressSanitizer and named with the learner's line"
plant $M/matmul.cpp 'TT_CHECK(self.dim() == 2, "self must be a matrix");' \
  '  { std::vector<float> tiny(4); volatile float* out_of_bounds = tiny.data(); for (std::size_t i = 0; i < (std::size_t(1) << 34); ++i) out_of_bounds[i] = 1; }  // PLANTED'
line=$(grep -n "// PLANTED" $M/matmul.cpp | cut -d: -f1)
run 1 "$TITO" module test 01 "mm multiplies*"
expect "crashed"
expect "where: "
if grep -q "AddressSanitizer" "$OUT"; then
  expect "heap-buffer-overflow, write of 4 bytes, matmul.cpp:$line in tinytorch::native::mm"
else
  expect "SIGSEGV at matmul.cpp:$line"
fi
reject "tito-backtrace"
reject "All tests passed"  # Catch2's own report stays out of the learner's view
restore

step "a hang shows signs of life, says where it was, and the next case stuck there is stopped early"
plant $M/shape_ops.cpp 'std::vector<int64_t> result = shape.vec();' \
  '  for (volatile unsigned spin = 0;; spin = spin + 1) {}  // PLANTED (unsigned: wraps without undefined behaviour, which UBSan would report as a crash)'
line=$(grep -n "// PLANTED" $M/shape_ops.cpp | cut -d: -f1)
run 1 "$TITO" module test 01 "[no-such-tag]"  # builds, so that the time below is the cases' own
expect "No test case matches"
start=$(date +%s)
run 1 "$TITO" module test 01 "[shape]"
took=$(( $(date +%s) - start ))
expect "still running: reshape and view infer one -1 dimension (10 s)"
expect "timed out"
expect "where: it was still running at shape_ops.cpp:$line in tinytorch::"
expect "re-running the 1 test case not yet run"
expect "stopped after [0-9] s: it hangs where 'reshape and view infer one -1 dimension' did"
# One full limit (30 s) for the first case; the second is stopped within seconds, not after 30 more.
(( took < 50 )) || fail "two hanging cases took $took s"
restore

step "sizes print the same way on both sides of a comparison"
plant $M/shape_ops.cpp 'result[infer_dim] = numel / known_product;' '    result.push_back(1);  // PLANTED'
run 1 "$TITO" module test 01 "reshape and view infer one -1 dimension"
expect "expected: \[6\]"
expect "actual:   \[6, 1\]"
restore

step "a compile error shows the first error in the learner's file and one line for the cases not run"
plant $M/matmul.cpp 'TT_CHECK(self.dim() == 2, "self must be a matrix");' '  int planted = undeclared_name;  // PLANTED'
line=$(grep -n "// PLANTED" $M/matmul.cpp | cut -d: -f1)
run 1 "$TITO" module test 01
# GCC: "'undeclared_name' was not declared in this scope"; Clang: "use of undeclared identifier 'undeclared_name'".
expect "matmul.cpp:$line:[0-9]*: error: \(.undeclared_name. was not declared in this scope\|use of undeclared identifier .undeclared_name.\)"
expect "test cases did not run (the code did not compile)"
expect "tito module test 01 --verbose"
reject "FAILED:"
reject "pts  not run"
[[ $(wc -l <"$OUT") -lt 20 ]] || fail "a one-error build should take fewer than 20 lines"
run 1 "$TITO" module test 01 --verbose
expect "undeclared_name"
expect "pts  not run"
restore

step "milestone info says (optional) once for an optional part"
run 0 "$TITO" milestone info 03
grep -q "Part 3: .*optional" "$OUT" || fail "part 3 should be marked optional"
if grep "Part 3: " "$OUT" | grep -q "optional.*optional"; then fail "(optional) printed twice"; fi

step "once the module is complete, a passing test no longer says to complete it"
run 0 "$TITO" module complete 01
run 0 "$TITO" module test 01 "[matmul]"
run 0 "$TITO" module test 01
reject "next: tito module complete 01"
expect "next: "
expect "Score: "
echo "PASSED"
