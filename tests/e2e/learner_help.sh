#!/usr/bin/env bash
# What a learner reads without leaving the workspace: `tito module view NN --files/--file NAME`
# prints the given code and public headers (never a learner file's reference), and
# `tito module hint NN CASE` reveals one hint level per call, remembered in the workspace's progress.
# Needs: TITO (the binary), TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch help
expect() { grep -qF -- "$1" "$OUT" || fail "expected '$1' in the output of the last command"; }
reject() { if grep -qF -- "$1" "$OUT"; then fail "did not expect '$1' in the output"; fi; }

cd "$SCRATCH"
run 0 "$TITO" init ws
cd ws

step "view --files lists module 02's given code, not the learner's file"
run 0 "$TITO" module view 02 --files
expect "activation_ops.cpp"
expect "activation_modules.cpp"
reject "  - activations.cpp"  # the list line: more_activations.cpp (given) must not match

step "view --file prints a given source and a public header, byte for byte"
run 0 "$TITO" module view 02 --file activation_ops.cpp
cmp -s "$OUT" "$TINYTORCH_SOURCE_DIR/framework/src/02_activations/activation_ops.cpp" || fail "activation_ops.cpp differs"
run 0 "$TITO" module view 01 --file tinytorch/tensor.h
cmp -s "$OUT" "$TINYTORCH_SOURCE_DIR/framework/include/tinytorch/tensor.h" || fail "tensor.h differs"
run 0 "$TITO" module view 01 --file tinytorch/tensor.h --path
expect "framework/include/tinytorch/tensor.h"

step "view --file refuses a learner file (the reference holds the solution) and an unknown name"
run 1 "$TITO" module view 02 --file activations.cpp
expect "activations.cpp is yours to write: open modules/02_activations/activations.cpp"
reject "BEGIN SOLUTION"
run 2 "$TITO" module view 02 --file ../02_activations/activations.cpp
expect "fix: tito module view 02 --files"

step "hint lists the cases, then reveals one level per call and remembers it"
run 0 "$TITO" module hint 07
expect "0/3  zero_grad zeros every gradient of every group and keeps the tensors"
expect 'next: tito module hint 07 "zero_grad zeros every gradient'
run 0 "$TITO" module hint 07 zero_grad
expect "hint 1 of 3"
expect "1. Section 2"
reject "2. Loop over"
grep -q '"hints_shown"' .tito/progress.json || fail "progress.json does not remember the hint"
run 0 "$TITO" module hint 07 zero_grad
expect "hint 2 of 3"
expect "2. Loop over param_groups_"
reject "3. p.grad() is read-only"
run 0 "$TITO" module hint 07
expect "2/3  zero_grad zeros"

step "--all shows every level; an ambiguous or unknown case is a usage error"
run 0 "$TITO" module hint 07 zero_grad --all
expect "hint 3 of 3"
expect "3. p.grad() is read-only"
run 0 "$TITO" module hint 07 zero_grad
expect "Every hint for this case is shown"
run 2 "$TITO" module hint 07 "SGD"
expect "matches 5 test cases"
run 2 "$TITO" module hint 07 "no such case"
expect "no test case matching 'no such case'"

echo "learner_help: all checks passed"
