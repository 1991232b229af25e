#!/usr/bin/env bash
# `tito grade` on a class that attacks what goes into a grading run (issue 19, part C): learner files
# that include the repository's reference (by a '..' path, and by an absolute path spelled through a
# macro), a module folder that is a link to the reference folder, the same through a chain of links in
# a .tar.gz, `#include "/etc/passwd"` (plain and through a macro), a submission folder and a file named
# with the bytes \xff\xfe, and a compiler message holding such bytes. None earns a point it did not, no
# report shows the included files, every report is written. Then the root warning, and the Gradescope
# zip unpacked into a Gradescope-shaped tree where its setup.sh and run_autograder run.
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch hostile
cd "$SCRATCH"

reference_dir="$TINYTORCH_SOURCE_DIR/framework/src/02_activations"
acts=modules/02_activations/activations.cpp
"$TITO" init base >/dev/null
mkdir -p base/modules/02_activations
cp "$reference_dir/activations.cpp" base/$acts

step "building the hostile class"
mkdir class
for learner in honest dotdot macroref dirlink passwd macropasswd badbytes; do cp -a base "class/$learner"; done
echo '#include "../src/02_activations/activations.cpp"' > class/dotdot/$acts
printf '#define STRINGIFY(x) #x\n#define PATH(x) STRINGIFY(x)\n#include PATH(%s)\n' "$reference_dir/activations.cpp" \
  > class/macroref/$acts
rm -r class/dirlink/modules/02_activations
ln -s "$reference_dir" class/dirlink/modules/02_activations
printf '#include "/etc/passwd"\n' > class/passwd/$acts
printf '#define STRINGIFY(x) #x\n#define PATH(x) STRINGIFY(x)\n#include PATH(/etc/passwd)\n' > class/macropasswd/$acts
printf '#error bad \xff\xfe bytes\n' >> class/badbytes/$acts   # the compiler quotes the bytes back
cp -a base "class/$(printf 'eve\xff\xfe')"                     # a folder name that is not UTF-8
printf 'int x;\n' > "class/honest/modules/02_activations/$(printf 'extra\xff.cpp')"
# (d) the module folder as the last link of a chain inside an archive
mkdir -p chain && cp -a base chain/ws && rm -r chain/ws/modules/02_activations
ln -s "$reference_dir" chain/hop2
ln -s ../hop2 chain/ws/hop1
ln -s ../hop1 chain/ws/modules/02_activations
tar -czf class/chained.tar.gz -C chain ws hop2
# an archive whose links stay inside it is refused too
mkdir -p inner && cp -a base inner/ws && mv inner/ws/modules/02_activations inner/ws/real && ln -s ../real inner/ws/modules/02_activations
tar -czf class/innerlink.tar.gz -C inner ws

step "grading it (module 02)"
"$TITO" grade class --out grades --modules 02 -j 2 --time-limit 10 >out.txt 2>err.txt || { cat out.txt err.txt; fail "tito grade exited"; }
cat out.txt
python3 - grades <<'PY'
import json, sys, os
out = sys.argv[1]
g = {l["id"]: l for l in json.load(open(os.path.join(out, "grades.json")))["learners"]}
def module(who): return g[who]["modules"][0]
def flags(who): return " | ".join(g[who]["flags"])
assert g["honest"]["earned"] == 100, g["honest"]
assert "extra\\xFF.cpp is not a learner file" in flags("honest"), flags("honest")
for who in ("dotdot", "macroref", "dirlink", "passwd", "macropasswd"):
    assert g[who]["earned"] == 0, (who, g[who]["earned"])
    assert module(who)["status"] == "refused", (who, module(who)["status"], module(who)["note"])
assert "'..' component" in flags("dotdot") and "refused without compiling" in flags("dotdot"), flags("dotdot")
assert "activations.cpp includes " in flags("macroref") and "compiler messages withheld" in flags("macroref"), flags("macroref")
assert "modules/02_activations is a symbolic link" in flags("dirlink"), flags("dirlink")
assert "an absolute path" in flags("passwd"), flags("passwd")
assert "includes /etc/passwd" in flags("macropasswd"), flags("macropasswd")
for who, reason in (("chained", "is a symbolic link"), ("innerlink", "is a symbolic link")):
    assert not g[who]["graded"] and reason in g[who]["reason"], (who, g[who]["reason"])
eve = g["eve\\xFF\\xFE"]
assert eve["earned"] == 100 and eve["submission"] == "eve\\xFF\\xFE", eve
bad = module("badbytes")
# GCC quotes the bytes back (escaped by tito as \xFF); Clang prints them as <FF> itself.
assert bad["status"] == "build failed" and ("\\xFF" in bad["note"] or "<FF>" in bad["note"]), bad
assert "type_error" not in json.dumps(g), "a JSON exception's text replaced a message"
print("ok")
PY
for report in grades/grades.json grades/grades.csv grades/report/index.html grades/report/learners/*.html; do
  ! grep -q 'root:x:0' "$report" || fail "$report shows /etc/passwd"
  ! grep -q 'BEGIN SOLUTION' "$report" || fail "$report shows the reference"
done
grep -q 'eve\\xFF\\xFE' grades/report/index.html || fail "the HTML overview lacks the escaped name"
grep -q '^eve\\xFF\\xFE,100,100' grades/grades.csv || fail "grades.csv lacks the escaped name"
if [[ $(id -u) == 0 ]]; then
  grep -q 'running as root' err.txt && grep -q 'sudo -u tito-grader env TITO_HOME=' err.txt || { cat err.txt; fail "no root warning"; }
fi

step "Gradescope shows a refused learner why, and nothing of the file"
"$TITO" grade class/macropasswd --gradescope gs-refused/results.json --modules 02 --time-limit 10 >/dev/null 2>&1 || fail "gradescope"
python3 - gs-refused/results.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["score"] == 0 and "includes /etc/passwd" in r["output"] and "root:" not in json.dumps(r), r["output"]
PY

step "one submission graded for Gradescope carries the escaped bytes too"
"$TITO" grade "class/$(printf 'eve\xff\xfe')" --gradescope gs/results.json --modules 02 --time-limit 10 >/dev/null 2>&1 || fail "gradescope"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["score"] == 100, r' gs/results.json

step "the Gradescope autograder zip, unpacked into a Gradescope-shaped tree"
run 0 "$TITO" instructor gradescope --out autograder.zip --modules 02 --time-limit 10
mkdir -p ag/source ag/submission ag/results
(cd ag/source && unzip -q ../../autograder.zip)
[[ -x ag/source/setup.sh && -x ag/source/run_autograder ]] || fail "setup.sh and run_autograder must be executable at the zip's root"
[[ -f ag/source/tinytorch/curriculum/curriculum.json && -f ag/source/tinytorch/scripts/setup ]] || fail "the repository is missing"
[[ ! -e ag/source/tinytorch/build ]] || fail "a build folder went into the zip"
cmake -S ag/source/tinytorch -B ag-configure -G Ninja -DCMAKE_BUILD_TYPE=Release >configure.txt 2>&1 ||
  { cat configure.txt; fail "the unpacked repository does not configure (setup.sh builds it with CMake)"; }
# setup.sh as Gradescope runs it (apt is skipped when the packages are installed); this test reuses the
# build under test instead of building again (TINYTORCH_E2E_GRADESCOPE_BUILD=1 builds for real).
build_env=(TITO_AUTOGRADER_BUILD_DIR="$TINYTORCH_BUILD_DIR")
[[ ${TINYTORCH_E2E_GRADESCOPE_BUILD:-0} == 1 ]] && build_env=()
env -u TITO_HOME -u TITO_BUILD_DIR AUTOGRADER_ROOT="$SCRATCH/ag" TITO_AUTOGRADER_USER= ${build_env[@]+"${build_env[@]}"} \
  bash ag/source/setup.sh >setup.txt 2>&1 || { cat setup.txt; fail "setup.sh failed"; }
grep -q "Debian packages already installed" setup.txt || { cat setup.txt; fail "setup.sh did not check the packages"; }
cp ag/source/run_autograder ag/run_autograder
cp -a class/badbytes/. ag/submission/
perl -0pi -e 's|(// BEGIN SOLUTION name="tinytorch::native::relu"[^\n]*\n)|$1  throw std::runtime_error("relu later");\n|' \
  ag/submission/$acts
sed -i '$d' ag/submission/$acts   # drop the bad bytes again: this learner compiles, and fails relu's tests
(cd ag && env -u TITO_HOME -u TITO_BUILD_DIR AUTOGRADER_ROOT="$SCRATCH/ag" ./run_autograder) >run.txt 2>&1 || { cat run.txt; fail "run_autograder failed"; }
python3 - ag/results/results.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert 0 < r["score"] < r["max_score"] == 100, (r["score"], r["max_score"])
assert sum(t["score"] for t in r["tests"]) == r["score"]
assert any(t["status"] == "failed" and "relu later" in t["output"] for t in r["tests"]), r["tests"][:3]
print("results.json:", r["score"], "/", r["max_score"])
PY
echo "hostile_class_inputs: all checks passed"
