#!/usr/bin/env bash
# Milestone 06 (MLPerf, 2018) end to end through the real `tito`, on the reference code:
# - part 1 (the Optimization Olympics on TinyDigits) measures every gate (accuracy, int8 size, speed
#   and significance, sparsity, the 512x512 kernels, the report files, the probes of modules 14-17
#   and 19 against their definitions), meets them, and writes an
#   MLPerf-Tiny-shaped JSON report and a Pareto plot into the milestone's output folder;
# - the same program pruning 30% instead of 50% (a copy in a scratch TITO_HOME) is measured and
#   failed by tito on the sparsity gate alone;
# - part 2 (generation) measures cached against recomputed logits and the KV cache's speed-up.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/milestone_story.bash"

echo "== milestone info lists both parts and their gates"
run_tito 0 milestone info mlperf
expect "$out" "int8_size_ratio >= 3.5" "milestone info 06"
expect "$out" "kv_cache_speedup >= 5" "milestone info 06"

echo "== part 1 on the reference: every gate measured and met, the report and the plot written"
run_tito 0 milestone run mlperf --part 1 --reference
for metric in baseline_accuracy int8_accuracy_drop int8_size_ratio int8_latency_speedup int8_welch_p_value \
  sparsity_deviation matmul_max_difference matmul_speedup matmul_speedup_vs_module01 report_files \
  quantized_linear_error pruning_rank_overlap linear_forward_error linear_backward_error peak_roof_error latency_statistics_error \
  latency_welch_error pareto_frontier_errors init_bound_error log_softmax_error cross_entropy_error adam_step_error \
  sampler_reshuffles; do
  expect "$out" "measured: part 1 $metric = " "milestone run 06 --part 1"
done
expect "$out" "Part 1 passed" "milestone run 06 --part 1"
# The same roofs as lessons 14 and 17 (module 14's measure_peak_roofs), and the kernels' share of the widest.
expect "$out" "This machine's compute roofs" "milestone run 06 --part 1"
expect "$out" "your module 17 kernels reach " "milestone run 06 --part 1"
report=milestones/06_mlperf/mlperf_report.json
python3 - "$report" <<'PY' || fail "the report is not the expected JSON" "$(cat "$report")"
import json, sys
report = json.load(open(sys.argv[1]))
assert report["format"] == "tinytorch-benchmark-report" and report["version"] == 1, report
assert report["system"]["cpu"] and report["system"]["cpu_count"] >= 1, report["system"]
for version in ("fp32", "int8", "pruned50", "pruned50+int8"):
    metrics = report["benchmarks"]["image_classification_tinydigits/" + version]
    for key in ("accuracy", "memory_bytes", "latency_ms", "throughput_per_s", "samples", "notes"):
        assert key in metrics, (version, key)
    latency = metrics["latency_ms"]
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p99"], metrics
    assert "95% CI of the mean latency" in metrics["notes"], metrics
fp32 = report["benchmarks"]["image_classification_tinydigits/fp32"]
int8 = report["benchmarks"]["image_classification_tinydigits/int8"]
assert fp32["memory_bytes"] / int8["memory_bytes"] >= 3.5, (fp32, int8)
assert "textbook i-j-k loop" in report["benchmarks"]["matmul_512"]["notes"] and "module 01 loops" in report["benchmarks"]["matmul_512"]["notes"], report["benchmarks"]["matmul_512"]
assert "-thread roof" in report["benchmarks"]["matmul_512"]["notes"], report["benchmarks"]["matmul_512"]
PY
grep -qF "Pareto frontier" milestones/06_mlperf/pareto.svg || fail "the Pareto plot is missing" "$(head -c 400 milestones/06_mlperf/pareto.svg)"

echo "== pruning 30% instead of 50%: measured, and failed on the sparsity gate"
home="$scratch/home"
mkdir -p "$home/milestones"
ln -s "$TINYTORCH_SOURCE_DIR/curriculum" "$home/curriculum"
ln -s "$TINYTORCH_SOURCE_DIR/framework" "$home/framework"
ln -s "$TINYTORCH_SOURCE_DIR/milestones/common" "$home/milestones/common"
cp -r "$TINYTORCH_SOURCE_DIR/milestones/06_2018_mlperf" "$home/milestones/"
program="$home/milestones/06_2018_mlperf/optimization_olympics.cpp"
sed -i 's|constexpr double kPruneAmount = 0.5;|constexpr double kPruneAmount = 0.3;|' "$program"
grep -qF "kPruneAmount = 0.3;" "$program" || fail "could not change the pruning amount in $program"
TITO_HOME="$home" run_tito 1 milestone run 06 --part 1 --reference
expect "$out" "measured: part 1 global_sparsity = 0.3" "pruning 30%"
expect "$out" "Part 1 failed: " "pruning 30%"
expect "$out" "sparsity_deviation" "pruning 30%"

echo "== part 2 on the reference: cached logits equal recomputed ones, the cache is faster"
run_tito 0 milestone run 06 --part 2 --reference
expect "$out" "measured: part 2 max_logit_difference = " "milestone run 06 --part 2"
expect "$out" "measured: part 2 kv_cache_speedup = " "milestone run 06 --part 2"
expect "$out" "measured: part 2 kv_cache_bytes_error = " "milestone run 06 --part 2"
expect "$out" "measured: part 2 latency_statistics_error = " "milestone run 06 --part 2"
expect "$out" "measured: part 2 gpt_forward_error = " "milestone run 06 --part 2"
expect "$out" "measured: part 2 greedy_tokens_agreeing = 1" "milestone run 06 --part 2"
expect "$out" "measured: part 2 init_bound_error = " "milestone run 06 --part 2"
expect "$out" "Part 2 passed" "milestone run 06 --part 2"

echo "milestone_06_mlperf: all checks passed"
