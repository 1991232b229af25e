#!/usr/bin/env bash
# The whole learner story through the real tito binary: init, list, start, view, test (starter fails,
# reference passes), complete, status, reset, --reference in a second workspace, and watch.
# Needs: TITO (the binary), TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR (a configured and built tree).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch story
expect() { grep -q -- "$1" "$OUT" || fail "expected '$1' in the output of the last command"; }
reject() { if grep -q -- "$1" "$OUT"; then fail "did not expect '$1' in the output"; fi; }

cd "$SCRATCH"

step "tito alone prints a welcome"
run 0 "$TITO"
expect "tito init"
expect "tito module start 01"

step "init creates a workspace; running it again is a no-op"
run 0 "$TITO" init
[[ -f workspace/.tito/workspace.json && -f workspace/.tito/progress.json && -f workspace/README.md ]] || fail "workspace files"
[[ -d workspace/.tito/logs ]] || fail "no logs folder"
expect "tito module start 01"
run 0 "$TITO" init
expect "already a TinyTorch workspace"
cd workspace

step "module list: 22 modules, 01 ready, the others locked or not yet available"
run 0 "$TITO" module list
[[ $(grep -cE '^[0-9]{2} ' "$OUT") == 22 ]] || fail "expected 22 module rows"
grep -qE '^01 .*ready$' "$OUT" || fail "01 should be ready"
[[ $(grep -E '^(0[2-9]|1[0-9]|2[0-2]) ' "$OUT" | grep -cE '(locked|not yet available)$') == 21 ]] || fail "02-22 should be locked"
run 0 "$TITO" module list --json
python3 -c '
import json, sys
modules = json.load(open(sys.argv[1]))
assert len(modules) == 22, len(modules)
assert modules[0]["number"] == "01" and modules[0]["state"] == "ready", modules[0]
assert all(m["state"] in ("locked", "not yet available") for m in modules[1:])
assert all({"number", "title", "tier", "prerequisites", "state"} <= set(m) for m in modules)
' "$OUT" || fail "module list --json"

step "module start 01 writes the starter files"
run 0 "$TITO" module start 01
expect "modules/01_tensor/"
expect "tito module test 01"
LEARNER_FILES=$(python3 -c '
import json, sys
for m in json.load(open(sys.argv[1]))["modules"]:
    if m["number"] == "01":
        print(" ".join(m["learner_files"]))
' "$TINYTORCH_SOURCE_DIR/curriculum/curriculum.json")
for file in $LEARNER_FILES; do
  name=$(basename "$file")
  [[ -f modules/01_tensor/$name ]] || fail "missing starter file $name"
  grep -q "tito module test 01" "modules/01_tensor/$name" || fail "$name has no header comment"
  if grep -q "BEGIN SOLUTION" "modules/01_tensor/$name"; then fail "$name still has solution markers"; fi
done
grep -q "throw tinytorch::NotImplemented(" modules/01_tensor/*.cpp || fail "no NotImplemented stubs in the starter"
run 0 "$TITO" module start 01
expect "already started"
expect "tito module reset 01"

step "module view --path prints the lesson path"
run 0 "$TITO" module view 01 --path
[[ $(cat "$OUT") == "$TINYTORCH_SOURCE_DIR/curriculum/01_tensor/lesson.md" ]] || fail "wrong lesson path"
run 0 "$TITO" module view 01
[[ $(wc -l <"$OUT") -gt 10 ]] || fail "the lesson did not render"

step "module test on the starter: 0 points, every case not implemented, no crash"
run 1 "$TITO" module test 01
expect "Score: 0/"
cases=$(grep -cE '^  \[(ok|x)\] ' "$OUT" || true)
not_implemented=$(grep -cE '^  \[x\] .*not implemented$' "$OUT" || true)
[[ $cases -gt 0 && $cases == "$not_implemented" ]] || fail "$not_implemented of $cases cases reported as not implemented"
reject "crashed"
reject "timed out"
expect "write tinytorch::"
# The learner's code is compiled by the compiler the framework build was configured with (GCC or Clang).
build_cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$TINYTORCH_BUILD_DIR/CMakeCache.txt")
[[ -n $build_cxx ]] || fail "no CMAKE_CXX_COMPILER in $TINYTORCH_BUILD_DIR/CMakeCache.txt"
grep -qxF "cxx = $build_cxx" .tito/build/01/build.ninja || fail "the learner build does not use $build_cxx: $(grep '^cxx' .tito/build/01/build.ninja)"

step "the reference solution passes with full points"
for file in $LEARNER_FILES; do cp "$TINYTORCH_SOURCE_DIR/$file" modules/01_tensor/; done
run 0 "$TITO" module test 01
grep -qE '^Score: ([0-9]+)/\1 points, [0-9]+ passed, 0 failed' "$OUT" || fail "not full points"
reject "\[x\]"

step "module complete records the completion and announces 02"
run 0 "$TITO" module complete 01
expect "Module 01 (Tensor) completed"
expect "Unlocked: module 02 (Activations)"
expect "until milestone 01 (Perceptron, 1958): 02, 03"
python3 -c '
import json, sys, re
p = json.load(open(sys.argv[1]))
m = p["modules"]["01"]
assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", m["completed_at"]), m
assert m["score"] == m["points"] and m["points"] > 0, m
assert re.match(r"[0-9a-f]{64}$", m["fingerprint"]), m
' .tito/progress.json || fail "progress.json after complete"

step "module status shows it"
run 0 "$TITO" module status
expect "1/22 modules completed"
grep -qE '^01 +Tensor +completed' "$OUT" || fail "01 not shown as completed"
run 0 "$TITO" module status --json
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["completed"] == 1 and s["total"] == 22
assert s["modules"][0]["state"] == "completed"
' "$OUT" || fail "module status --json"

step "reset backs up the learner's files and restores the starter"
echo "// my own note" >> modules/01_tensor/$(basename ${LEARNER_FILES%% *})
run 0 "$TITO" module reset 01
expect "Backed up your files to"
backup=$(sed -n 's/^Backed up your files to //p' "$OUT")
[[ -d $backup ]] || fail "backup folder $backup missing"
grep -q "// my own note" "$backup"/* || fail "the backup lacks the learner's change"
grep -q "throw tinytorch::NotImplemented(" modules/01_tensor/*.cpp || fail "starter not restored"
run 0 "$TITO" module status --json
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["completed"] == 0 and s["modules"][0]["state"] == "started", s["modules"][0]
' "$OUT" || fail "completion not cleared by reset"

step "watch re-runs the tests when a file is saved"
"$TITO" module watch 01 --max-runs 2 >"$SCRATCH/watch.txt" 2>&1 &
watch_pid=$!
for _ in $(seq 1 600); do grep -q "^Score:" "$SCRATCH/watch.txt" && break; sleep 0.5; done
grep -q "^Score:" "$SCRATCH/watch.txt" || { kill "$watch_pid"; fail "watch never finished its first run"; }
sleep 0.5
touch "modules/01_tensor/$(basename ${LEARNER_FILES%% *})"
watch_rc=0
wait "$watch_pid" || watch_rc=$?
cp "$SCRATCH/watch.txt" "$OUT"
[[ $watch_rc == 0 ]] || fail "watch exited $watch_rc"
expect "change detected"
[[ $(grep -c "^Score:" "$OUT") == 2 ]] || fail "watch should have run twice"

step "start --reference in a second workspace passes"
cd "$SCRATCH"
run 0 "$TITO" init second
cd second
run 0 "$TITO" module start 01 --reference
expect "reference solution"
run 0 "$TITO" module test 01
grep -qE '^Score: ([0-9]+)/\1 points, [0-9]+ passed, 0 failed' "$OUT" || fail "reference not at full points"

step "completing on the reference is recorded and shown as the reference, not as the learner's work"
run 0 "$TITO" module complete 01
expect "on the reference solution"
reject "You built it yourself"
run 0 "$TITO" module status
grep -qE '^01 +Tensor +completed .* on the reference solution' "$OUT" || fail "status does not say 01 ran the reference"
run 0 "$TITO" module status --json
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["modules"][0]["origin"] == "reference", s["modules"][0]
' "$OUT" || fail "module status --json has no origin reference"
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
assert p["version"] == 2 and p["modules"]["01"]["origin"] == "reference", p
' .tito/progress.json || fail "progress.json does not record the reference origin"

echo "learner story: all steps passed"
