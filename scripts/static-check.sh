#!/usr/bin/env bash
# Builds the static binary (-Dstatic_binary=true, only the rollcall target) in
# BUILD_DIR (default build-static) and runs it where nothing else is: a root directory
# holding only the binary and a manifest, entered with chroot. Prints TAP; .ci/run runs it.
#
#   bash scripts/static-check.sh
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root" || exit 1
build="${BUILD_DIR:-build-static}"
# shellcheck source=SCRIPTDIR/../tests/lib/tap.sh
source "$root/tests/lib/tap.sh"

echo "1..3"
log="$(mktemp)"
if [[ ! -f "$build/meson-private/coredata.dat" ]]; then
  meson setup "$build" --werror -Dstatic_binary=true -Dtests=disabled >"$log" 2>&1 ||
    { echo "Bail out! meson setup failed: $(tail -n 5 "$log")"; rm -f "$log"; exit 1; }
fi
ninja -C "$build" rollcall >"$log" 2>&1 ||
  { echo "Bail out! the static build failed: $(tail -n 20 "$log")"; rm -f "$log"; exit 1; }
rm -f "$log"

# 1: no program interpreter and no dynamic section: no shared library to find at run
# time (readelf comes with binutils, which g++ needs).
headers="$(readelf -l -d "$build/rollcall" 2>&1)"
ldd_says="$(ldd "$build/rollcall" 2>&1)"
! grep -q 'INTERP\|There is dynamic section\|(NEEDED)' <<<"$headers" &&
  [[ "$ldd_says" == *"not a dynamic executable"* ]]
tap_result $? "the static binary is statically linked (readelf, ldd)" "" \
  "ldd: $ldd_says" "$(grep 'INTERP\|NEEDED\|dynamic' <<<"$headers")"

# 2, 3: in an empty root, with the binary, a manifest and nothing else.
empty="$(mktemp -d)"
trap 'rm -rf "$empty"' EXIT
cp "$build/rollcall" "$empty/rollcall"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        envFrom:\n        - configMapRef: {name: c}\n' >"$empty/in.yaml"
if ! chroot "$empty" /rollcall --version >"$empty.version" 2>&1; then
  tap_skip "the static binary runs in an empty root: --version" "chroot is not allowed here: $(head -c 300 "$empty.version")"
  tap_skip "the static binary renders in an empty root" "chroot is not allowed here"
  rm -f "$empty.version"
  exit 0
fi
grep -qE '^rollcall [0-9]+\.[0-9]+\.[0-9]+ \(commit ' "$empty.version"
tap_result $? "the static binary runs in an empty root: --version" "" "$(cat "$empty.version")"
rm -f "$empty.version"
rendered="$(chroot "$empty" /rollcall render --namespace prod <"$empty/in.yaml" 2>"$empty/err")"
status=$?
[[ $status == 0 && "$rendered" == *"rollcall.dev/config-hash: \"sha256:"* ]]
tap_result $? "the static binary renders in an empty root" "" "exit $status" "$rendered" \
  "$(cat "$empty/err")"
