#!/usr/bin/env bash
# `tito instructor validate` and `tito instructor release`: validate passes on the real module 02 and
# fails, naming the problem, on a copy of the curriculum with broken points, a test the starter passes,
# a broken reference, a solution region outside a function (and a check hint no test labels), a
# known-wrong variant whose text no longer matches and one that no test catches; release writes a
# student copy without solution text (and refuses one whose lesson gives a solution line away).
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
python3 - "$SCRATCH/markers/curriculum/02_activations/hints.json" <<'PY'
import json, sys
hints = json.load(open(sys.argv[1]))
first = next(iter(hints))
hints[first] = {"levels": hints[first], "checks": {"no such label": ["never shown"]}}
json.dump(hints, open(sys.argv[1], "w"))
PY
TITO_HOME="$SCRATCH/markers" run 1 "$TITO" instructor validate --modules 02
expect '\[x\] markers: .*activations.cpp:[0-9]+: the region "extra" is not inside a function body'
expect 'hints: .*hints for checks no test labels \(LABEL_CHECKS\): .* / no such label'  # a hint never shown
grep -q 'building and running' "$OUT" && fail "it built a module whose markers are broken"

variants=curriculum/02_activations/variants.json
step "validate names a variant whose text no longer matches the reference (nothing is built)"
copy_sources "$SCRATCH/stale"
python3 - "$SCRATCH/stale/$variants" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
data["variants"][0]["original"] = "this text is in no learner file"
json.dump(data, open(sys.argv[1], "w"))
PY
TITO_HOME="$SCRATCH/stale" run 1 "$TITO" instructor validate --modules 02 -j 2
name=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["variants"][0]["name"])' "$SCRATCH/stale/$variants")
expect "\[x\] variants: variant $name: its original text is no longer in $acts"
grep -q 'building and running' "$OUT" && fail "it built a module whose variants are stale"

step "validate on module 02: starter fails, reference passes, each known-wrong variant is caught by a named test, and one that no test catches is named"
# (The real curriculum passing validate, exit code 0, is starters_fail_reference_passes.sh's job.)
copy_sources "$SCRATCH/uncaught"
python3 - "$SCRATCH/uncaught/$variants" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
data["variants"].append({"name": "comment-only", "file": "framework/src/02_activations/activations.cpp",
                         "description": "changes a comment, which no test can see",
                         "original": "// NaN < 0 is false: NaN stays", "replacement": "// NaN stays"})
json.dump(data, open(sys.argv[1], "w"))
PY
TITO_HOME="$SCRATCH/uncaught" run 1 "$TITO" instructor validate --modules 02 -j 2
expect '\[x\] module 02 \(Activations\)'
expect '\[ok\] reference passes: 100/100 points'
expect '\[ok\] starter fails: 0/100 points'
real_variants=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["variants"]))' "$TINYTORCH_SOURCE_DIR/$variants")
expect "\\[x\\] variants: $real_variants/$((real_variants + 1)) known-wrong variants caught by a test"
expect "relu-turns-nan-into-zero: caught by 'relu keeps NaN and refuses bool tensors'"
expect 'comment-only NOT CAUGHT \(changes a comment, which no test can see\): every test passes'
expect '0 passed, 1 failed'

step "release writes a student copy without solutions, and compiles it"
run 0 "$TITO" instructor release "$SCRATCH/student"
expect 'no solution or instructor-only text found in the release; every learner file compiles'
expect 'Withheld [0-9]+ instructor-only files'
[[ ! -e "$SCRATCH/student/.git" ]] || fail "the git history was released"
[[ ! -e "$SCRATCH/student/$variants" ]] || fail "the known-wrong variants (which quote solutions) were released"
# Module 17's kernels are released as the learner's starters; its instructor extra (SIMD kernels) is not.
[[ ! -e "$SCRATCH/student/framework/src/17_acceleration/extra" ]] || fail "module 17's instructor extra was released"
grep -q 'throw tinytorch::NotImplemented("tinytorch::cpublas::blocked_gemm"' \
  "$SCRATCH/student/framework/src/17_acceleration/gemm.cpp" || fail "module 17's GEMM was not released as a starter"
if grep -rqE 'gemm_reference|_mm256_fmadd_ps|_mm512_fmadd_ps' "$SCRATCH/student/framework" "$SCRATCH/student/curriculum"; then
  fail "the release offers a finished GEMM loop or SIMD micro-kernel"
fi
[[ ! -e "$SCRATCH/student/framework/include/tinytorch/gemm.h" ]] || fail "tinytorch/gemm.h was released"
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
