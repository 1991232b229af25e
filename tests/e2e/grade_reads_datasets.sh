#!/usr/bin/env bash
# `tito grade` of modules that train on the course's datasets (16 and 20 use TinyDigits): the confined
# test program sees the datasets folder read-only, so the reference solution earns every point there
# too (before, the fresh root hid it and the reference lost 5 and 20 points).
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch datasets
cd "$SCRATCH"

mkdir class
e2e_reference_workspace class/reference 16 20
step "grading the reference solution of modules 16 and 20"
run 0 "$TITO" grade class --out grades --modules 16,20 -j 2
cat "$OUT"
if grep -q "forbids the namespaces" "$OUT"; then
  echo "SKIPPED: this kernel forbids the namespaces the sandbox needs (then nothing is hidden from the program)"
  exit 77
fi
grep -qE '^reference,100,100,200,200,graded' grades/grades.csv || { cat grades/grades.csv; fail "the reference lost points"; }
echo "grade_reads_datasets: all checks passed"
