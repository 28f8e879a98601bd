# shellcheck shell=bash
# What bench/run.sh and bench/memory.sh share; sourced, with their arguments
# [BUILD_DIR] [SCALE]. Sets `here`, `build`, `scale` and a `work` directory removed
# on exit, and prints the machine and the rollcall measured.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
scale=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus="${ROLLCALL_CORPUS:-$here/../../shared/corpus}"

echo "machine: $(nproc) hardware threads; $(uptime | sed 's/.*load/load/')"
echo "rollcall: $build/rollcall ($(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown))"

# N scaled by SCALE, rounded down to tens, at least 10.
scaled() { python3 -c "print(max(10, int($1 * $scale)) // 10 * 10)"; }

# Appends to `streams` a file of bench/generate.py for each KIND:N, N scaled.
generate_streams() {
  local spec kind n file
  for spec in "$@"; do
    kind=${spec%%:*}
    n=$(scaled "${spec#*:}")
    file="$work/$kind-$n.yaml"
    python3 "$here/generate.py" "$kind" "$n" >"$file"
    streams+=("$file")
  done
}

# Appends to `streams` every YAML file of the corpus, or those larger than FIND_SIZE
# (find's -size, as +1000k), when the corpus is there.
add_corpus() {
  [[ -d "$corpus" ]] || return 0
  local file
  while IFS= read -r -d '' file; do
    streams+=("$file")
  done < <(find "$corpus" -type f -name '*.yaml' ${1:+-size "$1"} -print0 | sort -z)
}
