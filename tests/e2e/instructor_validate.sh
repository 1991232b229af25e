#!/usr/bin/env bash
# `tito instructor validate` and `tito instructor release`: validate passes on the real module 02 and
# fails, naming the problem, on a copy of the curriculum with broken points, a test the starter passes,
# a broken reference and a solution region outside a function; release writes a student copy without
# solution text (and refuses one whose lesson gives a solution line away).
# (Every module is validated by starters_fail_reference_passes.sh.)
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR.
set -euo pipefail
: "${TITO:?set TITO to the tito binary}" "${TINYTORCH_SOURCE_DIR:?}" "${TINYTORCH_BUILD_DIR:?}"
export CI=1 NO_COLOR=1 TITO_HOME="$TINYTORCH_SOURCE_DIR" TITO_BUILD_DIR="$TINYTORCH_BUILD_DIR"
unset TITO_WORKSPACE

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/tito-validate-XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
OUT="$SCRATCH/out.txt"
fail() { echo "FAILED: $*"; echo "--- last output:"; cat "$OUT" 2>/dev/null || true; exit 1; }
expect() { grep -qE -- "$1" "$OUT" || fail "expected '$1' in the output"; }
step() { echo "--- $*"; }
run() {  # EXPECTED_RC cmd...
  local expected=$1 rc=0; shift
  "$@" >"$OUT" 2>&1 || rc=$?
  [[ $rc == "$expected" ]] || fail "'$*' exited $rc, expected $expected"
}

step "validate passes on module 02"
run 0 "$TITO" instructor validate --modules 02 -j 2
expect '\[ok\] module 02 \(Activations\)'
expect 'reference passes: 100/100 points'
expect 'starter fails: 0/100 points'
expect '1 passed, 0 failed'

# A copy of the sources that tito can be pointed at (TITO_HOME): the curriculum and module 02's code.
copy_sources() {
  local dest=$1
  mkdir -p "$dest/framework/src"
  cp -a "$TINYTORCH_SOURCE_DIR/curriculum" "$dest/"
  cp -a "$TINYTORCH_SOURCE_DIR/framework/src/02_activations" "$dest/framework/src/"
  cp -a "$TINYTORCH_SOURCE_DIR/framework/include" "$dest/framework/"
}
acts=framework/src/02_activations/activations.cpp
tests=curriculum/02_activations/tests/test_activations.cpp

step "validate names a points mismatch, a test the starter passes and a broken reference"
copy_sources "$SCRATCH/broken"
echo 'TEST_CASE("passes without any code", "[points=5]") { CHECK(true); }' >> "$SCRATCH/broken/$tests"
perl -0pi -e 's|(// BEGIN SOLUTION name="tinytorch::native::sigmoid"[^\n]*\n)|$1  throw std::runtime_error("reference broken");\n|' \
  "$SCRATCH/broken/$acts"
TITO_HOME="$SCRATCH/broken" run 1 "$TITO" instructor validate --modules 02 -j 2
expect '\[x\] points: 21 test cases worth 105 points; curriculum.json says 100'
expect "\[x\] starter fails: 5/105 points.*'passes without any code' passes on the starter"
expect '\[x\] reference passes: [0-9]+/100 points; failing: sigmoid'
expect '0 passed, 1 failed'

step "validate refuses a solution region outside a function body (nothing is built)"
copy_sources "$SCRATCH/markers"
printf '\nnamespace extra {\n// BEGIN SOLUTION name="extra" lesson="1. Extra"\nint helper() { return 1; }\n// END SOLUTION\n}\n' \
  >> "$SCRATCH/markers/$acts"
TITO_HOME="$SCRATCH/markers" run 1 "$TITO" instructor validate --modules 02
expect '\[x\] markers: .*activations.cpp:[0-9]+: the region "extra" is not inside a function body'
grep -q 'building and running' "$OUT" && fail "it built a module whose markers are broken"

step "release writes a student copy without solutions, and compiles it"
run 0 "$TITO" instructor release "$SCRATCH/student"
expect 'no solution text found in the release; every learner file compiles'
[[ ! -e "$SCRATCH/student/.git" ]] || fail "the git history was released"
grep -q 'throw tinytorch::NotImplemented("tinytorch::native::relu"' "$SCRATCH/student/$acts" || fail "no starter in the release"
if grep -rq --include='*.cpp' --include='*.h' 'BEGIN SOLUTION' "$SCRATCH/student/framework"; then
  fail "a solution marker was released"
fi
cmp -s "$TINYTORCH_SOURCE_DIR/$tests" "$SCRATCH/student/$tests" || fail "the tests were not kept"
cmp -s "$TINYTORCH_SOURCE_DIR/curriculum/02_activations/lesson.md" "$SCRATCH/student/curriculum/02_activations/lesson.md" ||
  fail "the lesson was not kept"
[[ -x "$SCRATCH/student/scripts/setup" ]] || fail "scripts lost their executable bit"
run 1 "$TITO" instructor release "$SCRATCH/student"
expect 'already exists and is not empty'

step "release refuses a tree whose lesson gives a solution line away"
copy_sources "$SCRATCH/leaky"
line=$(grep -m1 'out_data\[i\] = in\[i\] < 0' "$SCRATCH/leaky/$acts")
printf '\n```cpp\n%s\n```\n' "$line" >> "$SCRATCH/leaky/curriculum/02_activations/lesson.md"
TITO_HOME="$SCRATCH/leaky" run 1 "$TITO" instructor release "$SCRATCH/leaky-student"
expect 'solution text left at curriculum/02_activations/lesson.md:[0-9]+'
echo "instructor_validate: all checks passed"
