#!/usr/bin/env python3
"""Runs the benchmark programs built by scripts/bench and compares tinytorch with its baselines.

Called by scripts/bench (which builds build-bench/ first); see bench/README.md. For every case and
thread count it runs bench_tinytorch, then each baseline, one process per measurement, back to back,
so that a baseline is measured under the same machine load as the framework. OpenBLAS (and
LibTorch, which calls OpenBLAS for its matmuls on Debian) run twice: with the OPENBLAS_* variables of
the environment, and with them removed so that OpenBLAS picks its kernel for this CPU.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OPENBLAS_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")

# Targets from the benchmarking issue, as limits on (tinytorch time / baseline time).
# matmul: at least 0.8x OpenBLAS's GFLOP/s = at most 1.25x its time.
TARGETS = {
    ("matmul_1024", 1, "openblas"): 1.25,
    ("mlp_64_32_10", None, "libtorch"): 0.5,
    ("mlp_784_128_10", None, "libtorch"): 1.0,
    ("conv_1_8_8x8", None, "libtorch"): 1.0,
    ("conv_3_32_32x32", None, "libtorch"): 1.0,
    ("lenet5_step", None, "libtorch"): 1.0,
    ("gpt_step", None, "libtorch"): 1.0,
    ("add_1_grad", None, "libtorch"): 1.0,
    ("add_1_backward", None, "libtorch"): 1.0,
}
KV_CACHE_SPEEDUP_TARGET = 5.0  # kv_cache_generate_256: cached generation vs recomputing, same run
MILESTONE_TARGET_SECONDS = 10.0  # milestones 01-03 together
MILESTONE_04_PART1_TARGET_SECONDS = 5.0  # the TinyDigits CNN, on the reference
MILESTONE_05_TARGET_SECONDS = 60.0  # milestone 05 parts 1 and 2 together, on the reference
# A quiet machine: a 1-minute load average at most this much per core. Above it the device goals are
# "not judged" (the table's header says so for the rest); scripts/device-check uses the same rule.
QUIET_LOAD_PER_CORE = 0.5

# The device cases (module 22, OpenCL) against what the device itself gives: bench_opencl's case, the
# rate compared (ours / the device's own, higher is better) and the goal, at least this fraction.
# device_lenet5_step compares with the CPU's lenet5_step instead (bench_tinytorch, same thread count).
DEVICE_BASELINES = {
    # The device's copy bandwidth is a copy kernel's: pocl's clEnqueueCopyBuffer (copy_buffer_64MiB) is a memcpy
    # on one core and reaches about half of it.
    "device_add_16M": ("copy_kernel_float4_64MiB", "gb_per_s", 0.70),
    "device_mm_256": ("sgemm_256", "gflops", None),
    "device_mm_512": ("sgemm_512", "gflops", None),
    "device_mm_1024": ("sgemm_1024", "gflops", 0.80),
    # The tiled kernel of section 7 is a step on the way, reported without a goal: the GEMM goals are the
    # register-tiled kernel's (section 8, what torch::mm runs), the reference's 0.80 above and a learner's 0.50.
    "device_gemm_tiled_1024": ("sgemm_1024", "gflops", None),
    "device_launch_add_1": ("launch_empty_kernel", None, None),
}


def target_for(case, threads, baseline_kind):
    for key in ((case, threads, baseline_kind), (case, None, baseline_kind)):
        if key in TARGETS:
            return TARGETS[key]
    return None


def run_program(binary, case, threads, quick, env):
    command = [str(binary), "--case", case, "--threads", str(threads)] + (["--quick"] if quick else [])
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        return [{"case": case, "threads": threads, "unavailable": f"exit {done.returncode}: {done.stderr.strip()[-300:]}"}]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def list_cases(binary):
    out = subprocess.run([str(binary), "--list"], capture_output=True, text=True, check=True).stdout
    return [(line.split(None, 1)[0], line.split(None, 1)[1].strip()) for line in out.splitlines() if line.strip()]


def load_average():
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def quiet_load_limit():
    return QUIET_LOAD_PER_CORE * (os.cpu_count() or 1)


def machine_info(env):
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).parent).stdout.strip()
    except OSError:
        commit = ""
    return {
        "commit": commit,
        "cpu": cpu,
        "cores": os.cpu_count(),
        "machine": platform.machine(),
        "load_average_1min_at_start": load_average(),
        "environment": {name: env.get(name) for name in OPENBLAS_VARS},
    }


def timed_command(command, env, cwd):
    start = time.monotonic()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    return time.monotonic() - start, done


FIRST_MILESTONE_TARGET_SECONDS = 4.0  # a milestone's first run once its modules are built


def first_build_cases(tito, env, scratch, log):
    """Case 8: what a learner waits for the first time. Modules 01-02 are completed (their objects
    built); then the first `tito module test 03` (compiles module 03's tests and files, reuses 01-02's
    objects) and, after `module complete 03`, the first `tito milestone run 01` (compiles the
    milestone's program, links, trains the perceptron)."""
    subprocess.run([str(tito), "init", "first"], cwd=scratch, env=env, check=True, capture_output=True)
    workspace = scratch / "first"

    def tito_ok(*args):
        done = subprocess.run([str(tito), *args], cwd=workspace, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"tito {' '.join(args)} failed: {(done.stdout + done.stderr).strip()[-300:]}")

    try:
        for number in ("01", "02"):
            tito_ok("module", "start", number, "--reference")
            tito_ok("module", "complete", number)
        tito_ok("module", "start", "03", "--reference")
        log("first build: tito module test 03 (modules 01-02 already built)")
        module_seconds, done = timed_command([str(tito), "module", "test", "03"], env, workspace)
        if done.returncode != 0:
            raise RuntimeError(f"tito module test 03 failed: {(done.stdout + done.stderr).strip()[-300:]}")
        tito_ok("module", "complete", "03")
        log("first build: tito milestone run 01 (its modules built)")
        milestone_seconds, done = timed_command([str(tito), "milestone", "run", "01"], env, workspace)
        if done.returncode != 0:
            raise RuntimeError(f"tito milestone run 01 failed: {(done.stdout + done.stderr).strip()[-300:]}")
    except RuntimeError as error:
        return [{"case": "first_module_test_03", "impl": "tito", "unavailable": str(error)}]
    return [{"case": "first_module_test_03", "impl": "tito", "median_s": module_seconds, "min_s": module_seconds,
             "samples": 1},
            {"case": "first_milestone_run_01", "impl": "tito", "median_s": milestone_seconds,
             "min_s": milestone_seconds, "samples": 1, "target_s": FIRST_MILESTONE_TARGET_SECONDS}]


def tito_cases(tito, source_dir, build_dir, quick, log, wanted=None):
    """Case 6 (the learner loop) and case 7 (milestones on the reference), through the real tito."""
    results = []
    env = dict(os.environ, TITO_HOME=str(source_dir), TITO_BUILD_DIR=str(build_dir), CI="1", NO_COLOR="1")
    scratch = Path(tempfile.mkdtemp(prefix="tinytorch-bench-"))
    try:
        subprocess.run([str(tito), "init", "ws"], cwd=scratch, env=env, check=True, capture_output=True)
        workspace = scratch / "ws"
        if not wanted or "learner_loop_01" in wanted:
            # The learner loop on a correct module: the reference solution, so the timed run is a full pass.
            subprocess.run([str(tito), "module", "start", "01", "--reference"], cwd=workspace, env=env, check=True,
                           capture_output=True)
            learner_file = next(iter(sorted(workspace.rglob("matmul.cpp"))), None)
            log("learner loop: tito module test 01 after touching one learner file")
            first_build_seconds, done = timed_command([str(tito), "module", "test", "01"], env, workspace)
            if done.returncode != 0 or learner_file is None:
                results.append({"case": "learner_loop_01", "impl": "tito", "unavailable":
                                f"tito module test 01 failed: {(done.stdout + done.stderr).strip()[-300:]}"})
            else:
                samples = []
                for _ in range(2 if quick else 5):
                    learner_file.touch()
                    seconds, done = timed_command([str(tito), "module", "test", "01"], env, workspace)
                    samples.append(seconds)
                results.append({"case": "learner_loop_01", "impl": "tito", "median_s": statistics.median(samples),
                                "min_s": min(samples), "samples": len(samples), "first_build_s": first_build_seconds})

        if not wanted or any(w.startswith("first_") for w in wanted):
            results += first_build_cases(tito, env, scratch, log)

        for milestone_dir in sorted((source_dir / "milestones").glob("[0-9][0-9]_*")):
            number = milestone_dir.name[:2]
            if wanted and not any(w.startswith(f"milestone_{number}") for w in wanted):
                continue
            if not any(milestone_dir.glob("*.cpp")):
                results.append({"case": f"milestone_{number}", "impl": "tito",
                                "unavailable": "not available yet (no program in " + milestone_dir.name + ")"})
                continue
            # The whole milestone once (its first run builds the programs), then each part on its own:
            # the target counts the required parts (the optional ones need a dataset package).
            log(f"milestone {number}: tito milestone run {number} --reference")
            command = [str(tito), "milestone", "run", number, "--reference"]
            build_seconds, done = timed_command(command, env, workspace)
            if done.returncode != 0:
                results.append({"case": f"milestone_{number}", "impl": "tito",
                                "unavailable": f"failed: {(done.stdout + done.stderr).strip()[-300:]}"})
                continue
            whole_seconds, _ = timed_command(command, env, workspace)
            results.append({"case": f"milestone_{number}", "impl": "tito", "median_s": whole_seconds,
                            "min_s": whole_seconds, "samples": 1, "first_run_with_build_s": build_seconds})
            parts = json.loads((milestone_dir / "milestone.json").read_text()).get("parts", [])
            for part in parts:
                part_command = command + ["--part", str(part["number"])]
                runs = [timed_command(part_command, env, workspace) for _ in range(1 if quick else 3)]
                failed = next((done for _, done in runs if done.returncode != 0), None)
                if failed is not None:  # a failed gate is not a timing
                    results.append({"case": f"milestone_{number}_part{part['number']}", "impl": "tito",
                                    "unavailable": f"failed: {(failed.stdout + failed.stderr).strip()[-300:]}"})
                    continue
                samples = [seconds for seconds, _ in runs]
                results.append({"case": f"milestone_{number}_part{part['number']}", "impl": "tito",
                                "median_s": statistics.median(samples), "min_s": min(samples),
                                "samples": len(samples), "required": bool(part.get("required", True)),
                                "title": part.get("title", "")})
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return results


def device_baseline_rows(opencl, quick, log):
    """bench_opencl's figures for the device the device cases run on, by case (run once, with --json), or
    the reason there are none."""
    if not opencl.exists():
        return f"{opencl} is not built (needs libclblast-dev: apt-get install libclblast-dev, then rerun scripts/bench)"
    log("bench_opencl --json (the device's own figures for the device cases)")
    done = subprocess.run([str(opencl), "--json"] + (["--quick"] if quick else []), capture_output=True, text=True)
    try:
        document = json.loads(done.stdout)
    except json.JSONDecodeError:
        return f"bench_opencl exit {done.returncode}: {done.stderr.strip()[-300:]}"
    if "unavailable" in document:
        return f"bench_opencl: {document['unavailable']}"
    return {row["case"]: row for row in document.get("results", []) if "case" in row}


def format_time(us):
    if us is None:
        return "-"
    if us >= 1e6:
        return f"{us / 1e6:.2f} s"
    if us >= 1e3:
        return f"{us / 1e3:.2f} ms"
    return f"{us:.2f} us"


def device_verdict(row, base, quick, load):
    """A device case against the device's own figure: the ratio of rates (higher is better) and its goal,
    judged only on a quiet machine and never with --quick."""
    _, rate, at_least = DEVICE_BASELINES[row["case"]]
    if rate is None or not row.get(rate) or not base.get(rate):
        return {}
    ratio = row[rate] / base[rate]
    verdict = None
    if at_least is not None:
        if quick:
            verdict = "not judged: --quick"
        elif load is not None and load > quiet_load_limit():
            verdict = f"not judged: load {load:.2f}"
        else:
            verdict = "met" if ratio >= at_least else "missed"
    return {"rate": rate, "rate_ratio": ratio, "target_rate_ratio": at_least, "verdict": verdict,
            "meets_target": None if verdict not in ("met", "missed") else verdict == "met"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", required=True, type=Path)
    parser.add_argument("--source-dir", required=True, type=Path)
    parser.add_argument("--json", action="store_true", help="print the results as one JSON document on stdout "
                        "(the table goes to stderr)")
    parser.add_argument("--case", action="append", default=[], help="run only this case (repeatable)")
    parser.add_argument("--threads", default="1,2", help="thread counts to run (default 1,2)")
    parser.add_argument("--quick", action="store_true", help="few samples: checks that everything runs")
    parser.add_argument("--no-tito", action="store_true", help="skip the learner-loop and milestone cases")
    args = parser.parse_args()

    table_out = sys.stderr if args.json else sys.stdout

    def log(message):
        print(f"... {message}", file=sys.stderr, flush=True)

    bench_dir = args.build_dir / "bench"
    framework = bench_dir / "bench_tinytorch"
    libtorch = bench_dir / "bench_libtorch"
    openblas = bench_dir / "bench_openblas"
    if not framework.exists():
        sys.exit(f"error: {framework} is missing\nfix: run scripts/bench (it builds it)")
    notes = []
    if not libtorch.exists():
        notes.append("LibTorch baseline not built: apt-get install libtorch-dev, then rerun scripts/bench")
    if not openblas.exists():
        notes.append("OpenBLAS baseline not built: apt-get install libopenblas-dev, then rerun scripts/bench")

    environment = dict(os.environ)
    native = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    env_label = ",".join(f"{k}={environment[k]}" for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in environment)
    # Baselines: (label, kind, binary, environment). Without OPENBLAS_* in the environment the two
    # runs would be the same, so there is only one.
    baselines = []
    for kind, binary in (("openblas", openblas), ("libtorch", libtorch)):
        if not binary.exists():
            continue
        if env_label:
            baselines.append((f"{kind} [env {env_label}]", kind, binary, environment))
            baselines.append((f"{kind} [native: OPENBLAS_CORETYPE/L2_SIZE unset]", kind, binary, native))
        else:
            baselines.append((kind, kind, binary, environment))

    cases = list_cases(framework)
    if args.case:
        known = {name for name, _ in cases} | {"learner_loop_01", "first_module_test_03", "first_milestone_run_01"}
        known |= {f"milestone_{n:02d}" for n in range(1, 7)}
        known |= {f"milestone_{n:02d}_part{p}" for n in range(1, 7) for p in range(1, 10)}
        unknown = [c for c in args.case if c not in known]
        if unknown:
            sys.exit(f"error: unknown case(s) {', '.join(unknown)}\nfix: {framework} --list shows the cases")
        cases = [(name, what) for name, what in cases if name in args.case]
    thread_counts = [int(t) for t in args.threads.split(",") if t]

    info = machine_info(environment)
    results = []
    device_rows = None  # bench_opencl's figures, measured once, before the first device case
    for name, what in cases:
        baseline_kinds = {kind for _, kind, binary, _ in baselines if name in {c for c, _ in list_cases(binary)}}
        for threads in thread_counts:
            if name.startswith("matmul_naive") and threads != 1:
                continue  # the triple loop is single-threaded
            if name.startswith("device_") and threads != max(thread_counts):
                continue  # the device's threads are its driver's: once, with the CPU baseline's most threads
            log(f"{name} threads={threads}")
            rows = run_program(framework, name, threads, args.quick, environment)
            if name == "device_lenet5_step":
                for row in run_program(framework, "lenet5_step", threads, args.quick, environment):
                    row.update(case=name, impl="tinytorch (CPU)", baseline="tinytorch on the CPU (lenet5_step)")
                    rows.append(row)
            elif name in DEVICE_BASELINES:
                if device_rows is None:
                    device_rows = device_baseline_rows(bench_dir / "bench_opencl", args.quick, log)
                base_case = DEVICE_BASELINES[name][0]
                if isinstance(device_rows, str):
                    rows.append({"case": name, "impl": "opencl", "baseline": f"opencl {base_case}",
                                 "unavailable": device_rows})
                elif base_case in device_rows:
                    rows.append(dict(device_rows[base_case], case=name, baseline=f"opencl {base_case} (bench_opencl)",
                                     baseline_case=base_case))
            for label, kind, binary, env in baselines:
                if kind in baseline_kinds:
                    for row in run_program(binary, name, threads, args.quick, env):
                        row["baseline"] = label
                        row.setdefault("impl", kind)
                        rows.append(row)
            for row in rows:
                row.setdefault("threads", threads)
                row["what"] = what
            results.extend(rows)

    tito_results = []
    wants_tito = not args.case or any(c.startswith(("learner_loop", "milestone", "first_")) for c in args.case)
    if wants_tito and not args.no_tito:
        tito = args.build_dir / "bin" / "tito"
        if tito.exists():
            tito_results = tito_cases(tito, args.source_dir, args.build_dir, args.quick, log, args.case)
            if args.case:  # milestone_03 keeps its parts' rows
                tito_results = [r for r in tito_results
                                if r["case"] in args.case or r["case"].split("_part")[0] in args.case]
        else:
            notes.append(f"{tito} is missing: learner-loop and milestone cases skipped")
    info["load_average_1min_at_end"] = load_average()

    # ---- Comparison rows: tinytorch vs each baseline, same case and thread count ----
    comparisons = []
    for row in results:
        if row.get("impl") != "tinytorch" or "median_us" not in row:
            continue
        for base in results:
            if base.get("case") != row["case"] or base.get("threads") != row["threads"] or "baseline" not in base:
                continue
            if "median_us" not in base:
                continue
            ratio = row["median_us"] / base["median_us"]
            target = target_for(row["case"], row["threads"], base["impl"])
            comparison = {"case": row["case"], "threads": row["threads"], "baseline": base["baseline"],
                          "tinytorch_us": row["median_us"], "baseline_us": base["median_us"],
                          "time_ratio": ratio, "target_time_ratio": target,
                          "meets_target": None if target is None else ratio <= target}
            if row["case"] in DEVICE_BASELINES:
                comparison.update(device_verdict(row, base, args.quick, info["load_average_1min_at_start"]))
            comparisons.append(comparison)

    # Case 7's target: the required parts of milestones 01-03 (the TinyDigits and synthetic-data
    # ones), each run on its own after its build; optional parts need a dataset package.
    milestone_total = sum(r["median_s"] for r in tito_results
                          if r["case"].startswith(("milestone_01_part", "milestone_02_part", "milestone_03_part"))
                          and r.get("required") and "median_s" in r)

    # ---- The table ----
    def emit(line=""):
        print(line, file=table_out)

    emit(f"Machine: {info['cpu']} ({info['cores']} cores), load average {info['load_average_1min_at_start']:.2f} at "
         f"start, {info['load_average_1min_at_end']:.2f} at end (above ~0.5 per core the numbers are noisy)")
    emit("Environment: " + ", ".join(f"{k}={v if v is not None else '(unset)'}" for k, v in info["environment"].items()))
    emit("Ratio = tinytorch median time / baseline median time, same case, same thread count, same run "
         "(below 1: tinytorch is faster).")
    emit()
    header = f"{'case':<18} {'thr':>3}  {'tinytorch':>10} {'GFLOP/s':>8}  {'baseline':<62} {'median':>10} {'GFLOP/s':>8} {'ratio':>6}  target"
    emit(header)
    emit("-" * len(header))
    for row in results:
        if row.get("impl") != "tinytorch":
            continue
        name, threads = row["case"], row["threads"]
        bases = [b for b in results if b.get("case") == name and b.get("threads") == threads and "baseline" in b]
        if "unavailable" in row:
            emit(f"{name:<18} {threads:>3}  tinytorch: {row['unavailable']}")
            for base in bases:
                if "median_us" in base:
                    emit(f"{'':<43}  {base['baseline']:<62} {format_time(base['median_us']):>10}")
            continue
        shows_gflops = name.startswith(("matmul", "device_mm", "device_gemm"))
        gflops = f"{row['gflops']:.1f}" if "gflops" in row and shows_gflops else ""
        if not bases:
            emit(f"{name:<18} {threads:>3}  {format_time(row['median_us']):>10} {gflops:>8}  {'(no baseline)':<62}")
        for i, base in enumerate(bases):
            left = f"{name:<18} {threads:>3}  {format_time(row['median_us']):>10} {gflops:>8}" if i == 0 else " " * 43
            if "median_us" not in base:
                emit(f"{left}  {base['baseline']:<62} {base.get('unavailable', '')}")
                continue
            base_gflops = f"{base['gflops']:.1f}" if "gflops" in base and shows_gflops else ""
            ratio = row["median_us"] / base["median_us"]
            target = target_for(name, threads, base["impl"])
            verdict = "" if target is None else f"<= {target:g} {'ok' if ratio <= target else 'MISSED'}"
            emit(f"{left}  {base['baseline']:<62} {format_time(base['median_us']):>10} {base_gflops:>8} "
                 f"{ratio:>6.2f}  {verdict}")
        for comparison in comparisons:
            if comparison["case"] == name and comparison["threads"] == threads and "rate_ratio" in comparison:
                goal = comparison["target_rate_ratio"]
                emit(f"{'':<23}{comparison['rate']} against the device's own: {comparison['rate_ratio']:.2f}"
                     + (f" (goal >= {goal:g}: {comparison['verdict']})" if goal is not None else ""))
        if "device_alloc_hit_rate" in row:
            hit_rate = row["device_alloc_hit_rate"]
            emit(f"{'':<23}device allocator: "
                 + ("no allocations" if hit_rate is None else f"hit rate {hit_rate:.3f}") + ", peak "
                 f"{row['device_alloc_peak_bytes'] / 1024:.0f} KiB, reserved {row['device_alloc_reserved_bytes'] / 1024:.0f} KiB"
                 f"; device {row.get('device')}" + (f", {row['gb_per_s']:.2f} GB/s" if "gb_per_s" in row else ""))
        if "speedup_vs_recompute" in row:
            speedup = row["speedup_vs_recompute"]
            emit(f"{'':<23}speed-up over recomputing the context: {speedup:.1f}x "
                 f"(target >= {KV_CACHE_SPEEDUP_TARGET:g}: {'ok' if speedup >= KV_CACHE_SPEEDUP_TARGET else 'MISSED'}), "
                 f"same tokens: {row.get('same_tokens')}")
        if row.get("alloc_caching") is not None and not name.startswith("matmul_naive"):
            emit(f"{'':<23}allocator: hit rate {row['alloc_hit_rate']:.3f}, peak {row['alloc_peak_bytes'] / 1024:.0f} KiB"
                 + (f", kernel {row['kernel']}" if "kernel" in row else ""))
    if tito_results:
        emit()
        emit(f"{'tito case':<22} {'median':>10} {'min':>10}  samples")
        for r in tito_results:
            if "unavailable" in r:
                emit(f"{r['case']:<22} {r['unavailable']}")
                continue
            extra = ""
            if "first_build_s" in r:
                extra = f"  (first build {r['first_build_s']:.2f} s)"
            elif "first_run_with_build_s" in r:
                extra = f"  (whole milestone; first run, which builds it: {r['first_run_with_build_s']:.2f} s)"
            elif "required" in r:
                extra = "  " + ("" if r["required"] else "(optional) ") + r.get("title", "")[:60]
            elif "target_s" in r:
                extra = f"  (target < {r['target_s']:g} s: {'ok' if r['median_s'] < r['target_s'] else 'MISSED'})"
            emit(f"{r['case']:<22} {r['median_s']:>9.2f}s {r['min_s']:>9.2f}s  {r['samples']}{extra}")
        verdict = "ok" if milestone_total < MILESTONE_TARGET_SECONDS else "MISSED"
        emit(f"milestones 01-03, required parts together: {milestone_total:.2f} s (target < "
             f"{MILESTONE_TARGET_SECONDS:g} s: {verdict}; a milestone not available yet counts 0)")
        part1 = next((r for r in tito_results if r["case"] == "milestone_04_part1" and "median_s" in r), None)
        if part1 is not None:
            verdict = "ok" if part1["median_s"] < MILESTONE_04_PART1_TARGET_SECONDS else "MISSED"
            emit(f"milestone 04 part 1 (TinyDigits CNN): {part1['median_s']:.2f} s (target < "
                 f"{MILESTONE_04_PART1_TARGET_SECONDS:g} s: {verdict})")
        parts_05 = [r for r in tito_results if r["case"] in ("milestone_05_part1", "milestone_05_part2") and "median_s" in r]
        if len(parts_05) == 2:
            seconds = sum(r["median_s"] for r in parts_05)
            verdict = "ok" if seconds < MILESTONE_05_TARGET_SECONDS else "MISSED"
            emit(f"milestone 05 parts 1 + 2 (attention routing, TinyGPT): {seconds:.2f} s (target < "
                 f"{MILESTONE_05_TARGET_SECONDS:g} s: {verdict})")
    for note in notes:
        emit(f"note: {note}")

    if args.json:
        json.dump({"machine": info, "results": results, "comparisons": comparisons, "tito": tito_results,
                   "milestones_01_03_seconds": milestone_total, "notes": notes,
                   "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
                  sys.stdout, indent=1)
        print()


if __name__ == "__main__":
    main()
