#!/usr/bin/env python3
"""Runs one corpus program built against tinytorch and, when given, against LibTorch, and diffs the outputs.

  run_compat.py --program NAME --source FILE --tinytorch BIN [--libtorch BIN]

Without --libtorch (libtorch-dev not installed) it only checks that the tinytorch build runs, unless
--require-libtorch is given: then it exits 77, which ctest reports as SKIPPED (never as passed).
Lines are compared token by token: numbers may differ by the program's tolerance, declared in its
source as `// compat-tolerance: 1e-5` (relative to max(1, |libtorch value|); default 0, exact);
every other token must be identical.
"""
import argparse
import re
import subprocess
import sys

SKIPPED = 77
NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|\s+|.")


def run(binary, program):
    done = subprocess.run([binary, program], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    text = done.stdout.decode("utf-8", "replace")
    if done.returncode != 0:
        sys.stdout.write(text)
        sys.stderr.write(done.stderr.decode("utf-8", "replace"))
        sys.exit(f"error: {binary} {program} exited with status {done.returncode}")
    return text


def tolerance_of(source):
    with open(source, encoding="utf-8") as f:
        found = re.search(r"//\s*compat-tolerance:\s*(\S+)", f.read())
    return float(found.group(1)) if found else 0.0


def tokens(line):
    # Runs of spaces count as one separator: LibTorch pads columns to the widest number, so a
    # value printed with one digit fewer may shift a column without being a difference.
    return [t if not t.isspace() else " " for t in TOKEN.findall(line.strip())]


def same_line(expected, actual, tolerance):
    want, got = tokens(expected), tokens(actual)
    if len(want) != len(got):
        return False
    for w, g in zip(want, got):
        if w == g:
            continue
        if tolerance > 0 and NUMBER.match(w) and NUMBER.match(g):
            if abs(float(w) - float(g)) <= tolerance * max(1.0, abs(float(w))):
                continue
        return False
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--program", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--tinytorch", required=True)
    parser.add_argument("--libtorch", default="")
    parser.add_argument("--require-libtorch", action="store_true")
    args = parser.parse_args()

    if not args.libtorch and args.require_libtorch:
        print("SKIPPED: libtorch-dev is not installed (or TINYTORCH_COMPAT_WITH_LIBTORCH=OFF), so there is "
              "nothing to diff against; apt-get install libtorch-dev and reconfigure to run this test")
        sys.exit(SKIPPED)
    ours = run(args.tinytorch, args.program)
    if not ours.strip():
        sys.exit(f"error: {args.program} printed nothing against tinytorch")
    if not args.libtorch:
        print(f"{args.program}: ran against tinytorch ({len(ours.splitlines())} lines)")
        return
    theirs = run(args.libtorch, args.program)
    tolerance = tolerance_of(args.source)
    want, got = theirs.splitlines(), ours.splitlines()
    mismatches = [i for i in range(max(len(want), len(got)))
                  if i >= len(want) or i >= len(got) or not same_line(want[i], got[i], tolerance)]
    if not mismatches:
        print(f"{args.program}: same output as LibTorch ({len(want)} lines, tolerance {tolerance:g})")
        return
    print(f"{args.program}: tinytorch's output differs from LibTorch's at {len(mismatches)} line(s) "
          f"(tolerance {tolerance:g}); first differences:")
    for i in mismatches[:15]:
        print(f"  line {i + 1}\n    libtorch : {want[i] if i < len(want) else '<missing>'}\n"
              f"    tinytorch: {got[i] if i < len(got) else '<missing>'}")
    sys.exit(1)


if __name__ == "__main__":
    main()
