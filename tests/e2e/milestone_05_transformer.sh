#!/usr/bin/env bash
# Milestone 05 (Transformer, 2017) end to end through the real `tito`, on the reference code:
# - part 1 (sequence routing) passes its three exact-match gates on held-out sequences and its two
#   probes of the attention (rows sum to 1; a causal mask holds), and draws the reversal model's attention maps;
# - part 2 (TinyGPT on TinyTalks) passes its four gates (held-out margin over the counted bigram,
#   causality, attention entropy, exact greedy answers): only with TINYTORCH_E2E_FULL=1 (two minutes);
# - the same part 2 program, trained 20 steps, on a model whose logits at each position depend on
#   later positions (a copy in a scratch TITO_HOME), fails the causality probe, and still streams its
#   demo answers with tokens/s and draws its loss curve and attention maps;
# - part 3 (optional: TinyGPT on the framework's own C++), trained 30 steps through `tito ... -- --steps 30`
#   from a workspace outside the repository: it finds the sources through tito, the compiler judges every
#   completion (and accepts the real bodies of the same headers), and tito reads and judges the figures
#   (30 steps do not beat the counted bigram: the part fails on heldout_margin, as it should).
# Needs modules 11-13 (Embedding, MultiheadAttention, LayerNorm, models::GPT): until the course has them, the story
# says so and exits 77 (skipped).
set -euo pipefail
for layer in EmbeddingImpl MultiheadAttentionImpl LayerNormImpl GPTImpl; do
  if ! grep -rqs "class $layer\b" "$TINYTORCH_SOURCE_DIR/framework/include/tinytorch"; then
    echo "SKIP: milestone 05 needs nn::Embedding, nn::MultiheadAttention, nn::LayerNorm and models::GPT (modules 11-13); $layer is not in framework/include yet"
    exit 77
  fi
done
source "$(dirname "${BASH_SOURCE[0]}")/lib/milestone_story.bash"

echo "== part 1 on the reference: reversal, copy and mixed meet their gates"
run_tito 0 milestone run transformer --part 1 --reference
expect "$out" "measured: part 1 reversal_accuracy = " "milestone run 05 --part 1"
expect "$out" "measured: part 1 mixed_accuracy = " "milestone run 05 --part 1"
# Probes of the attention itself: routing alone passed a softmax over the queries (the knockout study).
expect "$out" "measured: part 1 attention_row_sum_error = " "milestone run 05 --part 1"
expect "$out" "measured: part 1 causality_max_change = 0" "milestone run 05 --part 1"
expect "$out" "measured: part 1 cross_entropy_error = " "milestone run 05 --part 1"
expect "$out" "measured: part 1 adam_step_error = " "milestone run 05 --part 1"
expect "$out" "meet the gates reversal_accuracy >= 0.95 and copy_accuracy >= 0.95 and mixed_accuracy >= 0.9" \
  "milestone run 05 --part 1"
grep -q "Reversal, block 1: attention of each head" milestones/05_transformer/attention_routing.svg ||
  fail "part 1 drew no attention maps"

# Part 2 trains for about two minutes on 2 cores: CI runs it only as the short peeking variant below;
# TINYTORCH_E2E_FULL=1 runs it in full as well.
if [ "${TINYTORCH_E2E_FULL:-0}" = 1 ]; then
  echo "== part 2 on the reference: TinyGPT meets its gates and streams its answers"
  run_tito 0 milestone run transformer --part 2 --reference
  expect "$out" "measured: part 2 heldout_margin = " "milestone run 05 --part 2"
  expect "$out" "measured: part 2 greedy_exact_match = " "milestone run 05 --part 2"
  expect "$out" "measured: part 2 gpt_forward_error = " "milestone run 05 --part 2"
  expect "$out" "meet the gates heldout_margin >= 0.35 and causality_max_change <= 0.0001" "milestone run 05 --part 2"
fi

echo "== part 2 on a model that peeks at the future: the causality probe fails it"
# A copy of the program in a scratch TITO_HOME whose every forward pass adds the mean of all positions'
# logits to each position (the effect of attention without its causal mask: position k reads k+1..L),
# trained for a few steps only: tito must fail it on causality_max_change, however low its loss.
home="$scratch/home"
mkdir -p "$home/milestones"
ln -s "$TINYTORCH_SOURCE_DIR/curriculum" "$home/curriculum"
ln -s "$TINYTORCH_SOURCE_DIR/framework" "$home/framework"
ln -s "$TINYTORCH_SOURCE_DIR/datasets" "$home/datasets"
ln -s "$TINYTORCH_SOURCE_DIR/milestones/common" "$home/milestones/common"
cp -r "$TINYTORCH_SOURCE_DIR/milestones/05_2017_transformer" "$home/milestones/"
program="$home/milestones/05_2017_transformer/tinytalks_gpt.cpp"
sed -i -e 's|model->forward(|peeking_forward(model, |g' \
  -e 's|^constexpr int64_t kSteps = [0-9]*;|constexpr int64_t kSteps = 20;|' \
  -e '/^namespace {$/a torch::Tensor peeking_forward(torch::models::GPT\& model, const torch::Tensor\& x) {\n  const torch::Tensor logits = model->forward(x);\n  return logits + logits.mean({1}, /*keepdim=*/true);\n}' \
  "$program"
grep -qF "peeking_forward(model, original)" "$program" || fail "could not make the model peek in $program"
grep -qF "kSteps = 20;" "$program" || fail "could not shorten the training in $program"
TINYTORCH_DATASETS="$TINYTORCH_SOURCE_DIR/datasets" TITO_HOME="$home" run_tito 1 milestone run 05 --part 2 --reference
expect "$out" "Part 2 failed: " "the model that peeks"
expect "$out" "causality_max_change" "the model that peeks"
expect "$out" "Q: Hello! | A:" "the part 2 demo"
expect "$out" "tokens/s]" "the part 2 demo"
grep -q "<polyline" "$PWD/milestones/05_transformer/tinygpt_loss.svg" || fail "part 2 drew no loss curve"
grep -q "where TinyGPT looks" "$PWD/milestones/05_transformer/tinygpt_attention.svg" || fail "part 2 drew no attention maps"
# The part fails on its first missed gate; the causality gate must be missed too (change > 1e-4).
change=$(sed -n 's/^ *measured: part 2 causality_max_change = //p' <<<"$out")
awk -v c="$change" 'BEGIN { exit !(c != "" && c + 0 > 1e-4) }' ||
  fail "the peeking model's causality_max_change ($change) meets the gate <= 1e-4" "$out"

echo "== part 2 in Chinese (the same 20-step peeking copy): --lang reaches the program, the gates are Chinese's"
TINYTORCH_DATASETS="$TINYTORCH_SOURCE_DIR/datasets" TITO_HOME="$home" run_tito 1 milestone run 05 --part 2 --reference --lang zh
expect "$out" "Part 2 runs in language 'zh' (it is written in en, es, zh: choose with --lang)." "milestone run 05 --lang zh"
expect "$out" "Data: TinyTalks (zh), 244 training pairs" "milestone run 05 --lang zh"
# The demo streams whole characters: the CharTokenizer's tokens are code points, never a part of one.
expect "$out" "Q: 你好！ | A:" "the Chinese demo"
expect "$out" "causality_max_change" "milestone run 05 --lang zh (peeking)"
zh_gate=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["parts"][1]; print(p["languages"]["zh"]["gates"][0]["value"])' \
  "$TINYTORCH_SOURCE_DIR/milestones/05_2017_transformer/milestone.json")
expect "$out" "heldout_margin >= $zh_gate" "milestone run 05 --lang zh judges by Chinese's gates"
run_tito 2 milestone run 05 --part 2 --reference --lang fr
expect "$out" "part 2 is not written in 'fr': it runs in en, es, zh" "milestone run 05 --lang fr"
run_tito 2 milestone run 01 --reference --lang es
expect "$out" "runs in English only" "milestone run 01 --lang es"

echo "== part 3 (optional), 30 steps: sources found from a workspace, every completion compiled, figures read"
run_tito 2 milestone run 05 --reference -- --steps 30
expect "$out" "go to one part's program: say which part" "milestone run 05 --reference -- --steps 30 (no --part)"
# A part whose program takes no arguments refuses them before building, instead of training its full length.
run_tito 2 milestone run 05 --part 1 --reference -- --steps 40
expect "$out" "milestone 05 part 1 takes no arguments after --, so '--steps 40' would be ignored" "--part 1 -- --steps 40"
run_tito 2 milestone run 05 --part 2 --reference -- --steps 40
expect "$out" "has no option '--steps': it takes --seed N" "--part 2 -- --steps 40"
run_tito 2 milestone run 05 --part 3 --reference -- --stepz 40
expect "$out" "has no option '--stepz': it takes --steps N, --minutes M, --completions N, --source-dir DIR" "--part 3 -- --stepz 40"
run_tito 1 milestone run transformer --part 3 --reference -- --steps 30 --minutes 10 --completions 2
expect "$out" "Corpus: " "milestone run 05 --part 3"
expect "$out" "Completing 2 of the held-out files' " "milestone run 05 --part 3"
expect "$out" "measured: part 3 training_steps = 30" "milestone run 05 --part 3"
expect "$out" "measured: part 3 bigram_loss = " "milestone run 05 --part 3"
expect "$out" "measured: part 3 completions_accepted = " "milestone run 05 --part 3"
expect "$out" "measured: part 3 real_bodies_accepted = 2" "milestone run 05 --part 3"
expect "$out" "measured: part 3 compiler_verdicts = 1" "milestone run 05 --part 3"
expect "$out" "Part 3 failed: heldout_margin = -" "milestone run 05 --part 3 after 30 steps"
ls milestones/05_transformer/source_completions/01_completion.cpp milestones/05_transformer/source_completions/02_real.cpp \
  >/dev/null || fail "part 3 wrote no translation units"
grep -q "<polyline" milestones/05_transformer/source_gpt_loss.svg || fail "part 3 drew no loss curve"

echo "milestone_05_transformer: all checks passed"
