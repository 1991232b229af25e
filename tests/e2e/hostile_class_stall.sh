#!/usr/bin/env bash
# `tito grade` against learners who try to stall the whole class (issue 28, denial of service), module 02,
# next to an honest learner:
#   flooder   a file whose compile prints hundreds of megabytes of diagnostics (a warning pragma expanded
#             65,536 times through nested macros): tito reads at most 1 MB of a build's messages, line by
#             line in linear time, and skips the rest unread
#   hanger    every activation spins for ever, each in a function of its own, so that "it hangs where an
#             earlier case hung" never stops a case early: all starts of the module's test program
#             together get a bounded time, and the cases left then are "not run"
# The honest learner is graded in full, the grading ends in bounded time, tito's memory stays bounded.
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR. Skips (77) where the kernel forbids namespaces.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch stall
cd "$SCRATCH"

e2e_reference_workspace base 01 02
acts=modules/02_activations/activations.cpp
mkdir class
for learner in alice flooder hanger; do cp -a base "class/$learner"; done

python3 - "class/flooder/$acts" <<'PY'
import sys
path = sys.argv[1]
message = "tito-flood " + "x" * 200
lines = ['#define TITO_FLOOD0 _Pragma("GCC warning \\"%s\\"")' % message]
for level in range(1, 9):
    lines.append("#define TITO_FLOOD%d TITO_FLOOD%d TITO_FLOOD%d TITO_FLOOD%d TITO_FLOOD%d" % ((level,) + (level - 1,) * 4))
lines.append("void tito_flood() { TITO_FLOOD8 }")
open(path, "a").write("\n" + "\n".join(lines) + "\n")
PY
# Each activation spins in its own function: no two cases hang in the same place.
python3 - "class/hanger/$acts" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
names = re.findall(r'// BEGIN SOLUTION name="([^"]+)"', text)
for name in names:
    spin = "spin_" + re.sub(r"\W", "_", name)
    marker = re.compile(r'(// BEGIN SOLUTION name="%s"[^\n]*\n)' % re.escape(name))
    text = marker.sub(lambda m: m.group(1) + "  %s();\n" % spin, text, count=1)
    text = "static void %s() { for (volatile unsigned i = 0;; i = i + 1) {} }\n" % spin + text
open(path, "w").write(text)
print(len(names), "functions spin")
PY

step "grading (module 02, -j 3, 3 s per test run, 60 s per build)"
start=$(date +%s)
"$TITO" grade class --out grades --modules 02 -j 3 --time-limit 3 --compile-time-limit 60 >"$OUT" 2>err.txt &
e2e_wait_measuring $! || { cat err.txt; fail "tito grade exited with $?"; }
peak_kb=$PEAK_KB
elapsed=$(( $(date +%s) - start ))
echo "graded in $elapsed s, tito's peak memory $(( peak_kb / 1024 )) MB"
cat "$OUT"
if grep -q "forbids the namespaces" "$OUT"; then
  echo "SKIPPED: this kernel forbids the namespaces the sandbox needs; tito said so loudly"
  exit 77
fi

step "the honest learner is graded in full; the attackers are bounded"
grep -qE "^alice,100,100,100,graded" grades/grades.csv || { cat grades/grades.csv; fail "alice lost marks"; }
python3 - grades/grades.json <<'PY'
import json, sys
g = {l["id"]: l for l in json.load(open(sys.argv[1]))["learners"]}
hanger = g["hanger"]["modules"][0]
not_run = [c for c in hanger["cases"] if "took all of the module's" in c["message"]]
timed_out = [c for c in hanger["cases"] if c["status"] == "timed out"]
print(f"hanger: {len(timed_out)} cases timed out, {len(not_run)} not run once the module's time was spent")
assert not_run, [c["message"] for c in hanger["cases"]][:5]
flood = g["flooder"]["modules"][0]
print("flooder:", flood["status"], len(flood["note"]), "characters of note")
assert len(json.dumps(g["flooder"])) < 200_000, "the flood reached the report"
PY
if within_bound "the grading's time and tito's memory"; then
  # The hanger's starts together: at most 4 x 3 s + 30 s; the flood's build at most 60 s; both side by side.
  (( elapsed < 150 )) || fail "the grading took $elapsed s"
  (( peak_kb / 1024 < 600 )) || fail "tito's peak memory was $(( peak_kb / 1024 )) MB"
fi
echo "hostile_class_stall: all checks passed"
