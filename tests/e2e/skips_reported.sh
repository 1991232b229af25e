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

echo "--- the TinyDigits story exits 77 where apt-get is missing"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
for tool in bash env mktemp rm sed tail ls; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
rc=0
out=$(PATH="$bin" bash "$TINYTORCH_SOURCE_DIR/tests/e2e/tinydigits_reproducible.sh" 2>&1) || rc=$?
[ "$rc" = 77 ] || fail "tinydigits_reproducible.sh exited $rc without apt-get, expected 77: $out"
grep -q "SKIPPED" <<<"$out" || fail "the skip does not say why: $out"
echo "PASSED"
