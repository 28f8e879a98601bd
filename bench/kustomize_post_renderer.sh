#!/bin/bash
# A pass-through post-renderer as Helm's documentation suggests one with
# kustomize: stdin to a file, a kustomization.yaml listing it, `kubectl kustomize`.
# The benchmark compares rollcall with it.
set -euo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/all.yaml"
printf 'resources:\n- all.yaml\n' > "$dir/kustomization.yaml"
"${KUBECTL:-/usr/bin/kubectl}" kustomize "$dir"
