#!/usr/bin/env bash
# Quick start, command 1: installs what building and running rollcall needs (not the
# tests' tools: scripts/test.sh installs those), builds the rollcall binary only, renders the example
# chart charts/webapp with Helm 3 and rollcall as its post-renderer, and shows the
# annotations rollcall added.
#
#   bash scripts/demo.sh
#
# BUILD_DIR picks another build directory (default: build). The full output is written to
# $BUILD_DIR/demo/webapp.yaml.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${BUILD_DIR:-build}"

bash scripts/install-deps.sh --build-only
bash scripts/fetch-helm.sh v3

if [[ ! -f "$build/meson-private/coredata.dat" ]]; then
  meson setup "$build" --werror
fi
ninja -C "$build" rollcall

helm="$root/.cache/helm/v3/helm"
# The executable is build/rollcall; an older layout built it as build/src/rollcall.
rollcall="$root/$build/rollcall"
[[ -x "$rollcall" || ! -x "$root/$build/src/rollcall" ]] || rollcall="$root/$build/src/rollcall"
out="$build/demo/webapp.yaml"
mkdir -p "$build/demo"

# Neither Helm passes its namespace to a post-renderer, and the namespace is part of the
# hash: it is repeated for rollcall, as the README says.
echo
echo "\$ helm template demo charts/webapp --namespace demo --post-renderer $rollcall \\"
echo "    --post-renderer-args=--namespace=demo > $out"
"$helm" template demo charts/webapp --namespace demo --post-renderer "$rollcall" \
  --post-renderer-args=--namespace=demo >"$out"

# Each pod template rollcall annotated: the document's origin, kind and name, then the
# added lines with their line numbers in the output.
echo
echo "Annotations added by rollcall (line numbers in $out):"
awk '
  /^---/                { source = ""; kind = ""; name = ""; shown = 0 }
  /^# Source: /         { source = $0 }
  /^kind: /             { kind = $2 }
  /^  name: / && !name  { name = $2 }
  /rollcall\.dev\// {
    if (!shown) { printf "\n%s\n  %s %s\n", source, kind, name; shown = 1 }
    printf "  %5d: %s\n", NR, $0
  }
' "$out"

# Why it matters: a new password changes the hash on the Deployment's pod template, so
# `helm upgrade` rolls the pods that read it.
hash_of_web() {
  awk '/^# Source: webapp\/templates\/deployment.yaml/ { d = 1 } /^---/ { d = 0 }
       d && /rollcall\.dev\/config-hash:/ { print $2 }'
}
before="$(hash_of_web <"$out")"
after="$("$helm" template demo charts/webapp --namespace demo --set db.password=rotated \
  --post-renderer "$rollcall" --post-renderer-args=--namespace=demo | hash_of_web)"
echo
echo "Deployment demo-web, config-hash"
echo "  with the default values:        $before"
echo "  with --set db.password=rotated: $after"
echo
echo "Helm 3 does not pass hooks (the migrate Job) to a post-renderer: they come out as rendered."
echo "Full output: $out"
