#!/usr/bin/env bash
# One module, checked the way an instructor checks it before a term: `tito instructor validate --modules NN`
# (markers well formed, points add up, the generated starter compiles and scores 0 without crashing, the
# reference scores full points, every known-wrong variant in variants.json loses points).
# CMake registers one test per module that has a lesson (e2e_module_NN_validation), so ctest spreads the
# modules over the cores; the learner's walk through all of them is starters_fail_reference_passes.sh.
# Usage: module_validation.sh NN      Needs: TITO, TINYTORCH_SOURCE_DIR.
set -euo pipefail
: "${TITO:?set TITO to the tito binary}" "${TINYTORCH_SOURCE_DIR:?}"
[ $# -eq 1 ] || { echo "usage: module_validation.sh NN (a module number from curriculum/curriculum.json)"; exit 2; }
export CI=1 NO_COLOR=1

# A module whose tests need an OpenCL device (module 22) is skipped, not passed, where none exists.
if grep -qs 'REQUIRE_OPENCL_DEVICE()' "$TINYTORCH_SOURCE_DIR"/curriculum/"$1"_*/tests/*.cpp &&
   ! { command -v clinfo >/dev/null && clinfo -l 2>/dev/null | grep -q 'Device #'; }; then
  echo "skipped: module $1's tests need an OpenCL device and none is present (install pocl-opencl-icd and clinfo)"
  exit 77
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
# Two compile jobs: ctest runs two of these at once on a 2-core machine, and validate's own work
# (the starter, the reference, the variants) is mostly one file at a time anyway.
"$TITO" instructor validate --modules "$1" -j 2 || { echo "FAIL: tito instructor validate --modules $1"; exit 1; }
