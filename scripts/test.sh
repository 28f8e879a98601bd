#!/usr/bin/env bash
# Quick start, command 2: installs what is missing, builds, and runs the whole test suite
# (unit, golden and end-to-end tests, all registered with Meson).
#
#   bash scripts/test.sh                      # build/ with the default options
#   BUILD_DIR=build-asan bash scripts/test.sh -Db_sanitize=address,undefined
#   MESON_TEST_ARGS="--suite e2e" bash scripts/test.sh
#
# Arguments are Meson build options (-Dname=value): given to `meson setup` when the build
# directory is new, to `meson configure` otherwise. MESON_TEST_ARGS go to `meson test`.
# Exits non-zero if the build or any test fails. .ci/run runs this script.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${BUILD_DIR:-build}"

bash scripts/install-deps.sh
bash scripts/fetch-helm.sh

# -Dtests=enabled: a build directory the demo set up before GoogleTest was installed
# has no tests; this makes Meson look again, and fail if it is still missing.
if [[ ! -f "$build/meson-private/coredata.dat" ]]; then
  meson setup "$build" --werror -Dtests=enabled "$@"
else
  meson configure "$build" -Dtests=enabled "$@"
fi

ninja -C "$build"
# The control plane the cluster tests run (tests/cluster, docs/cluster.md), built from
# Kubernetes' Go modules into .cache/cluster once (minutes, the first time; seconds
# after). Without Go 1.26 the cluster tests skip, unless ROLLCALL_CLUSTER_REQUIRED=1
# (.ci/run) makes that a failure. Not for a run that leaves the cluster suite out.
if [[ " ${MESON_TEST_ARGS:-} " != *" --no-suite cluster "* ]]; then
  if command -v go >/dev/null 2>&1 || [[ "${ROLLCALL_CLUSTER_REQUIRED:-}" == 1 ]]; then
    cluster_build_start=$SECONDS
    bash scripts/cluster.sh build
    echo "test.sh: control plane binaries ready after $((SECONDS - cluster_build_start)) s" >&2
  fi
fi
# shellcheck disable=SC2086  # MESON_TEST_ARGS is a list of words on purpose
meson test -C "$build" --print-errorlogs ${MESON_TEST_ARGS:-}
