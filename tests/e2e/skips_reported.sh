#!/usr/bin/env bash
# A test that cannot check anything on this machine is reported by ctest as skipped, never passed:
# the cases that may skip have ctest entries of their own with SKIP_RETURN_CODE 77, the Catch2 main
# exits 77 when a case skipped, and the e2e stories that need the network exit 77 without it.
# Needs: TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR (a configured and built tree).
set -euo pipefail
: "${TINYTORCH_SOURCE_DIR:?set TINYTORCH_SOURCE_DIR}"
: "${TINYTORCH_BUILD_DIR:?set TINYTORCH_BUILD_DIR}"

fail() { echo "FAILED: $*"; exit 1; }

echo "--- ctest gives every entry that may skip SKIP_RETURN_CODE 77"
(cd "$TINYTORCH_BUILD_DIR" && ctest -N --show-only=json-v1) | python3 -c '
import json, sys
tests = {t["name"]: {p["name"]: p["value"] for p in t.get("properties", [])} for t in json.load(sys.stdin)["tests"]}
for name in ["framework_tests_needs_fashion_mnist", "framework_tests_needs_avx512_vnni", "tito_tests_needs_user_namespaces",
             "e2e_tinydigits_reproducible"]:
    assert name in tests, f"no ctest entry {name}"
    assert tests[name].get("SKIP_RETURN_CODE") == 77, f"{name} has no SKIP_RETURN_CODE 77"
' || fail "ctest properties"
# The entry running everything else must leave the skippable cases out, or they would pass there.
(cd "$TINYTORCH_BUILD_DIR" && ctest -N --show-only=json-v1) | python3 -c '
import json, sys
# Catch2 reads "~[a]~[b]" as one argument, so look for each exclusion anywhere in the command line.
commands = {t["name"]: " ".join(t.get("command", [])) for t in json.load(sys.stdin)["tests"]}
for tag in ["~[needs_fashion_mnist]", "~[needs_avx512_vnni]"]:
    assert tag in commands["framework_tests"], commands["framework_tests"]
assert "~[needs_user_namespaces]" in commands["tito_tests"], commands["tito_tests"]
' || fail "the main entries still run the skippable cases"

echo "--- a Catch2 case that finds nothing to check makes its program exit 77"
framework_tests=$(find "$TINYTORCH_BUILD_DIR/tests" -maxdepth 1 -name framework_tests -type f | head -n 1)
[ -x "$framework_tests" ] || fail "framework_tests is not built in $TINYTORCH_BUILD_DIR/tests"
rc=0
"$framework_tests" "[needs_fashion_mnist]" >/dev/null 2>&1 || rc=$?
if [ -d /usr/share/datasets/fashion-mnist ]; then
  [ "$rc" = 0 ] || fail "with Fashion-MNIST installed the case should run and pass (exit $rc)"
else
  [ "$rc" = 77 ] || fail "without Fashion-MNIST the case exited $rc, expected 77 (skipped)"
fi
rc=0
"$framework_tests" "fashion_mnist_root: \$TINYTORCH_FASHION_MNIST, else the Debian package folder" >/dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "a case that ran and passed exited $rc, expected 0"

echo "--- the tests that compare with LibTorch are labelled needs_libtorch and may only skip with 77"
(cd "$TINYTORCH_BUILD_DIR" && ctest -N --show-only=json-v1) | python3 -c '
import json, sys
tests = {t["name"]: {p["name"]: p["value"] for p in t.get("properties", [])} for t in json.load(sys.stdin)["tests"]}
comparisons = [n for n in tests if "vs_libtorch" in n or n in ("libtorch_parity", "compat_headers_check")]
assert len(comparisons) > 40, comparisons
for name in comparisons:
    assert "needs_libtorch" in tests[name].get("LABELS", []), f"{name} is not labelled needs_libtorch"
    assert tests[name].get("SKIP_RETURN_CODE") == 77, f"{name} has no SKIP_RETURN_CODE 77"
' || fail "LibTorch comparisons without the needs_libtorch label"

echo "--- scripts/check-skips --require fails when a labelled test skipped, passes when all ran"
project=$(mktemp -d)
trap 'rm -rf "$project"' EXIT
cat > "$project/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(skips NONE)
enable_testing()
add_test(NAME ran COMMAND true)
add_test(NAME skipped COMMAND sh -c "exit 77")
set_tests_properties(ran PROPERTIES LABELS needs_present)
set_tests_properties(skipped PROPERTIES LABELS needs_absent SKIP_RETURN_CODE 77)
CMAKE
cmake -S "$project" -B "$project/build" >/dev/null
(cd "$project/build" && ctest --output-junit "$project/run.xml" >/dev/null)
check="$TINYTORCH_SOURCE_DIR/scripts/check-skips"
python3 "$check" "$project/build" "$project/run.xml" --require needs_present >/dev/null ||
  fail "--require needs_present failed although its test ran"
rc=0
out=$(python3 "$check" "$project/build" "$project/run.xml" --require needs_absent 2>&1) || rc=$?
[ "$rc" = 1 ] || fail "--require needs_absent exited $rc although its test skipped: $out"
grep -q "1 of the 1 tests labelled needs_absent did not run: skipped" <<<"$out" || fail "the error does not name the test: $out"
grep -q "fix: " <<<"$out" || fail "the error gives no fix: $out"
rc=0
out=$(python3 "$check" "$project/build" "$project/run.xml" --require needs_nothing 2>&1) || rc=$?
[ "$rc" = 1 ] || fail "--require of a label no test carries exited $rc: $out"
grep -q "note: 1 of the 1 tests labelled needs_absent were skipped" < <(python3 "$check" "$project/build" "$project/run.xml") ||
  fail "without --require the skip is not noted"
rm -rf "$project"
trap - EXIT

echo "--- the TinyDigits story exits 77 where apt-get is missing"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
for tool in bash env mktemp rm sed tail ls; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
rc=0
out=$(PATH="$bin" bash "$TINYTORCH_SOURCE_DIR/tests/e2e/tinydigits_reproducible.sh" 2>&1) || rc=$?
[ "$rc" = 77 ] || fail "tinydigits_reproducible.sh exited $rc without apt-get, expected 77: $out"
grep -q "SKIPPED" <<<"$out" || fail "the skip does not say why: $out"
echo "PASSED"
