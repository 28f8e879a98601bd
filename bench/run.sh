#!/bin/bash
# The benchmark of docs/performance.md. Usage: bench/run.sh [BUILD_DIR] [SCALE]
# Generates the streams (bench/generate.py), then prints for each: MB/s,
# documents/s and peak RSS of rollcall render and lint, of the yaml-cpp baseline
# (bench/parse_baseline.cc), of libyaml's event parser over the same documents
# (bench/libyaml_baseline.cc) and, at sizes it finishes in reasonable time, of
# `kubectl kustomize` as a pass-through post-renderer; then rollcall's start-up
# time. SCALE (default 1) multiplies every stream size, for a quick run use 0.1.
# It prints figures and asserts nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
scale=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

docs() { python3 -c "print(max(10, int($1 * $scale)) // 10 * 10)"; }

echo "machine: $(nproc) hardware threads; $(uptime | sed 's/.*load/load/')"
echo "rollcall: $build/rollcall ($(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown))"
streams=()
for spec in workloads:800 workloads:2000 workloads:5000 workloads:20000 workloads:80000 \
  crds:1000 crds:4000; do
  kind=${spec%%:*}
  n=$(docs "${spec#*:}")
  file="$work/$kind-$n.yaml"
  python3 "$here/generate.py" "$kind" "$n" > "$file"
  streams+=("$file")
done
# Real Helm output: every file of 1 MB or more in the corpus (../shared/corpus).
corpus="${ROLLCALL_CORPUS:-$here/../../shared/corpus}"
if [[ -d "$corpus" ]]; then
  while IFS= read -r -d '' file; do
    streams+=("$file")
  done < <(find "$corpus" -type f -name '*.yaml' -size +1000k -print0 | sort -z)
fi
python3 "$here/measure.py" throughput --rollcall "$build/rollcall" \
  --baseline "$build/bench/parse_baseline" --libyaml "$build/bench/libyaml_baseline" \
  --kustomize "$here/kustomize_post_renderer.sh" \
  --kustomize-max-docs "$(docs 2000)" "${streams[@]}"
python3 "$here/measure.py" startup --rollcall "$build/rollcall"
echo "load after: $(uptime | sed 's/.*load/load/')"
