#!/usr/bin/env bash
# `tito grade` on a class that forges its results instead of computing them (issue 19, attack (a) and
# its relatives), module 02, next to an honest learner with the reference code:
#   forger      a static initialiser builds the events variable's name from pieces, writes "passed" for
#               every case and _exit(0)s
#   replayer    the same, writing the reference's whole transcript as recorded on the public seed
#   scribbler   relu writes case ends and "passed" for every case into the events file, then _exit(0)s
#   boaster     prints Catch2's "All tests passed" banner and exits 0 before any case
#   quitter     exit(0) as soon as relu is first called
#   hardcoder   relu looks its answers up in a table recorded from the public-seed tests: it passes
#               `tito module test` but not the grading run's secret seed
#   thrower     a static initialiser throws: the start-up failure is reported once, with its reason
#   leaker      prints the secret seed into its report (a crash's output): the report shows
#               "[grading seed]", and the next grading draws another seed anyway
# Every forged case scores 0; the honest learner keeps 100. Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch forged
cd "$SCRATCH"

acts=modules/02_activations/activations.cpp
reference_tests="$TINYTORCH_BUILD_DIR/curriculum/curriculum_02_reference"
[[ -x $reference_tests ]] || fail "$reference_tests is missing (build the curriculum_02_reference target)"

# A workspace holding the reference files of modules 01 and 02.
e2e_reference_workspace base 01 02

step "the reference's transcript on the public seed (what a forger can record at home)"
TITO_EVENTS_FD=3 "$reference_tests" -o /dev/null 3>>"$SCRATCH/public_events.jsonl" >/dev/null 2>&1 || fail "the reference tests fail"
grep -q '"event":"observed"' public_events.jsonl || fail "the helpers recorded no observations"
grep -q '"event":"run_end"' public_events.jsonl || fail "no run_end in the public transcript"

step "building the class"
mkdir class
for learner in honest forger replayer scribbler boaster quitter hardcoder thrower leaker; do cp -a base "class/$learner"; done
# The forgers reach getenv and write without naming them (e2e_unnamed_libc): tito refuses code that names
# them before it runs, and this story tests the verification behind that check.
e2e_unnamed_libc getenv write >unnamed_libc.cpp
python3 - "$SCRATCH" "$TINYTORCH_SOURCE_DIR/curriculum/02_activations/tests/test_activations.cpp" <<'PY'
import json, re, sys
scratch, tests = sys.argv[1], sys.argv[2]
unnamed = open(scratch + "/unnamed_libc.cpp").read()
acts = "modules/02_activations/activations.cpp"
names = [n for n in re.findall(r'TEST_CASE\("((?:[^"\\]|\\.)*)",', open(tests).read())]
def c_string(text):
    return json.dumps(text)  # a JSON string is a valid C++ string literal here (ASCII, \" and \\ escapes)
fake_events = "".join(
    '{"event":"case_start","name":%s,"points":0,"output_offset":0}\n{"event":"case_end","name":%s,"passed":true,"duration_ms":1}\n'
    % (json.dumps(n), json.dumps(n)) for n in names) + '{"event":"run_end"}\n'
public = open(scratch + "/public_events.jsonl").read()
writer = unnamed + r'''
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
namespace {
void forge_events(const char* text) {
  const std::string name = std::string("TITO_") + "EVENTS_" + "F" + "D";
  if (const char* fd = tito_unnamed_getenv(name.c_str())) {
    for (std::size_t at = 0, size = std::string(text).size(); at < size;) {
      const long n = tito_unnamed_write(std::atoi(fd), text + at, size - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
}
'''
def prepend(learner, code):
    path = f"{scratch}/class/{learner}/{acts}"
    text = open(path).read()
    at = text.index("namespace tinytorch")
    open(path, "w").write(text[:at] + code + "\n" + text[at:])
def raw(text):
    return 'R"TITOFORGED(' + text + ')TITOFORGED"'
prepend("forger", writer + "const int forged = (forge_events(" + c_string(fake_events) + "), 0);\n}\n")
prepend("replayer", writer + "const int replayed = (forge_events(" + raw(public) + "), 0);\n}\n")
prepend("boaster", unnamed + r'''
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
namespace {
const int boast = [] {
  if (tito_unnamed_getenv("TITO_EVENTS_FD")) {
    std::printf("===============================================================================\n"
                "All tests passed (150 assertions in 20 test cases)\n");
    std::fflush(stdout);
    _exit(0);
  }
  return 0;
}();
}
''')
prepend("thrower", r'''
#include <stdexcept>
namespace {
const int exploded = [] () -> int { throw std::runtime_error("static init exploded"); }();
}
''')
# Called from relu, while a case runs: that case "ends" and every case "passes".
prepend("scribbler", writer + "void scribble() { forge_events(" + c_string('{"event":"case_end","passed":true}\n' + fake_events) + "); }\n}\n")
PY
# put LEARNER 'C++ statements': inserts them at the start of the learner's relu solution.
put() { perl -0pi -e "s|(// BEGIN SOLUTION name=\"tinytorch::native::relu\"[^\n]*\n)|\$1  $2\n|" "class/$1/$acts"; }
put quitter 'std::exit(0);'
put scribbler 'scribble();'
# The leaker prints the secret seed where its report shows it (a crash's output), hoping to replay a
# transcript computed for it at the next grading.
put leaker 'std::printf("the seed is %s\\n", tito_unnamed_getenv("TITO_GRADING_SEED")); std::fflush(stdout); __builtin_trap();'
sed -i '1i #include <cstdlib>' "class/quitter/$acts"
cat unnamed_libc.cpp "class/leaker/$acts" >leaker.cpp && mv leaker.cpp "class/leaker/$acts"

step "the hard-coder: every relu call of the public-seed tests recorded, then answered from that table"
# The recorder is the reference with relu logging what it was given and what it gave back; its test
# program, built by one grading run and started again without a grading seed, sees the public inputs.
mkdir recorder_class && cp -a base recorder_class/recorder
perl -0pi -e 's|(// BEGIN SOLUTION name="tinytorch::native::relu".*?)(\n  return out;)|$1\n  { std::FILE* log = std::fopen("relu_calls.txt", "a"); const Tensor in = self.contiguous(); const auto* a = static_cast<const unsigned char*>(in.data_ptr()); const auto* b = static_cast<const unsigned char*>(out.data_ptr()); std::fprintf(log, "%d ", int(in.scalar_type())); for (size_t i = 0; i < size_t(in.nbytes()); ++i) std::fprintf(log, "%02x", a[i]); std::fprintf(log, " "); for (size_t i = 0; i < size_t(out.nbytes()); ++i) std::fprintf(log, "%02x", b[i]); std::fprintf(log, "\\n"); std::fclose(log); }$2|s' "recorder_class/recorder/$acts"
sed -i '1i #include <cstdio>' "recorder_class/recorder/$acts"
run 0 "$TITO" grade recorder_class --out recorder_grades --modules 02 -j 1 --time-limit 20
# Graded only to get its test program built; its log can pass the sandbox's 16 MB file-size cap and
# cost it a case there, which is the sandbox's doing, so its mark is not checked. It records at home (below).
grep -q '^recorder,' recorder_grades/grades.csv || fail "the recorder has no row: $(cat recorder_grades/grades.csv)"
binary=$(find recorder_grades/work/recorder/build -maxdepth 1 -type f -perm -u+x | head -1)
[[ -n $binary ]] || fail "no test program in recorder_grades/work/recorder/build"
mkdir public_run && (cd public_run && "$SCRATCH/$binary" "[relu]" -o /dev/null >/dev/null 2>&1) || fail "the recorder's relu tests fail on the public seed"
[[ -s public_run/relu_calls.txt ]] || fail "relu recorded nothing"
python3 - public_run/relu_calls.txt "class/hardcoder/$acts" <<'PY2'
import sys
calls, path = sys.argv[1], sys.argv[2]
table = {}
for line in open(calls):
    dtype, given, answer = line.split()
    if len(given) <= 8192:  # tensors up to 4 KB; bigger ones are computed honestly
        table[dtype + " " + given] = answer
entries = ",\n".join('  {"%s", "%s"}' % item for item in sorted(table.items()))
helper = r"""
#include <cstring>
#include <map>
#include <string>
namespace {
const std::map<std::string, std::string> kAnswers = {
%s
};
// The answer recorded for exactly these bytes, or zeros.
tinytorch::Tensor hardcoded_relu(const tinytorch::Tensor& self) {
  const tinytorch::Tensor in = self.contiguous();
  std::string key = std::to_string(int(in.scalar_type())) + " ";
  const auto* bytes = static_cast<const unsigned char*>(in.data_ptr());
  char hex[3];
  for (size_t i = 0; i < size_t(in.nbytes()); ++i) { std::snprintf(hex, 3, "%%02x", bytes[i]); key += hex; }
  tinytorch::Tensor out = tinytorch::empty(self.sizes(), self.options());
  auto* result = static_cast<unsigned char*>(out.data_ptr());
  const auto found = kAnswers.find(key);
  for (size_t i = 0; i < size_t(out.nbytes()); ++i)
    result[i] = found == kAnswers.end() ? 0 : static_cast<unsigned char>(std::stoi(found->second.substr(2 * i, 2), nullptr, 16));
  return out;
}
}
""" % entries
text = open(path).read()
at = text.index("namespace tinytorch")
text = text[:at] + helper + "\n" + text[at:]
marker = '// BEGIN SOLUTION name="tinytorch::native::relu"'
at = text.index("\n", text.index(marker)) + 1
text = text[:at] + "  if (self.nbytes() <= 4096) return hardcoded_relu(self);\n" + text[at:]
open(path, "w").write("#include <cstdio>\n" + text)
PY2

step "grading the class (module 02)"
run 0 "$TITO" grade class --out grades --modules 02 -j 2 --time-limit 20
cat "$OUT"
row() { grep "^$1," grades/grades.csv || fail "no row for $1"; }
[[ $(row honest) == honest,100,100,100,* ]] || fail "the honest learner lost points: $(row honest)"
for forged in forger replayer scribbler boaster thrower; do
  [[ $(row $forged) == $forged,0,0,100,* ]] || fail "$forged earned points: $(row $forged)"
done

step "grades.json: why each forged case earned nothing, and the start-up failures said once"
python3 - grades/grades.json <<'PY2'
import json, sys
g = {l["id"]: l for l in json.load(open(sys.argv[1]))["learners"]}
def module(who): return g[who]["modules"][0]
def cases(who): return {c["name"]: c for c in module(who)["cases"]}
for who in ("forger", "replayer", "scribbler"):
    for name, c in cases(who).items():
        assert c["earned"] == 0, (who, name, c)
        assert c["status"] in ("not verified", "not run", "failed", "crashed"), (who, name, c)
    verified = [c for c in cases(who).values() if c["status"] == "not verified"]
    assert verified and all("differ from the reference solution's" in c["message"] for c in verified), (who, verified[:1])
# The replayer's transcript is the reference's own, on the public seed: it differs from the secret one.
assert all(c["status"] == "not verified" for c in cases("replayer").values()), cases("replayer")
for who, reason in (("boaster", "exited with code 0 before its first test case"),
                    ("thrower", "uncaught exception std::runtime_error: static init exploded")):
    note = module(who)["note"]
    assert reason in note, (who, note)
    for c in cases(who).values():
        assert c["message"] == "the test program failed at start-up (the module's note says why)", (who, c)
        assert "did not run this case" not in c["message"]
assert "All tests passed" in module("boaster")["note"], module("boaster")["note"]
# The quitter loses exactly the cases that call relu; the hard-coder exactly the relu cases it faked.
for who in ("quitter", "hardcoder"):
    for name, c in cases(who).items():
        if name.startswith("relu "):
            assert c["earned"] == 0, (who, name, c)
        elif name.split()[0] in ("sigmoid", "tanh", "log_softmax"):
            assert c["earned"] == c["points"], (who, name, c)
assert g["honest"]["earned"] == 100
print("ok")
PY2

step "the hard-coder passes its relu tests on the public seed: only the secret seed tells"
hard_binary=$(find grades/work/hardcoder/build -maxdepth 1 -type f -perm -u+x | head -1)
mkdir hard_run && (cd hard_run && "$SCRATCH/$hard_binary" "[relu]" -o /dev/null >/dev/null 2>&1) \
  || fail "the hard-coder fails its relu tests on the public seed too (the test proves nothing)"

step "the seed never reaches a report, though the leaker printed it"
seed=$(cat grades/cache/grading_seed)
grep -q "the seed is \[grading seed\]" grades/grades.json || fail "the leaker's output is not in its report (the check below proves nothing)"
for report in grades/grades.json grades/grades.csv grades/report/index.html grades/report/learners/*.html; do
  ! grep -q "$seed" "$report" || fail "$report holds the secret seed"
done

step "a re-grade with --keep-seed and nothing changed reuses every result, and keeps the seed"
start=$(date +%s%N)
run 0 "$TITO" grade class --out grades --modules 02 -j 2 --time-limit 20 --keep-seed
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q "0 module results rebuilt" "$OUT" || fail "the re-grade rebuilt something"
[[ $(cat grades/cache/grading_seed) == "$seed" ]] || fail "the seed changed"
# The 2 s target is bench/grading_speed.sh's, on an idle machine; here only a gross slip (the reference
# run again, a learner rebuilt) fails.
echo "re-grade took $elapsed_ms ms"
if within_bound "the re-grade's time"; then
  (( elapsed_ms < 10000 )) || fail "the re-grade took $elapsed_ms ms: something ran again"
fi
[[ ! -d grades/cache/reference/02_activations/run ]] || fail "the reference's run folder was left on disk"

step "every other grading draws another seed and grades again: the same scores"
run 0 "$TITO" grade class --out grades --modules 02 -j 2 --time-limit 20
[[ $(cat grades/cache/grading_seed) != "$seed" ]] || fail "a re-grade kept the seed"
[[ $(row honest) == honest,100,100,100,* ]] || fail "the honest learner lost points with a new seed: $(row honest)"
[[ $(row replayer) == replayer,0,0,100,* ]] || fail "the replayer earned points with a new seed: $(row replayer)"
echo "PASSED"
