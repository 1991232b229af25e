# Shared set-up of the stories that run milestones and the Olympics through the real `tito` (sourced,
# not run). After `source`: TITO_HOME is the tree under test, the current directory is a fresh learner
# workspace `ws` inside a scratch folder removed on exit, and fail/expect/run_tito are defined.
#   expect OUTPUT TEXT WHAT       fails unless OUTPUT contains TEXT (fixed string)
#   run_tito EXPECTED_STATUS args  runs tito, sets $out, fails on another exit status
: "${TITO:?set TITO to the tito binary}" "${TINYTORCH_SOURCE_DIR:?}"
export CI=1 NO_COLOR=1
export TITO_HOME="$TINYTORCH_SOURCE_DIR"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
fail() { echo "FAIL: $1"; [ -n "${2:-}" ] && echo "$2"; exit 1; }
expect() { grep -qF -- "$2" <<<"$1" || fail "expected \"$2\" in the output of $3" "$1"; }
run_tito() {
  local expected=$1 status=0
  shift
  out=$("$TITO" "$@" 2>&1) || status=$?
  [ "$status" -eq "$expected" ] || fail "tito $* exited $status, expected $expected" "$out"
}

"$TITO" init ws >/dev/null
cd ws
