#!/usr/bin/env bash
# Runs the program given (a module's reference tests that need an OpenCL device) when an OpenCL device exists;
# otherwise says why and exits 77, which ctest reports as skipped rather than passed (label needs_opencl).
# clinfo lists what the ICD loader finds (scripts/setup installs it, with pocl-opencl-icd: a device on the CPU).
if ! command -v clinfo >/dev/null 2>&1 || ! clinfo -l 2>/dev/null | grep -q 'Device #'; then
  echo "skipped: no OpenCL device (install pocl-opencl-icd and clinfo: scripts/setup does; check with clinfo -l)"
  exit 77
fi
exec "$@"
