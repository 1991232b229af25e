#!/usr/bin/env bash
# The Torch Olympics (module 20) end to end through the real `tito`:
# - `tito olympics validate` names each bad field of a submission and its fix, and accepts a good one;
# - `tito olympics submit --reference` builds module 20 with tito's measuring program, checks the
#   reference's own claims against tito's measurements and writes a verified record that says it is
#   a reference run ("origin": "reference");
# - a submission with a made-up latency is rejected, naming the field;
# - `tito olympics rank` never ranks the reference run (it lists it apart), ranks a learner's record,
#   labels one built with a copied module, warns of a record without an origin, and leaves the
#   rejected one out.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/milestone_story.bash"

echo "== submit on the reference module 20: claims checked against tito's own measurements"
run_tito 0 olympics submit --reference --learner ada
expect "$out" "claimed_metrics.optimized.latency_ms_median" "olympics submit"
expect "$out" "A reference run: the entry is built from the reference solutions" "olympics submit"
expect "$out" "Verified: the reference entry earns" "olympics submit"
expect "$out" "(a reference run: not ranked)" "olympics submit"
[ -f olympics/ada.verified.json ] || fail "no verified record written" "$out"
python3 - olympics/ada.verified.json <<'PY' || fail "the record does not say it is a reference run" "$(cat olympics/ada.verified.json)"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["origin"] == "reference", r.get("origin")
assert r["modules"]["20"] == {"origin": "reference", "reason": "reference_run"}, r["modules"].get("20")
assert all(m["origin"] == "reference" for m in r["modules"].values())
PY
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

echo "== rank: the reference run listed apart, never ranked"
run_tito 0 olympics rank olympics
expect "$out" "# Torch Olympics: 0 verified submissions" "olympics rank"
expect "$out" "1 reference run listed apart below, not ranked." "olympics rank"
expect "$out" "## Reference runs (not ranked)" "olympics rank"
grep -q "^| 1 | ada |" <<<"$out" && fail "the reference run was ranked" "$out"
expect "$out" "eve.verified.json: its claims were rejected" "olympics rank"

echo "== rank: learners' records ranked, a copied module labelled, a record without origin warned of"
# Records as a learner's submit writes them, made from the reference run's (the figures are real).
python3 - olympics/ada.verified.json olympics <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
own = {n: {"origin": "learner"} for n in r["modules"]}
bo = dict(r, learner="bo", origin="learner", modules=dict(own, **{"03": {"origin": "reference", "reason": "copied_reference_files"}}))
json.dump(bo, open(sys.argv[2] + "/bo.verified.json", "w"))
old = dict(r, learner="old")
del old["origin"], old["modules"]
json.dump(old, open(sys.argv[2] + "/old.verified.json", "w"))
PY
run_tito 0 olympics rank olympics
expect "$out" "# Torch Olympics: 2 verified submissions" "olympics rank"
expect "$out" "| 1 | bo |" "olympics rank"
expect "$out" "reference code in module 03 (copied reference files)" "olympics rank"
expect "$out" "old.verified.json: no \"origin\"" "olympics rank"
run_tito 0 olympics rank olympics --csv
expect "$out" "event,rank,learner,score,model,note" "olympics rank --csv"
expect "$out" ",1,\"bo\"," "olympics rank --csv"
expect "$out" "not ranked,\"ada\"," "olympics rank --csv"
expect "$out" "warning: olympics/old.verified.json: no \"origin\"" "olympics rank --csv"

echo "olympics_capstone: all checks passed"
