#!/bin/bash
# What rollcall adds to `helm template` as its post-renderer (docs/performance.md).
# Usage: bench/helm_overhead.sh [BUILD_DIR] [PAIRS]
#
# For each chart — the repository's charts/, and for every corpus file of 1 MB or more
# (../shared/corpus) a chart that emits that file's real Helm output as it stands
# (`{{ .Files.Get }}`) — runs Helm 3's `helm template` PAIRS times (default 15) with
# rollcall as the post-renderer and with `cat` as the post-renderer, one after the
# other, and prints the median of each and rollcall's added share. Prints figures
# and asserts nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
pairs=${2:-15}
helm="${HELM3:-$root/.cache/helm/v3/helm}"
[[ -x "$helm" ]] || { echo "no Helm 3 at $helm (scripts/fetch-helm.sh v3)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HELM_CACHE_HOME="$work/helm-cache" HELM_CONFIG_HOME="$work/helm-config" \
  HELM_DATA_HOME="$work/helm-data"

charts=()
for chart in "$root"/charts/*/; do charts+=("${chart%/}"); done
corpus="${ROLLCALL_CORPUS:-$root/../shared/corpus}"
if [[ -d "$corpus" ]]; then
  while IFS= read -r -d '' file; do
    name=$(basename "$file" .yaml)
    mkdir -p "$work/$name/templates" "$work/$name/files"
    printf 'apiVersion: v2\nname: %s\nversion: 0.1.0\n' "$name" >"$work/$name/Chart.yaml"
    cp "$file" "$work/$name/files/stream.yaml"
    printf '{{ .Files.Get "files/stream.yaml" }}\n' >"$work/$name/templates/all.yaml"
    charts+=("$work/$name")
  done < <(find "$corpus" -type f -name '*.yaml' -size +1000k -print0 | sort -z)
fi

echo "machine: $(nproc) hardware threads; $(uptime | sed 's/.*load/load/')"
echo "rollcall: $build/rollcall; helm: $("$helm" version --short)"
python3 - "$helm" "$build/rollcall" "$pairs" "${charts[@]}" <<'PY'
import statistics
import subprocess
import sys
import time

helm, rollcall, pairs, charts = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]

def timed(argv):
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start

print(f"{'chart':<24} {'KB out':>6} {'with cat':>9} {'with rollcall':>13} {'added':>7}")
for chart in charts:
    base = [helm, "template", "rel", chart, "--namespace", "mon"]
    size = len(subprocess.run(base, check=True, capture_output=True).stdout)
    with_cat = base + ["--post-renderer", "/bin/cat"]
    with_rollcall = base + ["--post-renderer", rollcall, "--post-renderer-args=--namespace=mon"]
    cat_times, rollcall_times = [], []
    for _ in range(pairs):
        cat_times.append(timed(with_cat))
        rollcall_times.append(timed(with_rollcall))
    cat, ours = statistics.median(cat_times), statistics.median(rollcall_times)
    name = chart.rstrip("/").split("/")[-1]
    print(f"{name:<24} {size / 1e3:>6.0f} {cat * 1000:>7.1f}ms {ours * 1000:>11.1f}ms "
          f"{(ours - cat) / cat * 100:>6.1f}%", flush=True)
PY
