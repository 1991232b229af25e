#!/usr/bin/env bash
# `tito grade` on a second hostile class (issue 28): attacks on tito itself, outside the sandbox, and on
# the test harness inside the learner's program. Module 02; two honest learners with the reference code
# and attackers whose code is the reference plus the attack (those that reach files or the environment
# do so without naming the functions, as code that got past tito's check of its symbols would):
#   writer     a static initialiser replaces every file name tito ever used in its run folder (outputs,
#              events, case lists) with a symbolic link to a canary file, hoping tito writes the next
#              program's output through it
#   reader     the same, linking to a secret file, hoping tito reads it into the report
#   poisoner   the same, linking to a header of the grading folder's shared public-header cache, so
#              that classmates built afterwards would compile the attacker's text
#   neighbour  the same, linking to a classmate's learner file
#   hardlinker hard links instead of symbolic ones (where the kernel allows them)
#   matcher    defines the harness's own tensor matcher (match() always true): the harness is replaced
#              at link time unless learner objects cannot pre-empt it
#   interposer defines the C library's `write` and `fputs`, to rewrite the events on their way out
#   stdlib     defines std::terminate, which the C++ runtime library exports
#   envdump    prints tito's environment into its report (an instructor's token is in it), reading it
#              without naming getenv
#   fdwriter   writes forged events straight to the descriptor the harness records to (write(3, ...))
#   caller     calls the harness's recorder itself, declaring it by hand
#   rawcall    makes the write as a raw system call from inline assembly spelled from pasted tokens
#   incbin     the assembler reads the secret file into the program (`__asm__` pasted from tokens and
#              ".inc" "bin" from two literals, so no scan of the text sees it) and relu prints it: the
#              compiler runs in a fresh root that shows it only the system, the public headers and the
#              learner's own folder, so the file is not there
# Every attack is contained (nothing outside the run folders changes: checksums of the canary, the
# secret, the header cache and the classmates' files), the harness attacks score 0 and are flagged, the
# link attacks are flagged, and neither the secret, the token nor the seed reaches a report.
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR. Skips (77) where the kernel forbids namespaces.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch links
cd "$SCRATCH"

e2e_reference_workspace base 01 02
acts=modules/02_activations/activations.cpp
GRADES="$SCRATCH/grades"
mkdir -p class
attackers="writer reader poisoner neighbour hardlinker matcher interposer stdlib envdump incbin fdwriter caller rawcall"
for learner in alice bob $attackers; do cp -a base "class/$learner"; done

# The files an attack aims at, owner-only like an instructor's secrets.
printf 'canary: untouched\n' >canary.txt
printf 'SECRET-%s: the answers\n' "$$" >secret.txt
chmod 600 canary.txt secret.txt
# The header cache exists once a grading ran: a first grading of the honest learners makes it.
mkdir honest_only && cp -a class/alice honest_only/
"$TITO" grade honest_only --out "$GRADES" --modules 02 -j 1 --time-limit 20 >"$OUT" 2>&1 || fail "the first grading failed"
if grep -q "forbids the namespaces" "$OUT"; then
  echo "SKIPPED: this kernel forbids the namespaces the sandbox needs; tito said so loudly"
  exit 77
fi
header=$(find "$GRADES/cache/public-headers" -name tensor.h | head -1)
[[ -f $header ]] || fail "no tensor.h in the public-header cache"

# link_attack LEARNER TARGET symlink|link: a static initialiser that puts a link to TARGET at every name
# tito ever used in its run folder, then prints a line (so that there is output to misdirect). It calls
# symlink/link without naming them (e2e_unnamed_libc): tito refuses code that names them before it runs,
# and this story tests what holds when that check is got past.
link_attack() {
  e2e_unnamed_libc "$3" >>"class/$1/$acts"
  cat >>"class/$1/$acts" <<EOF
#include <string>
namespace {
struct LinkAttack {
  LinkAttack() {
    std::string names[] = {"list_output.txt", "../build_output.txt", "../control", "home/.profile"};
    for (const auto& name : names) tito_unnamed_$3("$2", name.c_str());
    for (int i = 1; i <= 6; ++i)
      for (const char* stem : {"output_", "cases_", "events_"}) {
        const std::string name = std::string(stem) + std::to_string(i) + (std::string(stem) == "events_" ? ".jsonl" : ".txt");
        tito_unnamed_$3("$2", name.c_str());
      }
    std::printf("ATTACKER-TEXT from $1\\n");
    std::fflush(stdout);
  }
} link_attack_at_start_up;
}  // namespace
EOF
}
link_attack writer "$SCRATCH/canary.txt" symlink
link_attack reader "$SCRATCH/secret.txt" symlink
link_attack poisoner "$header" symlink
link_attack neighbour "$SCRATCH/class/alice/$acts" symlink
link_attack hardlinker "$SCRATCH/canary.txt" link
# The reader also crashes in relu, so that its report shows the output of a case (where tito would have
# pasted what it read through the link).
perl -0pi -e 's|(// BEGIN SOLUTION name="tinytorch::native::relu"[^\n]*\n)|$1  std::printf("reader in relu\\n"); std::fflush(stdout); __builtin_trap();\n|' "class/reader/$acts"

# The harness replaced at link time: the matcher every module test uses, always "equal", recording
# nothing (the transcript then misses records), or whatever the attacker likes.
cat >>"class/matcher/$acts" <<'EOF'

namespace tinytorch {
namespace testing {
class TensorAllCloseMatcher {
 public:
  bool match(const Tensor& actual) const;
};
bool TensorAllCloseMatcher::match(const Tensor&) const { return true; }
class TensorEqualsMatcher {
 public:
  bool match(const Tensor& actual) const;
};
bool TensorEqualsMatcher::match(const Tensor&) const { return true; }
}  // namespace testing
}  // namespace tinytorch
EOF
cat >>"class/interposer/$acts" <<'EOF'

#include <sys/syscall.h>
#include <unistd.h>
// Every write of the program passes through here first (the events included).
extern "C" ssize_t write(int fd, const void* data, size_t size) { return syscall(SYS_write, fd, data, size); }
extern "C" int fputs(const char*, FILE*) { return 0; }
EOF
sed -i '1i #include <cstdio>' "class/interposer/$acts"
cat >>"class/stdlib/$acts" <<'EOF'

namespace std {
void terminate() noexcept { for (;;) {} }
}  // namespace std
EOF
perl -0pi -e 's|(// BEGIN SOLUTION name="tinytorch::native::relu"[^\n]*\n)|$1  { const char* token = tito_unnamed_getenv("TITO_TEST_INSTRUCTOR_TOKEN"); std::printf("ENV token=%s seed=%s\\n", token ? token : "(none)", tito_unnamed_getenv("TITO_GRADING_SEED")); std::fflush(stdout); __builtin_trap(); }\n|' "class/envdump/$acts"
e2e_unnamed_libc getenv | cat - "class/envdump/$acts" >envdump.cpp && mv envdump.cpp "class/envdump/$acts"

cat >>"class/incbin/$acts" <<EOF

#define TITO_PASTE(a, b) a##b
#define TITO_ASSEMBLE TITO_PASTE(__as, m__)
TITO_ASSEMBLE(".section .rodata\n.global tito_stolen\ntito_stolen:\n.inc" "bin \"$SCRATCH/secret.txt\"\n.byte 0\n.text\n");
EOF
perl -0pi -e 's|(// BEGIN SOLUTION name="tinytorch::native::relu"[^\n]*\n)|$1  std::printf("stolen: %s\\n", tito_stolen); std::fflush(stdout); __builtin_trap();\n|' "class/incbin/$acts"
perl -0pi -e 's|(namespace tinytorch)|extern "C" const char tito_stolen[];\n$1|' "class/incbin/$acts"
sed -i '1i #include <cstdio>' "class/incbin/$acts"

# Reaching the recorder instead of replacing it: each is refused before the program runs.
FORGED='{"event":"case_end","passed":true}' perl -0pi -e 's|(// BEGIN SOLUTION name="tinytorch::native::relu"[^\n]*\n)|$1  { static const char forged[] = R"TITO($ENV{FORGED}\n)TITO"; long n = ::write(3, forged, sizeof forged - 1); (void)n; }\n|' "class/fdwriter/$acts"
sed -i '1i #include <unistd.h>' "class/fdwriter/$acts"
perl -0pi -e 's|(namespace tinytorch)|namespace tito_catch { void record_observation(const std::string& fields); }\n$1|' "class/caller/$acts"
perl -0pi -e 's|(// BEGIN SOLUTION name="tinytorch::native::relu"[^\n]*\n)|$1  tito_catch::record_observation("\\"text\\":\\"forged\\"");\n|' "class/caller/$acts"
sed -i '1i #include <string>' "class/caller/$acts"
cat >>"class/rawcall/$acts" <<'EOF'

#define TITO_PASTE(a, b) a##b
namespace {
long raw_write(long fd, const char* text, long size) {
  long result;
  TITO_PASTE(__as, m__) volatile("sysc" "all" : "=a"(result) : "a"(1L), "D"(fd), "S"(text), "d"(size) : "rcx", "r11", "memory");
  return result;
}
const long forged = raw_write(3, "{}\n", 3);
}  // namespace
EOF

checksums() {
  sha256sum canary.txt secret.txt
  find "$GRADES/cache/public-headers" -type f -print0 | sort -z | xargs -0 sha256sum
  for learner in alice bob $attackers; do sha256sum "class/$learner/$acts"; done
}
checksums >before.txt

step "grading the hostile class (module 02, -j 2, 20 s per test run), with a token in tito's environment"
start=$(date +%s)
TITO_TEST_INSTRUCTOR_TOKEN="tok-$$-do-not-leak" \
  "$TITO" grade class --out "$GRADES" --modules 02 -j 2 --time-limit 20 >"$OUT" 2>err.txt || { cat err.txt; fail "tito grade exited $?"; }
echo "graded in $(( $(date +%s) - start )) s"
cat "$OUT"

step "nothing outside the run folders changed: the canary, the secret, the header cache, every learner file"
checksums >after.txt
diff before.txt after.txt || fail "a file outside the run folders changed"
[[ $(cat canary.txt) == "canary: untouched" ]] || fail "the canary was rewritten"

step "no report holds the secret, the token or the seed"
seed=$(cat "$GRADES/cache/grading_seed")
for report in "$GRADES/grades.json" "$GRADES/grades.csv" "$GRADES/report/index.html" "$GRADES"/report/learners/*.html; do
  ! grep -q "SECRET-$$" "$report" || fail "$report holds the secret file's text"
  ! grep -q "tok-$$-do-not-leak" "$report" || fail "$report holds the instructor's token"
  ! grep -q "$seed" "$report" || fail "$report holds the grading seed"
done
grep -q "ENV token=(none) seed=\[grading seed\]" "$GRADES/grades.json" \
  || fail "the envdump's output is not in its report as expected (the checks above prove nothing)"
grep -q "reader in relu" "$GRADES/grades.json" || fail "the reader's output is not in its report"

step "marks and flags"
row() { grep "^$1," "$GRADES/grades.csv" || fail "no row for $1"; }
for honest in alice bob; do
  grep -qE "^$honest,100,100,100,graded" <<<"$(row $honest)" || { cat "$GRADES/grades.csv"; fail "$honest lost marks"; }
done
for refused in matcher interposer stdlib incbin fdwriter caller rawcall; do
  grep -qE "^$refused,0,0,100," <<<"$(row $refused)" || fail "$refused earned points: $(row $refused)"
done
python3 - "$GRADES/grades.json" <<'PY'
import json, sys
g = {l["id"]: l for l in json.load(open(sys.argv[1]))["learners"]}
def flags(who): return "\n".join(g[who]["flags"])
for who, what in (("matcher", "tinytorch::testing::TensorAllCloseMatcher::match"), ("interposer", "defines `write`, a C name"),
                  ("stdlib", "defines `std::terminate()`, which the C or C++ runtime library defines"),
                  ("incbin", "inline assembly reads (.incbin)"), ("fdwriter", "uses `write`"),
                  ("caller", "uses `tito_catch::record_observation"), ("rawcall", "makes a system call itself")):
    assert what in flags(who), (who, flags(who))
    assert g[who]["modules"][0]["status"] == "refused", (who, g[who]["modules"][0]["status"])
for who in ("writer", "reader", "poisoner", "neighbour"):
    assert "left" in flags(who) and "link" in flags(who) and "in its run folder" in flags(who), (who, flags(who))
# Hard links to a file of another owner are refused by the kernel where fs.protected_hardlinks is on; where
# one was made, it is flagged like the others.
links_made = "in its run folder" in flags("hardlinker")
print("hard links made:", links_made)
# The link attackers' code is the reference: what they left behind changes no mark (only the reader's
# crash in relu costs it the relu cases).
for who in ("writer", "poisoner", "neighbour", "hardlinker"):
    assert g[who]["modules"][0]["earned"] == 100, (who, g[who]["modules"][0])
# The honest learners' only flag says their files are the reference unchanged; nothing about links.
for who in ("alice", "bob"):
    assert "link" not in flags(who), (who, flags(who))
print("ok")
PY

step "nothing piles up: no run folder, control folder or object is left per learner"
leftovers=$(find "$GRADES/work" -mindepth 3 -maxdepth 3 \( -name run -o -name control -o -name obj \) | head -5)
[[ -z $leftovers ]] || fail "left behind: $leftovers"
echo "hostile_class_links: all checks passed"
