#!/usr/bin/env bash
# The Torch Olympics (module 20) end to end through the real `tito`:
# - `tito olympics validate` names each bad field of a submission and its fix, and accepts a good one;
# - `tito olympics submit --reference` builds module 20 with tito's measuring program, checks the
#   reference's own claims against tito's measurements and writes a verified record;
# - a submission with a made-up latency is rejected, naming the field;
# - `tito olympics rank` ranks the verified record and leaves the rejected one out.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/milestone_story.bash"

echo "== submit on the reference module 20: claims checked against tito's own measurements"
run_tito 0 olympics submit --reference --learner ada
expect "$out" "claimed_metrics.optimized.latency_ms_median" "olympics submit"
expect "$out" "Verified: ada enters" "olympics submit"
[ -f olympics/ada.verified.json ] || fail "no verified record written" "$out"
[ -f olympics/submission.json ] || fail "the submission was not written" "$out"

echo "== validate: the good submission passes; a broken one names fields and fixes"
run_tito 0 olympics validate olympics/submission.json
expect "$out" "follows the submission schema" "olympics validate"
python3 - olympics/submission.json "$scratch/broken.json" "$scratch/forged.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
broken = json.loads(json.dumps(s))
broken["claimed_metrics"]["optimized"]["accuracy"] = 93
del broken["system_info"]["threads"]
json.dump(broken, open(sys.argv[2], "w"))
forged = json.loads(json.dumps(s))
forged["claimed_metrics"]["optimized"]["latency_ms_median"] /= 50
json.dump(forged, open(sys.argv[3], "w"))
PY
run_tito 1 olympics validate "$scratch/broken.json"
expect "$out" "claimed_metrics.optimized.accuracy is 93, above the maximum 1" "olympics validate (broken)"
expect "$out" "0.93, not 93" "olympics validate (broken)"
expect "$out" "system_info.threads is missing" "olympics validate (broken)"
run_tito 2 olympics validate "$scratch/nowhere.json"

echo "== a made-up latency is rejected"
run_tito 1 olympics submit --reference --learner eve --claims "$scratch/forged.json"
expect "$out" "claimed_metrics.optimized.latency_ms_median" "olympics submit (forged)"
expect "$out" "more than a factor 2 apart" "olympics submit (forged)"
expect "$out" "Rejected" "olympics submit (forged)"

echo "== rank: the verified record is ranked, the rejected one left out"
run_tito 0 olympics rank olympics
expect "$out" "# Torch Olympics: 1 verified submission" "olympics rank"
expect "$out" "| 1 | ada |" "olympics rank"
expect "$out" "eve.verified.json: its claims were rejected" "olympics rank"
run_tito 0 olympics rank olympics --csv
expect "$out" "event,rank,learner,score,model" "olympics rank --csv"

echo "olympics_capstone: all checks passed"
