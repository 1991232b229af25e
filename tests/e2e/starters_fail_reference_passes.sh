#!/usr/bin/env bash
# The learner's path on the reference code: one workspace walks every module that has content, in order,
# with `module start --reference`, `module test` (full points) and `module complete`, so each module's
# prerequisites and the commands' own reporting are exercised too. That each starter fails and each
# reference passes under `tito instructor validate` is checked per module by module_validation.sh
# (e2e_module_NN_validation), which ctest runs in parallel with this walk.
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
  echo "== module $number ($points points), reference through the learner's commands"
  out=$(cd reference && "$TITO" module start "$number" --reference && "$TITO" module test "$number" 2>&1) || {
    echo "FAIL: the reference of module $number did not pass its tests"; echo "$out"; exit 1; }
  echo "$out" | tail -n 1
  grep -q "Score: $points/$points points" <<<"$out" || { echo "FAIL: the reference of module $number missed points"; echo "$out"; exit 1; }
  (cd reference && "$TITO" module complete "$number" >/dev/null)
  checked=$((checked + 1))
done <<< "$modules"

echo "$checked passed, 0 failed"
