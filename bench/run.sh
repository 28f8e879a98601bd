#!/bin/bash
# The benchmark of docs/performance.md. Usage: bench/run.sh [BUILD_DIR] [SCALE]
# Generates the streams (bench/generate.py), then prints for each: MB/s,
# documents/s and peak RSS of rollcall render and lint, of the yaml-cpp baseline
# (bench/parse_baseline.cc), of libyaml's event parser over the same documents
# (bench/libyaml_baseline.cc) and, at sizes it finishes in reasonable time, of
# `kubectl kustomize` as a pass-through post-renderer; then rollcall's start-up
# time. SCALE (default 1) multiplies every stream size, for a quick run use 0.1.
# It prints figures and asserts nothing.
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"

streams=()
generate_streams workloads:800 workloads:2000 workloads:5000 workloads:20000 workloads:80000 \
  crds:1000 crds:4000
# Real Helm output: every file of 1 MB or more in the corpus (../shared/corpus).
add_corpus +1000k
python3 "$here/measure.py" throughput --rollcall "$build/rollcall" \
  --baseline "$build/bench/parse_baseline" --libyaml "$build/bench/libyaml_baseline" \
  --kustomize "$here/kustomize_post_renderer.sh" \
  --kustomize-max-docs "$(scaled 2000)" "${streams[@]}"
python3 "$here/measure.py" startup --rollcall "$build/rollcall"
echo "load after: $(uptime | sed 's/.*load/load/')"
