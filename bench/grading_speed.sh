#!/usr/bin/env bash
# How long `tito grade` takes for a class: N synthetic learners (default 30), each a complete
# reference workspace of every gradable module with a per-learner comment in every learner file (so
# no result is shared through the cache), graded with -j JOBS (default 2); then the same class again
# with --keep-seed (every result cached). Prints both wall times and the load average.
#   bench/grading_speed.sh [LEARNERS] [JOBS] [MODULES]   e.g. 30 2 01,02,03,04,05 (default: every gradable
#   module); needs TITO, or tito on the PATH
set -euo pipefail
learners=${1:-30} jobs=${2:-2} only=${3:-}
tito=${TITO:-tito}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CI=1 NO_COLOR=1 TITO_HOME=${TITO_HOME:-$root}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tito-grading-speed-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
"$tito" init base >/dev/null
modules=$(python3 - "$TITO_HOME" base "$only" <<'PY'
import json, os, shutil, sys
src, ws, only = sys.argv[1], sys.argv[2], sys.argv[3].split(",") if sys.argv[3] else None
numbers = []
for m in json.load(open(os.path.join(src, "curriculum/curriculum.json")))["modules"]:
    if only and m["number"] not in only:
        continue
    if m.get("learner_files") and m.get("tests") and os.path.exists(os.path.join(src, m.get("lesson", "-"))):
        folder = os.path.join(ws, "modules", m["number"] + "_" + m["slug"])
        os.makedirs(folder, exist_ok=True)
        for f in m["learner_files"]:
            shutil.copy(os.path.join(src, f), folder)
        numbers.append(m["number"])
print(",".join(numbers))
PY
)
mkdir class
for i in $(seq -w 1 "$learners"); do
  cp -a base "class/learner$i"
  for f in class/learner$i/modules/*/*.cpp; do echo "// learner $i" >> "$f"; done
done
echo "grading $learners learners, modules $modules, -j$jobs ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
# Wall time, and CPU time of tito and everything it waited for (compilers, links, test programs):
# on a busy machine the CPU time over the cores is what an idle one would need.
grade() {
  /usr/bin/time -f "%e %U %S" -o time.txt "$tito" grade class --out grades -j "$jobs" --modules "$modules" "$@" >out.txt 2>/dev/null
  head -n 1 out.txt
  read -r wall user sys < time.txt
  echo "  wall $wall s, CPU $(echo "$user + $sys" | bc) s (idle $(nproc)-core estimate: $(echo "($user + $sys) / $jobs" | bc) s)"
}
grade
grade --keep-seed  # the same seed, so every result is reused (without it, a new seed grades everything again)
python3 - grades/grades.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
short = [r["learner"] for r in rows if r["total"] != r["max"]]
assert not short, f"not full marks: {short}"
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
