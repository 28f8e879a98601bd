#!/usr/bin/env bash
# Differential fuzzing of rollcall's reading against Kubernetes' decoder for SECONDS
# (default 60): generated streams are read by build/tests/oracle/rollcall_reading and
# build/tests/oracle/k8sread, compared as the oracle test compares them, render's
# output included (docs/yaml.md, "Differential fuzzing"). A disagreement of a class
# not listed in tests/oracle/known-classes.txt fails the run and is written, shrunk,
# to tests/oracle/regressions/.
#
#   bash scripts/diff-fuzz.sh [SECONDS]
#   DIFF_FUZZ_SEED=20240101 bash scripts/diff-fuzz.sh 300
#
# Environment: BUILD_DIR (default build, set up by scripts/test.sh), DIFF_FUZZ_SEED
# (default: today's date), DIFF_FUZZ_COUNT (at most this many streams, default 20000),
# DIFF_FUZZ_RESULTS (default $BUILD_DIR/diff-fuzz-results: one line
# "diff-fuzz passed|failed" for .ci/run). Exits 1 if it found a new class.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-60}"
build="${BUILD_DIR:-build}"
results="${DIFF_FUZZ_RESULTS:-$build/diff-fuzz-results}"

if ! [[ "$seconds" =~ ^[0-9]+$ ]] || ((seconds == 0)); then
  echo "usage: scripts/diff-fuzz.sh [SECONDS]" >&2
  exit 2
fi
mkdir -p "$(dirname "$results")"
echo "diff-fuzz failed" >"$results"  # until it has run

if [[ ! -f "$build/meson-private/coredata.dat" ]]; then
  meson setup "$build" --werror -Dtests=enabled
fi
ninja -C "$build" rollcall tests/oracle/rollcall_reading tests/oracle/k8sread >/dev/null ||
  ninja -C "$build" rollcall tests/oracle/rollcall_reading tests/oracle/k8sread

args=(--source-root "$root" --rollcall "$build/rollcall"
  --rollcall-reading "$build/tests/oracle/rollcall_reading"
  --k8sread "$build/tests/oracle/k8sread"
  --known-classes tests/oracle/known-classes.txt
  --regressions tests/oracle/regressions
  --seconds "$seconds" --count "${DIFF_FUZZ_COUNT:-20000}")
if [[ -n "${DIFF_FUZZ_SEED:-}" ]]; then
  args+=(--seed "$DIFF_FUZZ_SEED")
fi

status=0
/usr/bin/python3 tests/oracle/difffuzz.py "${args[@]}" || status=$?
if ((status == 0)); then
  echo "diff-fuzz passed" >"$results"
fi
exit "$status"
