#!/usr/bin/env bash
# One bug, one message: what a learner sees when one mistake fails many cases, through the real tito
# on modules 10 and 12 taken from the reference (01-11 completed) and then broken on purpose:
#   a missing attention scale fails most of module 12's cases: the case that isolates the scale comes
#     first, with the scale's hint, and every other failure is one line naming it (hints.json "exercises");
#   a failure shows its test's own lines under tests/NAME.cpp:LINE, never a path into the installation;
#   an encode_word bug in module 10 gets encode_word's hint (the failed check's, not the case's), and an id
#     list is shown near its first difference, not whole;
#   a byte read as a signed char names encode_word, not "decode ids made by this tokenizer's encode";
#   `tito module hint` reveals a check's own hint.
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR (a configured and built tree).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch root-cause
expect() { grep -q -- "$1" "$OUT" || fail "expected '$1' in the output of the last command"; }
reject() { if grep -q -- "$1" "$OUT"; then fail "did not expect '$1' in the output"; fi; }
# replace FILE ORIGINAL REPLACEMENT: the known-wrong variant's edit (fails unless ORIGINAL is there once).
replace() {
  python3 - "$@" <<'PY' || fail "cannot plant the variant in $1"
import sys
path, original, replacement = sys.argv[1:]
text = open(path).read()
assert text.count(original) == 1, f"{original!r} is not in {path} exactly once"
open(path, "w").write(text.replace(original, replacement))
PY
}

cd "$SCRATCH"
run 0 "$TITO" init
cd workspace
step "modules 01-11 completed on the reference, 12 started"
for number in 01 02 03 04 05 06 07 08 09 10 11; do
  run 0 "$TITO" module start "$number" --reference
  run 0 "$TITO" module complete "$number"
done
run 0 "$TITO" module start 12 --reference

step "a missing attention scale: one root-cause message, the other failures folded"
attention=modules/12_attention/attention_core.cpp
cp "$attention" "$SCRATCH/attention_core.cpp"
replace "$attention" "Tensor scores = query.matmul(key.transpose(-2, -1)) * scale;" \
  "Tensor scores = query.matmul(key.transpose(-2, -1));"
run 1 "$TITO" module test 12
first_failure=$(grep -m1 '^  \[x\]' "$OUT")
[[ $first_failure == *"the scale is 1/sqrt(E) unless given"* ]] || fail "the scale's case should come first, not: $first_failure"
failed=$(grep -c '^  \[x\]' "$OUT")
folded=$(grep -c 'most likely the same cause as "the scale is 1/sqrt(E) unless given"' "$OUT")
(( failed >= 5 && folded == failed - 1 )) || fail "expected every failure but the first folded ($failed failed, $folded folded)"
[[ $(grep -c 'hint: ' "$OUT") == 1 ]] || fail "expected one hint, not one per failed case"
expect "hint: The scale multiplies the scores before the softmax"
expect 'tito module hint 12 "the scale is 1/sqrt(E) unless given / the scale multiplies the scores"'
expect "tests/test_attention.cpp:[0-9]"
expect "expected: tensor(size=\[2, 3, 3\], dtype=float) at \[0, 0, 0:3\]: \["  # near the first mismatch, not whole
expect "first mismatch at index \[0, 0, 0\]: got .*; [0-9]* of 18 values differ"
expect '  > [0-9]* |.*CHECK_THAT(torch::scaled_dot_product_attention(q \* 2'  # the failing line itself
reject "$TINYTORCH_SOURCE_DIR/curriculum"
cp "$OUT" "$SCRATCH/scale_report.txt"
run 1 "$TITO" module test 12 --verbose  # every failure in full
(( $(grep -c 'hint: ' "$OUT") == failed )) || fail "--verbose should show every failed case's hint"
expect "hint: This check runs section 3's worked example with the default scale 1/sqrt(2)"  # the worked example's check
run 0 "$TITO" module hint 12 "the scale is 1/sqrt(E) unless given / the scale multiplies the scores"
expect "hint 1 of 3"
cp "$SCRATCH/attention_core.cpp" "$attention"

step "an encode_word bug: encode_word's hint, and id lists shown near their first difference"
bpe=modules/10_tokenization/bpe.cpp
cp "$bpe" "$SCRATCH/bpe.cpp"
replace "$bpe" "found->second < best_rank)) best_rank" "found->second > best_rank)) best_rank"
run 1 "$TITO" module test 10 --verbose
cp "$OUT" "$SCRATCH/encode_verbose.txt"
expect "first difference at position [0-9]*: got "
grep -v '^ *hint: ' "$OUT" | awk 'length > 300 { exit 1 }' || fail "a line of the report (other than a hint) is longer than 300 characters"
run 1 "$TITO" module test 10
first_failure=$(grep -m1 '^  \[x\]' "$OUT")
[[ $first_failure == *"BPETokenizer encodes new text by merge rank"* ]] || fail "the encoding case should come first, not: $first_failure"
expect "hint: encode_word does not replay this tokenizer's own merges"
if grep 'hint: ' "$OUT" | grep -q "count_pairs\|merge_pair"; then fail "an encode_word bug got a training hint"; fi
cp "$SCRATCH/bpe.cpp" "$bpe"

step "a byte read as a signed char: the message names encode_word"
replace "$bpe" "ids.push_back(static_cast<unsigned char>(byte));" "ids.push_back(static_cast<signed char>(byte));"
run 1 "$TITO" module test 10 "BPE round-trips*"
expect "encode_word read a byte above 0x7F as a negative char"
reject "decode ids made by this tokenizer's encode"
cp "$SCRATCH/bpe.cpp" "$bpe"
run 0 "$TITO" module test 10
echo "PASS"
