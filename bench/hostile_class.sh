#!/usr/bin/env bash
# A whole hostile class, graded the way an instructor grades (issue 28's figures): for modules 01, 03 and
# 06, two learners with the reference code, one with the untouched starter, and one attacker per attack
# below, whose code is the reference plus the attack, run from a static initialiser (so at every start
# of the test program). Graded as root and, with --unprivileged USER, also as that user. Prints per
# grading the wall time, tito's peak memory and every learner's mark and flags, and checks: references
# 100, the starter 0, every attacker 0, flagged, or without effect, no secret, token or seed in a report,
# and nothing outside the run folders changed (checksums of every learner's files and of an owner-only
# canary and secret; no file the vandals aimed at). Attacks that name a forbidden function are refused
# before they run; their "unnamed_" twins reach the same functions by pointer arithmetic, to test what
# holds at run time. The slow, long version of tests/e2e/hostile_class_*.sh; not part of CI.
#   bench/hostile_class.sh [--modules 01,03,06] [--unprivileged tito-grader] [--jobs 2]
# Needs: tito built (TITO, or build/bin/tito), python3; run as root for the root grading.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tito=${TITO:-$root/build/bin/tito}
modules=01,03,06 unprivileged="" jobs=2
while [ $# -gt 0 ]; do
  case $1 in
    --modules) modules=$2; shift ;;
    --unprivileged) unprivileged=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    *) echo "error: unknown option '$1'" >&2; echo "fix: bench/hostile_class.sh [--modules 01,03,06] [--unprivileged USER] [--jobs N]" >&2; exit 2 ;;
  esac
  shift
done
export CI=1 NO_COLOR=1 TITO_HOME=${TITO_HOME:-$root} TITO_BUILD_DIR=${TITO_BUILD_DIR:-$root/build}
scratch=$(mktemp -d /tmp/tito-hostile-class-XXXXXX)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
mark="tito-hostile-$$"
printf 'canary: untouched\n' >canary.txt
printf 'SECRET-%s\n' "$$" >secret.txt
chmod 600 canary.txt secret.txt

# The attacks: C++ run in a static initialiser of the learner's first file. @CANARY@, @SECRET@, @MARK@,
# @NEIGHBOUR@ and @GRADES@ are filled in per grading.
python3 - "$TITO_HOME" "$modules" <<'PY'
import json, os, shutil, sys
src, numbers = sys.argv[1], sys.argv[2].split(",")
attacks = {
 "link_writer": 'for (int i = 1; i <= 6; ++i) for (const char* s : {"output_", "cases_", "events_"}) { std::string n = std::string(s) + std::to_string(i) + ".txt"; unlink(n.c_str()); symlink("@CANARY@", n.c_str()); }',
 "link_reader": 'for (int i = 1; i <= 6; ++i) { std::string n = "output_" + std::to_string(i) + ".txt"; unlink(n.c_str()); symlink("@SECRET@", n.c_str()); } unlink("list_output.txt"); symlink("@SECRET@", "list_output.txt");',
 "link_header": 'for (int i = 1; i <= 6; ++i) { std::string n = "output_" + std::to_string(i) + ".txt"; unlink(n.c_str()); symlink("@GRADES@/cache/public-headers/0/tinytorch/tensor.h", n.c_str()); }',
 "link_neighbour": 'for (int i = 1; i <= 6; ++i) { std::string n = "output_" + std::to_string(i) + ".txt"; unlink(n.c_str()); symlink("@NEIGHBOUR@", n.c_str()); }',
 "hard_link": 'for (int i = 1; i <= 6; ++i) { std::string n = "output_" + std::to_string(i) + ".txt"; unlink(n.c_str()); link("@CANARY@", n.c_str()); }',
 "vandal": 'for (const char* p : {"@NEIGHBOUR@", "@GRADES@/cache/@MARK@", "/root/@MARK@", "/tmp/@MARK@"}) if (FILE* f = std::fopen(p, "w")) { std::fputs("owned", f); std::fclose(f); }',
 "reader": 'if (FILE* f = std::fopen("@SECRET@", "r")) { char b[64] = {}; if (std::fgets(b, sizeof b, f)) std::printf("%s", b); std::fclose(f); } std::abort();',
 "envdump": 'const char* t = std::getenv("TITO_HOSTILE_TOKEN"); std::printf("token=%s seed=%s\\n", t ? t : "(none)", std::getenv("TITO_GRADING_SEED")); std::fflush(stdout); std::abort();',
 "fd_writer": 'const char forged[] = "{\\"event\\":\\"run_end\\"}\\n"; long n = write(3, forged, sizeof forged - 1); (void)n; _exit(0);',
 "remount": 'if (fork() == 0) { setsid(); mount(nullptr, "/", nullptr, MS_REMOUNT | MS_BIND, nullptr); _exit(0); }',
 "parricide": 'kill(getppid(), SIGKILL);',
 "swarm": 'for (int i = 0; i < 300; ++i) if (fork() == 0) { setsid(); execl("/bin/sleep", "@MARK@-swarm", "60", (char*)nullptr); _exit(0); }',
 "fork_bomb": 'for (int i = 0; i < 100000; ++i) if (fork() < 0) break;',
 "memory_bomb": 'for (;;) { char* p = new char[1 << 26]; std::memset(p, 1, 1 << 26); }',
 "flood": 'static const std::string line(1 << 20, 0x78); for (int i = 0; i < 1024; ++i) std::fwrite(line.data(), 1, line.size(), stdout);',
 "hang": 'for (volatile unsigned i = 0;; i = i + 1) {}',
 "seed_printer": 'std::printf("seed %s\\n", std::getenv("TITO_GRADING_SEED")); std::fflush(stdout); _exit(1);',
 "socket": 'int fd = socket(AF_UNIX, SOCK_STREAM, 0); sockaddr_un a{}; a.sun_family = AF_UNIX; std::snprintf(a.sun_path, sizeof a.sun_path, "/tmp/@MARK@.sock"); connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);',
 "rawcall": 'long r; TITO_PASTE(__as, m__) volatile("sysc" "all" : "=a"(r) : "a"(39L) : "rcx", "r11", "memory"); (void)r;',
}
# The same, reaching the C library without naming it (printf's address plus the distance in this libc):
# what code that got past tito's check of the symbols it uses would do. These test what holds at run time.
import subprocess
libc = subprocess.run(["c++", "-print-file-name=libc.so.6"], capture_output=True, text=True).stdout.strip()
address = {}
for line in subprocess.run(["nm", "-D", "-P", "--defined-only", libc], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if len(f) >= 3: address.setdefault(f[0].split("@")[0], int(f[2], 16))
def unnamed(name, signature):
    return f"reinterpret_cast<{signature}>(reinterpret_cast<std::uintptr_t>(&std::printf) + {address[name] - address['printf']}L)"
link2 = "int (*)(const char*, const char*)"
for name in ("link_writer", "link_reader", "link_header", "link_neighbour"):
    attacks["unnamed_" + name] = attacks[name].replace("unlink(n.c_str()); ", "").replace('unlink("list_output.txt"); ', "").replace("symlink(", "(" + unnamed("symlink", link2) + ")(")
attacks["unnamed_hard_link"] = attacks["hard_link"].replace("unlink(n.c_str()); ", "").replace("link(", "(" + unnamed("link", link2) + ")(")
getenv = "(" + unnamed("getenv", "char* (*)(const char*)") + ")"
for name in ("envdump", "seed_printer"):
    attacks["unnamed_" + name] = attacks[name].replace("std::getenv", getenv)
attacks["unnamed_fd_writer"] = attacks["fd_writer"].replace("write(3", "(" + unnamed("write", "long (*)(int, const void*, unsigned long)") + ")(3")
attacks["unnamed_reader"] = attacks["reader"].replace("std::fopen", "(" + unnamed("fopen", "FILE* (*)(const char*, const char*)") + ")")
attacks["unnamed_vandal"] = attacks["vandal"].replace("std::fopen", "(" + unnamed("fopen", "FILE* (*)(const char*, const char*)") + ")")
definitions = {
 "matcher": "namespace tinytorch { namespace testing { class TensorAllCloseMatcher { public: bool match(const Tensor&) const; }; bool TensorAllCloseMatcher::match(const Tensor&) const { return true; } class TensorEqualsMatcher { public: bool match(const Tensor&) const; }; bool TensorEqualsMatcher::match(const Tensor&) const { return true; } } }",
 "interposer": 'extern "C" int fputs(const char*, FILE*) { return 0; }',
 "terminate": "namespace std { void terminate() noexcept { for (;;) {} } }",
 "incbin": 'TITO_PASTE(__as, m__)(".section .rodata\\n.global tito_stolen\\ntito_stolen:\\n.inc" "bin \\"@SECRET@\\"\\n.byte 0\\n.text\\n");',
 "recorder_caller": 'namespace tito_catch { void record_observation(const std::string&); } namespace { const int called = (tito_catch::record_observation("\\"text\\":\\"x\\""), 0); }',
}
prelude = """
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#define TITO_PASTE(a, b) a##b
"""
index = json.load(open(os.path.join(src, "curriculum/curriculum.json")))["modules"]
by_number = {m["number"]: m for m in index}
def workspace(path, upto):
    os.makedirs(os.path.join(path, ".tito"), exist_ok=True)
    open(os.path.join(path, ".tito", "workspace.json"), "w").write("{}\n")
    for m in index:
        if m["number"] > upto or not m.get("learner_files"):
            continue
        folder = os.path.join(path, "modules", m["number"] + "_" + m["slug"])
        os.makedirs(folder, exist_ok=True)
        for f in m["learner_files"]:
            shutil.copy(os.path.join(src, f), folder)
    return path
for number in numbers:
    m = by_number[number]
    cls = f"class_{number}"
    for ref in ("alice", "bob", "carol"):
        workspace(os.path.join(cls, ref), number)
    first = m["learner_files"][0]
    for name, body in attacks.items():
        path = workspace(os.path.join(cls, name), number)
        target = os.path.join(path, "modules", number + "_" + m["slug"], os.path.basename(first))
        open(target, "a").write(prelude + "namespace { struct TitoAttack { TitoAttack() { " + body + " } } tito_attack; }\n")
    for name, code in definitions.items():
        path = workspace(os.path.join(cls, name), number)
        target = os.path.join(path, "modules", number + "_" + m["slug"], os.path.basename(first))
        open(target, "a").write(prelude + code + "\n")
    print(number, len(attacks) + len(definitions), "attackers")
PY
# The starter learner: the graded module's files are the untouched starter, as validate generates them.
IFS=, read -ra numbers <<<"$modules"
for number in "${numbers[@]}"; do
  "$tito" instructor validate --modules "$number" --skip-variants --keep "$scratch/starters" >/dev/null 2>&1 || true
  starter=$(ls -d "$scratch"/starters/"$number"_*/starter)
  cp "$starter"/* "class_$number"/carol/modules/"$number"_*/
done

grade_all() {  # WHO (root or a user name)
  local who=$1 out="$scratch/grades_$1"
  local failures=0
  for number in "${numbers[@]}"; do
    local class="$scratch/class_$number" grades="$out/$number"
    # A first grading makes the header cache, so that its checksums exist before the hostile one.
    rm -rf "$grades"; mkdir -p "$grades"
    [[ $who != root ]] && chown -R "$who" "$out" "$class"
    local neighbour; neighbour=$(ls "$class"/alice/modules/"$number"_*/*.cpp | head -1)
    for learner in "$class"/*/; do
      for f in "$learner"modules/*/*.cpp; do
        sed -i "s|@CANARY@|$scratch/canary.txt|g; s|@SECRET@|$scratch/secret.txt|g; s|@MARK@|$mark|g; s|@NEIGHBOUR@|$neighbour|g; s|@GRADES@|$grades|g" "$f"
      done
    done
    local cmd=("$tito" grade "$class" --out "$grades" --modules "$number" -j "$jobs" --time-limit 10)
    (cd "$class" && find . -type f -path '*/modules/*' -print0 | sort -z | xargs -0 sha256sum) >"$out/before_$number.txt"
    sha256sum "$scratch/canary.txt" "$scratch/secret.txt" >>"$out/before_$number.txt"
    local start=$SECONDS
    if [[ $who == root ]]; then
      TITO_HOSTILE_TOKEN="tok-$$" "${cmd[@]}" >"$out/out_$number.txt" 2>&1 &
    else
      su "$who" -s /bin/bash -c "cd '$class' && TITO_HOSTILE_TOKEN=tok-$$ CI=1 NO_COLOR=1 TITO_HOME='$TITO_HOME' TITO_BUILD_DIR='$TITO_BUILD_DIR' $(printf '%q ' "${cmd[@]}")" >"$out/out_$number.txt" 2>&1 &
    fi
    # tito's own peak resident memory (VmHWM; its compilers and test programs do not count).
    local waiter=$! peak_kb=0 tito_pid=""
    while kill -0 $waiter 2>/dev/null; do
      # The oldest tito is the grader itself (the sandbox's children are forks of it, named alike).
      [[ -z $tito_pid ]] && tito_pid=$(pgrep -o -x tito || true)
      local kb; kb=$(awk '/^VmHWM/ {print $2}' "/proc/$tito_pid/status" 2>/dev/null || true)
      [[ -n $kb ]] && (( kb > peak_kb )) && peak_kb=$kb
      sleep 0.2
    done
    wait $waiter || true
    echo "$peak_kb" >"$out/peak_$number.txt"
    local wall=$((SECONDS - start))
    (cd "$class" && find . -type f -path '*/modules/*' -print0 | sort -z | xargs -0 sha256sum) >"$out/after_$number.txt"
    sha256sum "$scratch/canary.txt" "$scratch/secret.txt" >>"$out/after_$number.txt"
    echo "== module $number graded as $who: $wall s wall, tito's peak memory $(( $(cat "$out/peak_$number.txt" 2>/dev/null || echo 0) / 1024 )) MB"
    python3 - "$grades/grades.json" "$scratch/secret.txt" "tok-$$" "$grades/cache/grading_seed" <<'PY' || failures=$((failures + 1))
import json, sys
g = {l["id"]: l for l in json.load(open(sys.argv[1]))["learners"]}
secret, token = open(sys.argv[2]).read().strip(), sys.argv[3]
seed = open(sys.argv[4]).read().strip()
text = json.dumps(g)
bad, harmless = [], []
for leaked, what in ((secret, "the secret"), (token, "the token"), (seed, "the seed")):
    if leaked in text: bad.append("a report holds " + what)
for who, l in sorted(g.items()):
    earned, flags = l["earned"] if "earned" in l else sum(m["earned"] for m in l["modules"]), l["flags"]
    status = l["modules"][0]["status"] if l["modules"] else "-"
    note = "; ".join(f for f in flags if "reference solution unchanged" not in f)[:150]
    print(f"  {who:16s} {earned:3d}  {status:14s} {note}")
    if who in ("alice", "bob") and earned != 100: bad.append(f"{who} earned {earned}")
    if who == "carol" and earned != 0: bad.append(f"the starter earned {earned}")
    if who not in ("alice", "bob", "carol") and earned > 0 and not note: harmless.append(who)
if harmless:
    print("  earned points, unflagged, with the reference's code and an attack that had no effect (the kernel or the "
          "sandbox refused it; the checksums below show nothing changed): " + ", ".join(harmless))
print("  " + ("; ".join(bad) if bad else "references 100, starter 0, every attack 0, flagged or without effect, nothing leaked"))
sys.exit(1 if bad else 0)
PY
    if diff -q "$out/before_$number.txt" "$out/after_$number.txt" >/dev/null; then
      echo "  nothing outside the run folders changed (every learner file, the canary, the secret)"
    else
      diff "$out/before_$number.txt" "$out/after_$number.txt" | head -5; failures=$((failures + 1))
    fi
    for path in "/root/$mark" "/tmp/$mark" "$grades/cache/$mark"; do [[ ! -e $path ]] || { echo "  $path was written"; failures=$((failures + 1)); }; done
    pkill -KILL -f -- "$mark-swarm" 2>/dev/null && { echo "  the swarm outlived the grading"; failures=$((failures + 1)); }
  done
  return $failures
}

echo "hostile class: modules $modules, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
grade_all root || status=1
if [[ -n $unprivileged ]]; then
  id "$unprivileged" >/dev/null 2>&1 || useradd --system --no-create-home "$unprivileged"
  grade_all "$unprivileged" || status=1
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
