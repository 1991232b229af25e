#!/usr/bin/env bash
# The compiler the set-up chose, through the real tito binary and scripts/setup: doctor names it (path
# and version), a build that fails in TinyTorch's own code (not the learner's) says so and gives the
# command that switches compilers, and scripts/setup refuses an unknown CXX and prints the Homebrew
# packages on macOS (faked here with a `uname` that says Darwin) without touching anything.
# Needs: TITO, TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR (a configured and built tree).
set -euo pipefail

: "${TITO:?set TITO to the tito binary}"
: "${TINYTORCH_SOURCE_DIR:?set TINYTORCH_SOURCE_DIR}"
: "${TINYTORCH_BUILD_DIR:?set TINYTORCH_BUILD_DIR}"
export CI=1 NO_COLOR=1 TITO_BUILD_DIR="$TINYTORCH_BUILD_DIR"
unset TITO_WORKSPACE CXX

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/tito-compiler-XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
OUT="$SCRATCH/out.txt"

step() { echo "--- $*"; }
fail() { echo "FAILED: $*"; echo "--- last output:"; cat "$OUT" 2>/dev/null || true; exit 1; }
expect() { grep -qE -- "$1" "$OUT" || fail "expected /$1/ in the output of the last command"; }
reject() { if grep -qE -- "$1" "$OUT"; then fail "did not expect /$1/ in the output"; fi; }
run() {  # run EXPECTED_RC cmd...
  local expected=$1; shift
  local rc=0
  "$@" >"$OUT" 2>&1 || rc=$?
  [[ $rc == "$expected" ]] || fail "'$*' exited $rc, expected $expected"
}
regex_quote() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }

# The compiler this build was configured with, as CMake recorded it, and its own version line.
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$TINYTORCH_BUILD_DIR/CMakeCache.txt")
[[ -x $cxx ]] || fail "no usable CMAKE_CXX_COMPILER in $TINYTORCH_BUILD_DIR/CMakeCache.txt ($cxx)"
case $("$cxx" --version) in
  *clang*) name=Clang other=g++ ;;
  *"Free Software Foundation"*) name=GCC other=clang++ ;;
  *) fail "$cxx is neither GCC nor Clang" ;;
esac

step "doctor names the set-up's compiler: $name, its version and its path"
run 0 "$TITO" system doctor
line=$(grep -E '^  \[(ok|x|!)\] C\+\+ compiler' "$OUT") || fail "no compiler line"
[[ $line =~ ^\ \ \[ok\]\ C\+\+\ compiler\ +$name\ ([0-9.]+)\ \((.*)\),\ chosen\ by\ the\ set-up$ ]] ||
  fail "unexpected compiler line: $line"
[[ ${BASH_REMATCH[2]} == "$cxx" ]] || fail "doctor names ${BASH_REMATCH[2]}, the build was configured with $cxx"
grep -qF "${BASH_REMATCH[1]}" <<<"$("$cxx" --version)" || fail "doctor says version ${BASH_REMATCH[1]}; $cxx --version disagrees"

step "a module whose given tests do not compile: not the learner's fault, the compiler and the fix are named"
# A copy of the self-contained fake source tree whose module test this compiler "cannot build".
home="$SCRATCH/home"
cp -r "$TINYTORCH_SOURCE_DIR/tests/tito/data/fake_source" "$home"
# The starter's stubs throw tinytorch::NotImplemented: the learner's file must compile on its own here.
sed -i '1i #include "tinytorch/errors.h"' "$home/framework/src/01_alpha/alpha.cpp"
printf '// given test code that this compiler rejects\nint given_test_helper( { return 0; }\n' \
  >"$home/curriculum/01_alpha/tests/test_alpha.cpp"
export TITO_HOME="$home"
run 0 "$TITO" init "$SCRATCH/ws"
cd "$SCRATCH/ws"
run 0 "$TITO" module start 01
run 1 "$TITO" module test 01
expect "TinyTorch's own code does not compile with $name [0-9.]+ \($(regex_quote "$cxx")\)"
expect "the problem is not in your files"
expect "test_alpha\.cpp:[0-9]+:[0-9]+: error"
expect "fix: set TinyTorch up with a supported compiler \(GCC 12 or newer, or Clang 14 or newer\): CXX=$(regex_quote "$other") $(regex_quote "$home")/scripts/setup"
reject "Your code did not compile"

step "the same module with the learner's mistake instead: the learner's errors, no talk of compilers"
printf '// test\n' >"$home/curriculum/01_alpha/tests/test_alpha.cpp"
printf '\nint learner_typo( { return 0; }\n' >>modules/01_alpha/alpha.cpp
run 1 "$TITO" module test 01
expect "Your code did not compile"
expect "alpha\.cpp:[0-9]+:[0-9]+: error"
reject "TinyTorch's own code"
cd "$SCRATCH"
unset TITO_HOME

step "scripts/setup: a CXX that does not exist is named, with the fix, before anything is built"
run 1 env CXX=no-such-compiler++ TINYTORCH_BUILD_DIR="$SCRATCH/never-built" bash "$TINYTORCH_SOURCE_DIR/scripts/setup" --build-only
expect "^error: the compiler CXX=no-such-compiler\+\+ was not found"
expect "^fix: .*CXX=g\+\+ scripts/setup"
[[ ! -e $SCRATCH/never-built ]] || fail "setup created a build directory for a missing compiler"

step "scripts/setup on macOS prints the Homebrew packages instead of calling apt-get"
# A PATH with a uname that says Darwin and no cmake: setup must stop after printing the packages.
mkdir -p "$SCRATCH/mac-bin"
printf '#!/bin/sh\necho Darwin\n' >"$SCRATCH/mac-bin/uname"
chmod +x "$SCRATCH/mac-bin/uname"
for tool in bash dirname cat; do ln -s "$(command -v "$tool")" "$SCRATCH/mac-bin/$tool"; done
run 1 env PATH="$SCRATCH/mac-bin" TINYTORCH_BUILD_DIR="$SCRATCH/never-built" bash "$TINYTORCH_SOURCE_DIR/scripts/setup"
expect "macOS: install the packages with Homebrew"
expect "brew install cmake ninja cli11 fmt spdlog nlohmann-json"
expect "Catch2 2\.x is not in Homebrew"
expect "^error: cmake is not installed"
expect "^fix: brew install "
reject "apt-get"
[[ ! -e $SCRATCH/never-built ]] || fail "setup created a build directory on the fake macOS"

echo "compiler and set-up checks passed (compiler: $name, $cxx)"
