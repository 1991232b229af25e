# Shared set-up of the e2e stories that drive tito as a learner would (sourced, not run; ctest runs only
# tests/e2e/*.sh). After `source`: tito points at the tree under test, $SCRATCH is a temporary folder
# removed on exit, $OUT holds the last command's output, and step/fail/run are defined. Each story keeps
# its own expect/reject, since some match fixed strings and some patterns.
#   e2e_scratch NAME    makes $SCRATCH (".../tito-NAME-XXXXXX") and $OUT
#   e2e_reference_workspace DIR NN...   a new workspace DIR holding the reference files of modules NN...
: "${TITO:?set TITO to the tito binary}"
: "${TINYTORCH_SOURCE_DIR:?set TINYTORCH_SOURCE_DIR}"
: "${TINYTORCH_BUILD_DIR:?set TINYTORCH_BUILD_DIR}"
export CI=1 NO_COLOR=1 TITO_HOME="$TINYTORCH_SOURCE_DIR" TITO_BUILD_DIR="$TINYTORCH_BUILD_DIR"
unset TITO_WORKSPACE

e2e_scratch() {
  SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/tito-$1-XXXXXX")
  trap 'rm -rf "$SCRATCH"' EXIT
  OUT="$SCRATCH/out.txt"
}

step() { echo "--- $*"; }
# within_bound DESCRIPTION: false, after saying the bound is skipped, when the tree under test is built
# with sanitizers (tests/CMakeLists.txt); use as `within_bound "tito's peak memory" && check`.
within_bound() {
  [[ ${TINYTORCH_SANITIZED:-0} != 1 ]] && return 0
  echo "skipped under sanitizers: the bound on $1"
  return 1
}
fail() { echo "FAILED: $*"; echo "--- last output:"; cat "$OUT" 2>/dev/null || true; exit 1; }
# run EXPECTED_RC cmd...: runs in the current directory, output to $OUT, checks the exit code.
run() {
  local expected=$1 rc=0; shift
  "$@" >"$OUT" 2>&1 || rc=$?
  [[ $rc == "$expected" ]] || fail "'$*' exited $rc, expected $expected"
}

# A workspace (tito init DIR) whose module folders hold the reference solution's learner files, unchanged:
# what an honest learner who finished those modules hands in (grading flags them as the reference).
e2e_reference_workspace() {
  local dir=$1; shift
  "$TITO" init "$dir" >/dev/null
  python3 - "$TINYTORCH_SOURCE_DIR" "$dir" "$@" <<'PY'
import json, os, shutil, sys
src, ws, numbers = sys.argv[1], sys.argv[2], sys.argv[3:]
for m in json.load(open(os.path.join(src, "curriculum/curriculum.json")))["modules"]:
    if m["number"] in numbers:
        folder = os.path.join(ws, "modules", m["number"] + "_" + m["slug"])
        os.makedirs(folder, exist_ok=True)
        for f in m["learner_files"]:
            shutil.copy(os.path.join(src, f), folder)
PY
}

# e2e_unnamed_libc FUNCTION...: C++ that reaches these C library functions without naming them, as
# `tito_unnamed_FUNCTION` pointers: printf's address plus their distance from it in this machine's
# libc. It stands for learner code that gets past tito's check of the symbols it uses (pointer
# arithmetic cannot be seen in an object file), so that a story can test what holds at run time.
e2e_unnamed_libc() {
  python3 - "$(${CXX:-c++} -print-file-name=libc.so.6)" "$@" <<'PY'
import subprocess, sys
libc, names = sys.argv[1], sys.argv[2:]
address = {}
for line in subprocess.run(["nm", "-D", "-P", "--defined-only", libc], capture_output=True, text=True).stdout.splitlines():
    fields = line.split()
    if len(fields) >= 3:
        address.setdefault(fields[0].split("@")[0], int(fields[2], 16))
print("#include <cstdint>\n#include <cstdio>")
print("namespace {")
print("template <typename F> F tito_unnamed(long distance) {")
print("  return reinterpret_cast<F>(reinterpret_cast<std::uintptr_t>(&std::printf) + distance);")
print("}")
signatures = {"symlink": "int (*)(const char*, const char*)", "link": "int (*)(const char*, const char*)",
              "getenv": "char* (*)(const char*)", "write": "long (*)(int, const void*, unsigned long)"}
for name in names:
    print(f"const auto tito_unnamed_{name} = tito_unnamed<{signatures[name]}>({address[name] - address['printf']}L);")
print("}  // namespace")
PY
}

# e2e_wait_measuring PID: waits for the background process PID and returns its exit status, setting
# PEAK_KB to its own peak resident memory (VmHWM, sampled while it runs: its children do not count).
e2e_wait_measuring() {
  local pid=$1 kb
  PEAK_KB=0
  while kill -0 "$pid" 2>/dev/null; do
    kb=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [[ -n $kb ]] && (( kb > PEAK_KB )) && PEAK_KB=$kb
    sleep 0.2
  done
  wait "$pid"
}
