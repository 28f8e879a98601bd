#!/bin/bash
# The memory target of docs/performance.md, measured: peak RSS of rollcall render
# and lint against 2 x input + 32 MiB on the shapes with the least text per record
# (bench/generate.py: empty and values-like documents, one-line ConfigMaps, wide
# ConfigMaps of one-line entries, one-line Deployments), next to the workloads
# stream, and on every YAML
# file of the corpus (../shared/corpus), whatever its size.
# Usage: bench/memory.sh [BUILD_DIR] [SCALE]; SCALE (default 1) multiplies the
# generated sizes. It prints figures and asserts nothing.
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"

streams=()
generate_streams workloads:20000 empty:1000000 values:1000000 configmaps:100000 \
  configmaps:1000000 wide:200000 wide:2000000 wide:10000000 consumers:10000 consumers:100000 \
  consumers:1000000 references:1000000 references:4000000
python3 "$here/measure.py" memory --rollcall "$build/rollcall" "${streams[@]}"
streams=()
add_corpus ""  # every size
if ((${#streams[@]})); then
  python3 "$here/measure.py" memory --rollcall "$build/rollcall" --relative-to "$corpus" \
    "${streams[@]}"
fi
echo "load after: $(uptime | sed 's/.*load/load/')"
