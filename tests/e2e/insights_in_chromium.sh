#!/usr/bin/env bash
# The instructor's insights report as a browser shows it: a class of three workspaces whose journals
# hold starts, pre-checks, and every hint of module 01, then `tito instructor insights`,
# and insights.html loaded in headless Chromium (lib/html_in_chromium.sh), which must render it with its
# title and its SVG charts. Skipped (77) where no Chromium is installed: scripts/setup --with-test-packages
# installs it. Needs: TITO (the binary), TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib/learner_env.bash"
e2e_scratch insights
expect() { grep -qF -- "$1" "$OUT" || fail "expected '$1' in the output of the last command"; }
command -v "${CHROMIUM:-chromium}" >/dev/null || { bash "$here/lib/html_in_chromium.sh" /dev/null; exit $?; }

# A guess at every question of a module's check: "a" for a choice, 1 for a number (separated by ';').
guesses() {
  python3 - "$TINYTORCH_SOURCE_DIR/curriculum/$1/quiz.json" <<'PY'
import json, sys
print(";".join("a" if q["kind"] == "choice" else "1" for q in json.load(open(sys.argv[1]))["questions"]))
PY
}

cd "$SCRATCH"
mkdir class
for learner in ana ben cai; do
  run 0 "$TITO" init "class/$learner"
  (cd "class/$learner" && "$TITO" module start 01 >/dev/null && "$TITO" module quiz 01 --answers "$(guesses 01_tensor)" >/dev/null \
    && "$TITO" module hint 01 --all >/dev/null) \
    || fail "setting up $learner's workspace"
done

step "insights over the class, then the page in Chromium"
run 0 "$TITO" instructor insights class --out report
expect "3 of 3 with a journal"
grep -q "<svg" report/insights.html || grep -q "(none)" report/insights.html || fail "insights.html is empty"
run 0 bash "$here/lib/html_in_chromium.sh" --title "Learning insights" report/insights.html
expect "ok: report/insights.html"
echo "ok"
