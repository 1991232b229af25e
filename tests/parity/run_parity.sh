#!/usr/bin/env bash
# Runs the same program built against LibTorch and against tinytorch and diffs what they print.
set -euo pipefail
libtorch_bin=$1 tinytorch_bin=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$libtorch_bin" > "$scratch/libtorch.txt"
"$tinytorch_bin" > "$scratch/tinytorch.txt"
if diff -u --label libtorch "$scratch/libtorch.txt" --label tinytorch "$scratch/tinytorch.txt"; then
  echo "identical output: $(grep -c '^## ' "$scratch/libtorch.txt") cases"
else
  echo "tinytorch's output differs from LibTorch's (lines marked + are tinytorch's)"
  exit 1
fi
