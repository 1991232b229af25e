#!/usr/bin/env bash
# datasets/tinydigits/{train,test}.csv are exactly what scripts/make-tinydigits builds from Debian's
# python3-sklearn package. Needs `apt-get download` to work (package lists and network); where it
# cannot, the test says so and exits 77, which ctest reports as skipped (SKIP_RETURN_CODE): an offline
# machine cannot check the source.
set -euo pipefail
: "${TINYTORCH_SOURCE_DIR:?set TINYTORCH_SOURCE_DIR to the repository root}"

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
  echo "SKIPPED: apt-get or dpkg-deb is not installed, so the TinyDigits source package cannot be fetched"
  exit 77
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
if ! (cd "$probe" && timeout 120 apt-get download python3-sklearn >"$probe/log" 2>&1); then
  echo "SKIPPED: 'apt-get download python3-sklearn' does not work here (offline, or no package lists:"
  echo "run 'apt-get update'); TinyDigits was not checked against its source"
  sed 's/^/  apt: /' "$probe/log" | tail -n 3
  exit 77
fi

deb=$(ls "$probe"/python3-sklearn_*.deb)
"$TINYTORCH_SOURCE_DIR/scripts/make-tinydigits" --from-deb "$deb" --check
echo "TinyDigits matches its source package"
