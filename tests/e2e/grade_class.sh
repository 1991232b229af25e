#!/usr/bin/env bash
# `tito grade` on a synthetic class built here from the reference code (modules 01-02): full marks,
# partial marks, a compile error, a crashing test, a hanging test, a missing workspace, an empty folder,
# damaged progress files, a modified learner-side test file, archives with '..' and absolute entries,
# a duplicate learner id. Every submission gets a row; the run completes. Then the reports, a rerun that
# reuses the cache, --cumulative, --gradescope and `tito instructor report`.
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR.
set -euo pipefail
: "${TITO:?set TITO to the tito binary}" "${TINYTORCH_SOURCE_DIR:?}" "${TINYTORCH_BUILD_DIR:?}"
export CI=1 NO_COLOR=1 TITO_HOME="$TINYTORCH_SOURCE_DIR" TITO_BUILD_DIR="$TINYTORCH_BUILD_DIR"
unset TITO_WORKSPACE

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/tito-grade-XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
cd "$SCRATCH"
fail() { echo "FAILED: $*"; exit 1; }
step() { echo "--- $*"; }

# A workspace holding the reference files of modules 01 and 02.
"$TITO" init base >/dev/null
python3 - "$TINYTORCH_SOURCE_DIR" base <<'PY'
import json, os, shutil, sys
src, ws = sys.argv[1], sys.argv[2]
for m in json.load(open(os.path.join(src, "curriculum/curriculum.json")))["modules"]:
    if m["number"] in ("01", "02"):
        folder = os.path.join(ws, "modules", m["number"] + "_" + m["slug"])
        os.makedirs(folder, exist_ok=True)
        for f in m["learner_files"]:
            shutil.copy(os.path.join(src, f), folder)
PY
acts=modules/02_activations/activations.cpp
# put LEARNER 'C++ statement': inserts the statement at the start of the learner's relu solution.
put() { perl -0pi -e "s|(// BEGIN SOLUTION name=\"tinytorch::native::relu\"[^\n]*\n)|\$1  $2\n|" "class/$1/$acts"; }

step "building the class"
mkdir class
for learner in alice bob carol dave erin heidi ivan; do cp -a base "class/$learner"; done
put bob 'throw std::runtime_error("relu left for later");'             # partial marks
put carol 'this is not C++;'                                             # compile error
put dave '__builtin_trap();'                                             # crashes in relu's tests
put erin 'for (volatile unsigned spin = 0;; spin = spin + 1) {}'             # hangs in relu's tests
echo '{ not json' > class/heidi/.tito/progress.json                     # damaged progress: ignored
echo 'garbage' > class/heidi/.tito/workspace.json
cp "$TINYTORCH_SOURCE_DIR/curriculum/02_activations/tests/test_activations.cpp" class/ivan/modules/02_activations/
echo 'TEST_CASE("free points", "[points=100]") {}' >> class/ivan/modules/02_activations/test_activations.cpp
mkdir -p class/frank/Documents && echo "my homework" > class/frank/Documents/notes.txt   # no workspace
mkdir class/grace                                                                      # empty
(cd base/.. && tar -czf class/judy.tar.gz --transform 's,^base,workspace,' base)       # a good archive
tar -czf class/alice.tar.gz base                                                        # duplicate id
echo "outside" > victim.txt
python3 - class <<'PY'
import io, sys, tarfile
def archive(path, name):
    with tarfile.open(path, "w:gz") as tar:
        data = b"overwritten\n"
        info = tarfile.TarInfo(name); info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
archive(sys.argv[1] + "/mallory.tar.gz", "../../victim.txt")
archive(sys.argv[1] + "/oscar.tgz", "/tmp/tito-grade-absolute-entry.txt")
PY
printf 'not a tar file' > class/trent.tar.gz

step "grading the class (module 02, -j2, 5 s per test run)"
start=$(date +%s)
"$TITO" grade class --out grades --modules 02 -j 2 --time-limit 5 >out.txt 2>err.txt || { cat out.txt err.txt; fail "tito grade exited $?"; }
echo "graded in $(( $(date +%s) - start )) s"
cat out.txt
[[ -f grades/grades.csv && -f grades/grades.json && -f grades/report/index.html ]] || fail "reports missing"
[[ $(cat victim.txt) == outside ]] || fail "an archive wrote outside the scratch folder"
[[ ! -e /tmp/tito-grade-absolute-entry.txt ]] || fail "an absolute archive entry was extracted"

row() { grep "^$1," grades/grades.csv || fail "no row for $1"; }
expect_row() {  # LEARNER REGEX
  grep -qE "$2" <<<"$(row "$1")" || { cat grades/grades.csv; fail "row of $1 does not match $2: $(row "$1")"; }
}
# Every workspace here is the reference copied unchanged for 01 and 02: one flag per module says so.
expect_row ivan    '^ivan,100,100,100,graded \(3 flags\)'
expect_row heidi   '^heidi,100,100,100,graded'
expect_row judy    '^judy,100,100,100,graded \(2 flags\)$'
expect_row bob     '^bob,[1-9][0-9]?,'
expect_row carol   '^carol,0,0,100,graded'
expect_row dave    '^dave,[1-9][0-9]?,'
expect_row erin    '^erin,[1-9][0-9]?,'
expect_row frank   'not graded: no workspace found'
expect_row grace   'not graded: the submission is empty'
expect_row mallory "not graded: archive rejected: .*'\.\.' component"
expect_row oscar   'not graded: archive rejected: .*absolute path'
expect_row trent   'not graded: archive rejected: .*not a readable tar archive'
[[ $(grep -c '^alice,0,0,100,not graded: duplicate learner id' grades/grades.csv) == 2 ]] || { cat grades/grades.csv; fail "alice/ and alice.tar.gz"; }
[[ $(wc -l < grades/grades.csv) == 15 ]] || fail "expected a header and 14 rows"

step "grades.json: statuses, messages and flags per test case"
python3 - grades/grades.json <<'PY'
import json, sys
g = {l["id"]: l for l in json.load(open(sys.argv[1]))["learners"]}
def cases(who): return {c["name"]: c for c in g[who]["modules"][0]["cases"]}
def statuses(who): return {c["status"] for c in cases(who).values()}
assert "crashed" in statuses("dave"), statuses("dave")
assert any("SIGILL" in c["message"] or "SIGTRAP" in c["message"] for c in cases("dave").values() if c["status"] == "crashed")
assert "timed out" in statuses("erin"), statuses("erin")
assert "error" in statuses("bob") and any("relu left for later" in c["message"] for c in cases("bob").values())
assert g["carol"]["modules"][0]["status"] == "build failed" and "not C++" in g["carol"]["modules"][0]["note"]
assert any("test_activations.cpp differs" in f for f in g["ivan"]["flags"]), g["ivan"]["flags"]
assert any("progress.json is damaged" in f for f in g["heidi"]["flags"]), g["heidi"]["flags"]
assert sum("the reference solution unchanged" in f for f in g["judy"]["flags"]) == 2, g["judy"]["flags"]
for who in ("bob", "dave", "erin"):  # only the broken function's tests are lost
    assert 0 < g[who]["earned"] < 100, (who, g[who]["earned"])
    assert all(c["status"] != "passed" for n, c in cases(who).items() if n.startswith("relu ")), who
    assert all(c["status"] == "passed" for n, c in cases(who).items() if n.split()[0] in ("sigmoid", "softmax", "log_softmax")), who
print("ok")
PY

step "the HTML report: overview with SVG charts, a page per learner"
grep -q '<svg' grades/report/index.html || fail "no chart"
grep -q 'relu left for later' grades/report/learners/bob.html || fail "bob's page lacks his failure"

step "a rerun that keeps the seed reuses every unchanged result; a changed learner is rebuilt"
put bob 'throw std::runtime_error("still later");'
"$TITO" grade class --out grades --modules 02 -j 2 --time-limit 5 --keep-seed >out.txt 2>&1 || fail "rerun"
grep -q "(1 module results rebuilt, 6 reused from the cache" out.txt || { cat out.txt; fail "cache not reused"; }

step "tito instructor report"
"$TITO" instructor report grades >out.txt || fail "report"
cat out.txt | head -20
grep -q "Module 02 (Activations): mean" out.txt || fail "no module statistics"
grep -qE "most common failures" out.txt || fail "no failure summary"

step "--cumulative grades module 02 on the learner's own module 01"
mkdir cumulative && cp -a class/alice cumulative/kim
perl -0pi -e 's|(// BEGIN SOLUTION name="tinytorch::native::broadcast_binary_loop"[^\n]*\n)|$1  throw std::runtime_error("broken broadcast");\n|' \
  cumulative/kim/modules/01_tensor/elementwise.cpp
"$TITO" grade cumulative --out cumulative-default --modules 02 --time-limit 10 >/dev/null || fail "default mode"
"$TITO" grade cumulative --out cumulative-own --modules 02 --cumulative --time-limit 10 >/dev/null || fail "cumulative mode"
default=$(sed -n 2p cumulative-default/grades.csv | cut -d, -f2)
own=$(sed -n 2p cumulative-own/grades.csv | cut -d, -f2)
echo "kim's module 02: $default on the reference module 01, $own on her own"
[[ $default == 100 && $own -lt 100 ]] || fail "cumulative mode did not use the learner's module 01"

step "--gradescope writes results.json for one submission"
"$TITO" grade class/bob --gradescope gs/results/results.json --modules 02 --time-limit 5 >/dev/null || fail "gradescope"
python3 - gs/results/results.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert 0 < r["score"] < r["max_score"] == 100, r["score"]
assert all(t["status"] in ("passed", "failed") and "max_score" in t for t in r["tests"])
assert sum(t["score"] for t in r["tests"]) == r["score"]
assert any(t["status"] == "failed" and "still later" in t["output"] for t in r["tests"])
print("ok")
PY
echo "grade_class: all checks passed"
