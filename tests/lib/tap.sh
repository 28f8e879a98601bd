# TAP helpers shared by the bash tests that meson runs with protocol: 'tap'
# (tests/e2e/*.sh, tests/jobs_e2e/edge_gateway.sh, tests/lint/lint_cases.sh).
#
# Sourced, not run: each script does `source "$root/tests/lib/tap.sh"` with root the
# source root meson passes it, so that every test prints its points, SKIPs, TODOs and
# diagnostics the same way.
#
# State shared with the script:
#   n       the number of test points printed so far
#   failed  the number of points that failed and are not TODO; a script ends with
#           `[[ $failed == 0 ]]`, so its exit status says whether every point passed
#   checks  (set by the script) the descriptions of its points, in order, for the
#           scripts that know them up front: point N is described by ${checks[N-1]}
# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # checks is set, python and failed are read, by the script

n=0
failed=0
# This folder (tests/lib), for tap_python.
tap_lib="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# tap_diag BLOCK...: every line of every argument as a TAP diagnostic ("#   line"), so
# that multi-line evidence (a diff, a command's stderr) stays under the failing point.
tap_diag() {
  local block line
  for block in "$@"; do
    while IFS= read -r line; do echo "#   $line"; done <<<"$block"
  done
}

# tap_result STATUS DESCRIPTION TODO-REASON [DIAGNOSTIC...]: the one place that numbers
# and prints a test point; it passes when STATUS is 0. A non-empty TODO-REASON marks a
# known defect: the point carries "# TODO reason" and its failure is not counted in
# $failed, so the test passes until the defect is fixed (TAP's TODO semantics).
tap_result() {
  local status="$1" desc="$2" todo="${3:-}"
  shift 3
  n=$((n + 1))
  local directive=""
  [[ -n "$todo" ]] && directive=" # TODO $todo"
  if [[ "$status" == 0 ]]; then
    echo "ok $n - $desc$directive"
  else
    echo "not ok $n - $desc$directive"
    tap_diag "$@"
    [[ -z "$todo" ]] && failed=$((failed + 1))
  fi
}

# tap_skip DESCRIPTION REASON: a point that could not run here (a missing Helm, no
# pre-commit): reported as passing with "# SKIP reason", so meson shows it as skipped
# rather than the plan coming up short.
tap_skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

# check STATUS [DIAGNOSTIC...]: the next point of ${checks[@]}, passed when STATUS is 0
# (called as `check $? ...` right after the condition); the diagnostics show on failure.
check() {
  local status="$1"
  shift
  tap_result "$status" "${checks[n]}" "" "$@"
}

# not_ok [DIAGNOSTIC...]: the next point of ${checks[@]} failed, for a check that cannot
# run at all (its prerequisite is broken).
not_ok() { tap_result 1 "${checks[n]}" "" "$@"; }

# skip REASON: the next point of ${checks[@]} is skipped.
skip() { tap_skip "${checks[n]}" "$1"; }

# skip_rest REASON: every point of ${checks[@]} not printed yet is skipped; for a test
# whose tool is missing altogether (the script exits 0 after it).
skip_rest() {
  while ((n < ${#checks[@]})); do skip "$1"; done
}

# tap_python: sets $python to a python3 (python3 on PATH, else Debian's /usr/bin/python3)
# and exports TESTS_LIB, this folder, for the Python snippets: they read YAML only through
# k8s_json.py (`sys.path.insert(0, os.environ["TESTS_LIB"])`), which asks Kubernetes' own
# decoder, $K8SREAD (tests/oracle/k8sread in the build directory, given by meson), so
# the output is read as kubectl and Helm read it, independently of yaml-cpp. Bails out
# without a python3 or without an executable $K8SREAD.
tap_python() {
  local candidate
  python=""
  for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1; then
      python="$candidate"
      break
    fi
  done
  if [[ -z "$python" ]]; then
    echo "Bail out! no python3 (run scripts/install-deps.sh)"
    exit 1
  fi
  if [[ -z "${K8SREAD:-}" || ! -x "$K8SREAD" ]]; then
    echo "Bail out! K8SREAD='${K8SREAD:-}' is not an executable: it must name tests/oracle/k8sread in the build directory (meson test sets it; building it needs Go 1.19, scripts/install-deps.sh)"
    exit 1
  fi
  TESTS_LIB="$tap_lib"
  export TESTS_LIB K8SREAD
}
