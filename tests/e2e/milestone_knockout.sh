#!/usr/bin/env bash
# The knockout study, CI-sized (`tito instructor knockout`, tito/src/core/milestone_knockout.h): milestone
# parts built on the reference with one module's known-wrong variant at a time must fail a gate, or not
# be touched by it at all. The whole study (every required part x every variant of every module it
# uses: over 900 runs, hours on 2 cores) is run by hand; CI runs, on each milestone's quick required
# part, the variants of the modules that milestone brings in:
#   milestones 01 and 02: every variant of modules 01-03 (52 runs of a few seconds);
#   milestone 04 part 1 (TinyDigits CNN): module 09's convolution, pooling and batch-norm variants;
#   milestone 03 part 1 (XOR): module 03's variants (a bias left at zero trains XOR as well);
#   milestone 03 part 2 (TinyDigits MLP): one variant of each probe it gained (a Linear forward without
#   its bias, a bias left at zero, a log-softmax that underflows, eps inside Adam's square root, a Trainer
#   that keeps gradients across updates or clips before averaging), which all passed its accuracy gate
#   before (milestones 03 and 04 share most probes, training_probes.h);
#   milestone 05 part 1 (sequence routing): the four module 12 attention variants that reach it (a
#   softmax over the queries passed 100/100/100 before the row-sum and causality probes), and the
#   embedding and LayerNorm mistakes it trains around (its embedding and LayerNorm probes);
#   milestone 06 part 1 (Optimization Olympics): one variant of each probe it gained (modules 02-05 and
#   07 under its training, 14-17 and 19 under its measurements), which all passed every gate before;
#   milestone 06 part 2 (KV cache): the GPT forward-pass probe's and the greedy-agreement gate's variants
#   (modules 12 and 13: the cached and recomputed paths agreed while both computed the wrong thing) and
#   the cache's byte count (module 18).
# Then a gate without its probe (milestone 01 with the forward-pass probe removed, in a scratch
# TITO_HOME): the study reports the sigmoid that overflows as passing every gate, and fails.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/milestone_story.bash"

# No variant may pass every gate, and every variant must build.
no_findings() {
  expect "$out" " 0 pass every gate (findings" "$1"
  expect "$out" " 0 not run;" "$1"
  grep -q "PASSES EVERY GATE" <<<"$out" && fail "$1: a variant passes every gate" "$out"
  return 0
}
# caught ROW GATES WHY: the table's row for ROW ("01/1   02 sigmoid-exp-x-overflows") names GATES.
caught() { grep -q "^$1 .*$2" <<<"$out" || fail "$3" "$out"; }
# The studies below share one build folder (--keep): each run slot keeps its learner objects from one study
# to the next, so a study compiles only the files that differ from its slot's last run (the variant's file,
# and the one the previous run changed back), as the runs within one study always did, instead of every
# reference file of every module its parts use, once per slot and study (about 280 compiles in all).
# What each run builds and links is still the reference with exactly one file varied.
kept=(--keep "$scratch/knockout-build")

echo "== milestones 01 and 02 with every variant of modules 01-03"
run_tito 0 instructor knockout 01 02 --jobs 2 "${kept[@]}"
no_findings "knockout 01 02"
expect "$out" "01/1   reference" "knockout 01 02"
expect "$out" "01/1   02 sigmoid-exp-x-overflows" "knockout 01 02"
caught "01/1   02 sigmoid-exp-x-overflows" "forward_max_error" "the forward probe did not catch the overflowing sigmoid in milestone 01"
caught "01/1   03 bias-left-at-zero" "init_bound_error" "the initialisation probe did not catch a bias left at zero in milestone 01"
caught "02/1   01 transpose-keeps-strides" "accuracy, forward_max_error" "every failing gate should be named (accuracy and forward_max_error)"

echo "== milestone 04 part 1 with module 09's variants"
run_tito 0 instructor knockout 04 --part 1 --modules 09 --jobs 2 "${kept[@]}"
no_findings "knockout 04 --part 1 --modules 09"

echo "== milestone 03 part 1 (XOR) with module 03's variants"
run_tito 0 instructor knockout 03 --part 1 --modules 03 --jobs 2 "${kept[@]}"
no_findings "knockout 03 --part 1 --modules 03"
caught "03/1   03 bias-left-at-zero" "init_bound_error" "the initialisation probe did not catch a bias left at zero in milestone 03 part 1"

echo "== milestone 03 part 2 with a variant for each probe of its modules 02, 03 and 07"
run_tito 0 instructor knockout 03 --part 2 --jobs 2 "${kept[@]}" \
  --variants forward-forgets-bias,bias-left-at-zero,log-softmax-as-log-of-softmax,adam-eps-inside-sqrt,update-keeps-gradients,clip-before-averaging
no_findings "knockout 03 --part 2"
expect "$out" "6 variant runs: 6 caught by a gate" "knockout 03 --part 2"
caught "03/2   08 update-keeps-gradients" "trainer_update_error" "the Trainer probe did not catch gradients kept across updates in milestone 03"
caught "03/2   08 clip-before-averaging" "trainer_update_error" "the Trainer probe did not catch clipping before averaging in milestone 03"
caught "03/2   03 forward-forgets-bias" "linear_forward_error" "the Linear forward probe did not catch a forward without its bias in milestone 03"
caught "03/2   02 log-softmax-as-log-of-softmax" "log_softmax_error" "the log-softmax probe did not catch log(softmax(x)) in milestone 03"
caught "03/2   07 adam-eps-inside-sqrt" "adam_step_error" "the Adam probe did not catch eps inside the square root in milestone 03"

echo "== milestone 05 part 1 with the module 12 variants that reach it, and an embedding and LayerNorm each"
# Part 1 trains three models (5-30 s a run); module 12's other 8 variants leave its measurements exactly
# as the reference's (nn::MultiheadAttention scales q itself and passes a float mask), as the full study
# shows, so CI runs the four that change what part 1 computes, then three that its probes catch.
run_tito 0 instructor knockout 05 --part 1 --jobs 2 "${kept[@]}" \
  --variants softmax-over-queries,float-mask-ignored,split-heads-batch-and-length-swapped,merge-heads-without-permute,backward-assigns-instead-of-adding,layer-norm-backward-forgets-weight,layer-norm-unbiased-variance
no_findings "knockout 05 --part 1 (module 12)"
expect "$out" "7 variant runs: 7 caught by a gate" "knockout 05 --part 1 (module 12)"
caught "05/1   11 backward-assigns-instead-of-adding" "embedding_backward_error" "the embedding probe did not catch a gradient assigned instead of added in milestone 05"
caught "05/1   13 layer-norm-backward-forgets-weight" "layer_norm_error" "the LayerNorm probe did not catch a backward without the weight in milestone 05"
caught "05/1   12 softmax-over-queries" "attention_row_sum_error, causality_max_change" "a softmax over the queries must fail the row-sum and causality probes"

echo "== milestone 06 part 1 with a variant for each probe it gained"
run_tito 0 instructor knockout 06 --part 1 --jobs 2 "${kept[@]}" \
  --variants log-softmax-as-log-of-softmax,init-bound-without-sqrt,cross-entropy-softmax-over-batch,random-sampler-never-reshuffles,adam-eps-inside-sqrt,peak-one-chain,per-channel-wrong-axis,prunes-largest,ikj-keeps-old-c,column-sum-overwrites,welch-pooled-variance,pareto-ignores-goal
no_findings "knockout 06 --part 1"
expect "$out" "12 variant runs: 12 caught by a gate" "knockout 06 --part 1"
caught "06/1   04 cross-entropy-softmax-over-batch" "cross_entropy_error" "the cross-entropy probe did not catch a softmax over the batch in milestone 06"
caught "06/1   15 per-channel-wrong-axis" "quantized_linear_error" "the QuantizedLinear probe did not catch the wrong channel axis in milestone 06"
caught "06/1   16 prunes-largest" "pruning_rank_overlap" "the pruning probe did not catch pruning the largest weights in milestone 06"

echo "== milestone 06 part 2 with the variants its GPT, greedy and cache-size probes catch"
run_tito 0 instructor knockout 06 --part 2 --jobs 2 "${kept[@]}" \
  --variants scores-not-scaled,split-heads-interleaved,layer-norm-unbiased-variance,mlp-relu,generate-first-position,memory-counts-keys-only,bias-left-at-zero
no_findings "knockout 06 --part 2"
expect "$out" "7 variant runs: 7 caught by a gate" "knockout 06 --part 2"
caught "06/2   12 scores-not-scaled" "gpt_forward_error" "the GPT forward probe did not catch unscaled attention scores in milestone 06"
caught "06/2   13 generate-first-position" "greedy_tokens_agreeing" "the greedy-agreement gate did not catch sampling from the first position in milestone 06"

echo "== a gate without its probe lets a broken module through: the study says so and fails"
home="$scratch/home"
mkdir -p "$home/milestones"
for shared in curriculum framework datasets; do ln -s "$TINYTORCH_SOURCE_DIR/$shared" "$home/$shared"; done
ln -s "$TINYTORCH_SOURCE_DIR/milestones/common" "$home/milestones/common"
cp -r "$TINYTORCH_SOURCE_DIR/milestones/01_1958_perceptron" "$home/milestones/"
python3 - "$home/milestones/01_1958_perceptron/milestone.json" <<'PY'
import json, sys
path = sys.argv[1]
data = json.load(open(path))
part = data["parts"][0]
part["gates"] = [g for g in part["gates"] if g["metric"] != "forward_max_error"]
json.dump(data, open(path, "w"), indent=2)
PY
# The same kept build: $home links the same curriculum and framework, so the reference files are the ones the
# slots compiled above (only the copied milestone program, and the file a slot's last run varied, are compiled
# afresh).
TITO_HOME="$home" run_tito 1 instructor knockout 01 --variants sigmoid-exp-x-overflows "${kept[@]}"
expect "$out" "PASSES EVERY GATE (accuracy = 1" "milestone 01 without its forward probe"
expect "$out" "1 variant runs: 0 caught by a gate, 1 pass every gate" "milestone 01 without its forward probe"
run_tito 2 instructor knockout 01 --variants no-such-variant
expect "$out" "no module the chosen milestone parts use has a variant named 'no-such-variant'" "an unknown variant"

echo "milestone_knockout: all checks passed"
