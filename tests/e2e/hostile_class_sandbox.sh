#!/usr/bin/env bash
# `tito grade` on a hostile class (issue 19, the sandbox part): two honest learners with the reference
# code, and attackers whose module 02 code, besides the real solution, tries from a static initializer
# (so it runs in every start of the test program) to:
#   remount  - remount / read-write from a setsid background process and rewrite its own grades.csv line
#   vandal   - write into another learner's workspace, the grade cache, the repository and /root
#   hunter   - find classmates' test programs through /proc and kill them, for the whole grading run
#   parricide- kill(getppid(), SIGKILL), hoping to kill tito (no grades.csv for anyone)
#   swarm    - start 300 setsid children that should outlive `tito grade`
#   socket   - reach a host Unix socket in /tmp
#   flood    - print 1 GiB of test output (tito's memory, the disk)
#   slowcc   - a constexpr loop that keeps the compiler busy for minutes
# Every attack must be contained, the honest learners' marks intact, and the reports complete.
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR. Skips (77) where the kernel forbids namespaces.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch hostile
cd "$SCRATCH"

e2e_reference_workspace base 01 02
acts=modules/02_activations/activations.cpp
GRADES="$SCRATCH/grades"
MARK="tito-e2e-$$"  # names every file and process an attack would leave behind
mkdir -p class
for learner in alice bob remount vandal hunter parricide swarm socket flood slowcc; do cp -a base "class/$learner"; done

# attack LEARNER 'C++ statements': appended to the learner's activations.cpp, run at start-up.
attack() {
  cat >>"class/$1/$acts" <<EOF

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
namespace {
struct Attack {
  Attack() {
    $2
  }
} attack_at_start_up;
}  // namespace
EOF
}

# (e) of the issue: a background process survives the test program, makes / writable and waits
# for grades.csv to rewrite its own line.
attack remount "if (fork() == 0) { setsid();
      mount(nullptr, \"/\", nullptr, MS_REMOUNT | MS_BIND, nullptr);
      for (int i = 0; i < 600; ++i) {
        FILE* csv = std::fopen(\"$GRADES/grades.csv\", \"a\");
        if (csv) { std::fputs(\"remount,999,999,100,graded\\n\", csv); std::fclose(csv); }
        usleep(100000);
      }
      _exit(0); }"
attack vandal "for (const char* path : {\"$SCRATCH/class/alice/$MARK\", \"$GRADES/cache/$MARK\", \"$TINYTORCH_SOURCE_DIR/$MARK\",
                                      \"/root/$MARK\", \"/tmp/$MARK\"}) {
      FILE* f = std::fopen(path, \"w\"); if (f) { std::fputs(\"owned\", f); std::fclose(f); } }"
attack hunter "if (fork() == 0) { setsid();
      for (int round = 0; round < 300; ++round) {
        if (DIR* proc = opendir(\"/proc\")) {
          while (dirent* entry = readdir(proc)) {
            int pid = std::atoi(entry->d_name);
            if (pid <= 1 || pid == getpid() || pid == getppid()) continue;
            char exe[4096] = {}; std::string link = \"/proc/\" + std::string(entry->d_name) + \"/exe\";
            if (readlink(link.c_str(), exe, sizeof exe - 1) > 0 && std::strstr(exe, \"module_tests\")) kill(pid, SIGKILL);
          }
          closedir(proc);
        }
        usleep(100000);
      }
      _exit(0); }"
attack parricide "kill(getppid(), SIGKILL);"
attack swarm "for (int i = 0; i < 300; ++i) if (fork() == 0) { setsid(); execl(\"/bin/sleep\", \"$MARK-swarm\", \"120\", (char*)nullptr); _exit(0); }"
attack socket "int fd = socket(AF_UNIX, SOCK_STREAM, 0); sockaddr_un address{}; address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof address.sun_path, \"%s\", \"/tmp/$MARK.sock\");
    if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) { ssize_t n = write(fd, \"reached\", 7); (void)n; }
    close(fd);"
# The flood prints from inside relu, so it happens in a test case (and again in every restart).
perl -0pi -e 's|(// BEGIN SOLUTION name="tinytorch::native::relu"[^\n]*\n)|$1  { static const std::string line(1 << 20, 0x78); for (int i = 0; i < 1024; ++i) std::fwrite(line.data(), 1, line.size(), stdout); }\n|' \
  "class/flood/$acts"
sed -i '1i #include <cstdio>\n#include <string>' "class/flood/$acts"
cat >>"class/slowcc/$acts" <<'EOF'

// Each evaluation stays under GCC's -fconstexpr-ops-limit (one that exceeds it fails at once); 400
// of them, with distinct arguments so none is reused, take minutes together.
constexpr unsigned long long keep_the_compiler_busy(unsigned long long seed) {
  unsigned long long sum = seed;
  for (unsigned long long i = 0; i < 100000; ++i) sum += i ^ seed;
  return sum;
}
#define BUSY(n) static_assert(keep_the_compiler_busy(n) != 1, "never true");
#define BUSY10(n) BUSY(n##0) BUSY(n##1) BUSY(n##2) BUSY(n##3) BUSY(n##4) BUSY(n##5) BUSY(n##6) BUSY(n##7) BUSY(n##8) BUSY(n##9)
BUSY10(1)
BUSY10(2)
BUSY10(3)
BUSY10(4)
BUSY10(5)
BUSY10(6)
BUSY10(7)
BUSY10(8)
BUSY10(9)
BUSY10(10)
BUSY10(11)
BUSY10(12)
BUSY10(13)
BUSY10(14)
BUSY10(15)
BUSY10(16)
BUSY10(17)
BUSY10(18)
BUSY10(19)
BUSY10(20)
BUSY10(21)
BUSY10(22)
BUSY10(23)
BUSY10(24)
BUSY10(25)
BUSY10(26)
BUSY10(27)
BUSY10(28)
BUSY10(29)
BUSY10(30)
BUSY10(31)
BUSY10(32)
BUSY10(33)
BUSY10(34)
BUSY10(35)
BUSY10(36)
BUSY10(37)
BUSY10(38)
BUSY10(39)
BUSY10(40)
EOF

# The host socket the socket attacker looks for: anything that connects is recorded.
python3 - "/tmp/$MARK.sock" "$SCRATCH/socket_log.txt" <<'PY' &
import os, socket, sys
path, log = sys.argv[1], sys.argv[2]
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path); server.listen(5); server.settimeout(600)
open(log, "w").close()
try:
    while True:
        connection, _ = server.accept()
        with open(log, "a") as f: f.write("connected\n")
        connection.close()
except socket.timeout:
    pass
PY
listener=$!
trap 'kill $listener 2>/dev/null || true; rm -f "/tmp/$MARK.sock" "/tmp/$MARK"; pkill -KILL -f -- "$MARK-swarm" 2>/dev/null || true; rm -rf "$SCRATCH" || true' EXIT
for _ in $(seq 50); do [[ -S /tmp/$MARK.sock ]] && break; sleep 0.1; done

step "grading the hostile class (module 02, -j 3, 10 s per test run, 40 s per build)"
start=$(date +%s)
"$TITO" grade class --out "$GRADES" --modules 02 -j 3 --time-limit 10 --compile-time-limit 40 >"$OUT" 2>err.txt &
e2e_wait_measuring $! || { cat err.txt; fail "tito grade exited with $?"; }
peak_kb=$PEAK_KB
echo "graded in $(( $(date +%s) - start )) s, tito's peak memory $(( peak_kb / 1024 )) MB"
cat "$OUT"
if grep -q "forbids the namespaces" "$OUT"; then
  echo "SKIPPED: this kernel forbids the namespaces the sandbox needs; tito said so loudly"
  exit 77
fi
[[ -f $GRADES/grades.csv && -f $GRADES/grades.json && -f $GRADES/report/index.html ]] || fail "reports missing"
cp "$GRADES/grades.csv" grades_at_exit.csv
sleep 3  # time for any survivor to act

step "nothing outlived the run, nothing was changed after it"
cmp -s grades_at_exit.csv "$GRADES/grades.csv" || { diff grades_at_exit.csv "$GRADES/grades.csv"; fail "grades.csv changed after tito exited"; }
! grep -q ',999,' "$GRADES/grades.csv" || fail "the remount attacker wrote its own line"
survivors=$(pgrep -c -f -- "$MARK-swarm" || true)
[[ $survivors == 0 ]] || fail "$survivors of the swarm's processes outlived tito grade"

step "no write outside the attacker's own run folder"
for path in "class/alice/$MARK" "$GRADES/cache/$MARK" "$TINYTORCH_SOURCE_DIR/$MARK" "/root/$MARK" "/tmp/$MARK"; do
  [[ ! -e $path ]] || fail "the vandal wrote $path"
done
[[ ! -s socket_log.txt ]] || fail "the socket attacker reached the host socket"

step "the flood cost neither memory nor disk"
rss_mb=$(( peak_kb / 1024 ))
if within_bound "tito's peak memory"; then (( rss_mb < 600 )) || fail "tito's peak memory was $rss_mb MB"; fi
flood_mb=$(du -sm "$GRADES/work/flood" | cut -f1)
(( flood_mb < 64 )) || fail "the flood left $flood_mb MB on disk"
echo "tito peak ${rss_mb} MB; the flood's folder ${flood_mb} MB"

step "marks: honest learners intact, every attacker has a row"
row() { grep "^$1," "$GRADES/grades.csv" || fail "no row for $1"; }
for honest in alice bob; do
  grep -qE "^$honest,100,100,100,graded" <<<"$(row $honest)" || { cat "$GRADES/grades.csv"; fail "$honest lost marks"; }
done
for attacker in remount vandal hunter parricide swarm socket flood slowcc; do row "$attacker" >/dev/null; done
python3 - "$GRADES/grades.json" <<'PY'
import json, sys
g = {l["id"]: l for l in json.load(open(sys.argv[1]))["learners"]}
slow = g["slowcc"]["modules"][0]
assert slow["status"] == "build failed", slow["status"]
assert "compile time limit" in slow["note"], slow["note"]
flood = [c for c in g["flood"]["modules"][0]["cases"] if c["status"] != "passed"]
assert flood and any("SIGXFSZ" in c["message"] or "file size" in c["message"] for c in flood), flood[:2]
print("ok: slowcc stopped at the compile limit; the flood stopped at the file size limit")
PY
echo "hostile_class_sandbox: all checks passed"
