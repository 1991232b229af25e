#!/usr/bin/env bash
# For every module that has content: the generated starter compiles and fails its tests with 0 points and
# no crash, and the reference solution passes them with full points. One workspace walks the modules in
# order with reference code (so each module's prerequisites are complete); before each module a copy of
# that workspace starts the module from the starter instead.
set -euo pipefail
: "${TITO:?set TITO to the tito binary}" "${TINYTORCH_SOURCE_DIR:?}"
export CI=1 NO_COLOR=1

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
"$TITO" init reference >/dev/null

modules=$(python3 - "$TINYTORCH_SOURCE_DIR/curriculum/curriculum.json" "$TINYTORCH_SOURCE_DIR" <<'PY'
import json, os, sys
meta = json.load(open(sys.argv[1]))
for m in meta["modules"]:
    if "lesson" in m and os.path.exists(os.path.join(sys.argv[2], m["lesson"])):
        print(m["number"], m["points"])
PY
)
[ -n "$modules" ] || { echo "no module has content"; exit 1; }

checked=0
while read -r number points; do
  echo "== module $number ($points points)"
  rm -rf starter && cp -a reference starter

  set +e
  out=$(cd starter && "$TITO" module start "$number" && "$TITO" module test "$number" 2>&1)
  status=$?
  set -e
  echo "$out" | tail -n 3
  [ "$status" -ne 0 ] || { echo "FAIL: the starter of module $number passed its tests"; exit 1; }
  echo "$out" | grep -q "Score: 0/$points points" || { echo "FAIL: the starter of module $number earned points"; echo "$out"; exit 1; }
  if echo "$out" | grep -qiE 'crashed|timed out|build failed|compile error'; then
    echo "FAIL: the starter of module $number did not fail cleanly"; echo "$out"; exit 1
  fi

  out=$(cd reference && "$TITO" module start "$number" --reference && "$TITO" module test "$number" 2>&1) || {
    echo "FAIL: the reference of module $number did not pass its tests"; echo "$out"; exit 1; }
  echo "$out" | tail -n 1
  echo "$out" | grep -q "Score: $points/$points points" || { echo "FAIL: the reference of module $number missed points"; echo "$out"; exit 1; }
  (cd reference && "$TITO" module complete "$number" >/dev/null)
  checked=$((checked + 1))
done <<< "$modules"

echo "$checked passed, 0 failed"
