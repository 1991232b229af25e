#!/usr/bin/env bash
# A learner's journal from start to insights: the pre-check before module 01 (answers typed one by one,
# a bad answer asked again), test runs recorded, completion, the explained post-check, the learner's
# own record (`module status --journal`, also with a damaged line), and an instructor's
# `tito instructor insights` over a class that holds that workspace twice, as an archive, and hostile
# submissions. Needs: TITO (the binary), TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch journal
expect() { grep -qF -- "$1" "$OUT" || fail "expected '$1' in the output of the last command"; }
reject() { if grep -qF -- "$1" "$OUT"; then fail "did not expect '$1' in the output"; fi; }
QUIZ="$TINYTORCH_SOURCE_DIR/curriculum/01_tensor/quiz.json"
# answers KIND: the module's check answered right ("right") or, for every other question, wrong ("mixed"),
# one answer per line.
answers() {
  python3 - "$QUIZ" "$1" <<'PY'
import json, sys
questions = json.load(open(sys.argv[1]))["questions"]
for i, q in enumerate(questions):
    right = sys.argv[2] == "right" or i % 2 == 0
    if q["kind"] == "choice":
        index = q["answer"] if right else (q["answer"] + 1) % len(q["choices"])
        print("abcde"[index])
    else:
        print(repr(q["answer"]) if right else repr(q["answer"] * 3 + 7))
PY
}
questions=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['questions']))" "$QUIZ")

cd "$SCRATCH"
run 0 "$TITO" init ws
cd ws

step "start suggests the pre-check; --answers with the wrong count is refused"
run 0 "$TITO" module start 01
expect "tito module quiz 01"
run 2 "$TITO" module quiz 01 --answers "a;b"
expect "--answers has 2 answers; module 01's check has $questions questions"

step "Ctrl-D before the last answer stops the check and records nothing"
lines_before=$(wc -l < .tito/history.jsonl)
answers mixed | head -n 1 > "$SCRATCH/short.txt"
run 130 bash -c "'$TITO' module quiz 01 < '$SCRATCH/short.txt'"
expect "nothing was recorded"
[[ $(wc -l < .tito/history.jsonl) == "$lines_before" ]] || fail "a stopped check wrote to the journal"

step "the pre-check: a bad answer is asked again, nothing is explained, the score is recorded"
{ echo "not an answer"; answers mixed; } > "$SCRATCH/pre.txt"
run 0 bash -c "'$TITO' module quiz 01 < '$SCRATCH/pre.txt'"
expect "please type"
expect "Recorded in your learning journal"
reject "lesson: \""
run 1 "$TITO" module quiz 01
expect "you took module 01's pre-check"
expect "fix: tito module complete 01"

step "test runs are recorded, the starter's cases as not implemented rather than wrong"
run 1 "$TITO" module test 01
python3 - .tito/history.jsonl <<'PY' || fail "no test event with the starter's run"
import json, sys
events = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
runs = [e for e in events if e["event"] == "test"]
assert runs and runs[-1]["module"] == "01" and runs[-1]["failed"] == [] and runs[-1]["not_implemented"] > 0, runs[-1:]
assert all(e.get("v") == 2 for e in events)
PY

step "completed (the reference's files with a line of the learner's own), the post-check explains each answer"
python3 - "$TINYTORCH_SOURCE_DIR" <<'PY'
import json, os, shutil, sys
src = sys.argv[1]
for m in json.load(open(os.path.join(src, "curriculum/curriculum.json")))["modules"]:
    if m["number"] == "01":
        for f in m["learner_files"]:
            shutil.copy(os.path.join(src, f), os.path.join("modules", "01_tensor"))
PY
echo "// checked against the lesson's example by hand" >> modules/01_tensor/memory.cpp
run 0 "$TITO" module complete 01
expect "Check what stuck, with every answer explained: tito module quiz 01"
answers right > "$SCRATCH/post.txt"
run 0 bash -c "'$TITO' module quiz 01 < '$SCRATCH/post.txt'"
expect "lesson: \""
expect "$questions/$questions right (before the module:"

step "the learner's own record: every module, one module, JSON, and a damaged line skipped"
run 0 "$TITO" module status --journal
expect "Your learning journal"
expect "01  Tensor"
run 0 "$TITO" module status --journal 01
expect "first full pass"
reject "on the reference solution"
expect "concept checks        before"
run 0 "$TITO" module status --journal 01 --json
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=d['modules']['01']; assert m['quiz_post']['score']==$questions and m['test_runs']>=2, m" "$OUT" \
  || fail "the JSON record is wrong"
echo '{"event": "test", "module": "01", "cut sho' >> .tito/history.jsonl
run 0 "$TITO" module status --journal 01
expect "was skipped: not valid JSON"
run 0 "$TITO" module status
expect "01  Tensor"  # progress is unaffected
run 2 "$TITO" module status 01
expect "fix: tito module status --journal 01"

step "insights over a class: two learners, an archive, hostile submissions, each with a row"
cd "$SCRATCH"
mkdir -p class
cp -r ws class/alice
cp -r ws bob && tar -czf class/bob.tar.gz bob && rm -rf bob
mkdir -p class/eve/modules && ln -s /etc class/eve/.tito
mkdir -p class/trent/modules
head -c 100000 /dev/urandom > class/mallory.tar.gz
run 0 "$TITO" instructor insights class --out report
expect "2 of 5 with a journal"
expect "eve: .tito is a symbolic link"
expect "mallory: archive rejected"
for f in insights.md insights.html insights-modules.csv insights-learners.csv; do [[ -s report/$f ]] || fail "report/$f missing"; done
grep -qF "| 01 Tensor |" report/insights.md || fail "insights.md has no row for module 01"
grep -qF "n = 2:" report/insights.md || fail "insights.md has no paired test of the two learners"
grep -q "^01,Tensor,2,2," report/insights-modules.csv || fail "insights-modules.csv: $(sed -n 2p report/insights-modules.csv)"
grep -qF "<svg" report/insights.html || fail "insights.html has no chart"
run 2 "$TITO" instructor insights class --out class/report
expect "--out is inside the submissions folder"
run 2 "$TITO" instructor insights nowhere
expect "nowhere: there is no such folder"
echo "ok"
