#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang 14, AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs each for SECONDS_PER_TARGET (default 60),
# one after the other. docs/fuzzing.md explains the targets and what to do with a
# finding.
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET]
#   FUZZ_TARGETS="render" bash scripts/fuzz.sh 600
#
# Environment: BUILD_DIR (default build-fuzz), FUZZ_WORK (default $BUILD_DIR/work),
# FUZZ_TARGETS (default "split render lint").
#
# Seeds are gathered from testdata/ and charts/ into $FUZZ_WORK/seeds on every run,
# and each target also starts from its regression corpus (fuzz/regressions/<target>/);
# the corpus each target grows stays in $FUZZ_WORK/corpus/<target> for the next run.
# A crash, a sanitizer report, an input slower than FUZZ_TIMEOUT seconds (default 10)
# and an input that needs more than FUZZ_RSS_LIMIT_MB (default 2048) are findings:
# written to $FUZZ_WORK/findings/<target>/ and listed at the end. Exits 1 if this
# run found anything or a build failed. Writes one line per target,
# "<target> passed|failed", to $FUZZ_WORK/results for .ci/run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-60}"
build="${BUILD_DIR:-build-fuzz}"
work="${FUZZ_WORK:-$build/work}"
read -ra targets <<<"${FUZZ_TARGETS:-split render lint}"
timeout_s="${FUZZ_TIMEOUT:-10}"
rss_mb="${FUZZ_RSS_LIMIT_MB:-2048}"

if ! [[ "$seconds" =~ ^[0-9]+$ ]] || ((seconds == 0)); then
  echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET]" >&2
  exit 2
fi

bash scripts/install-deps.sh

mkdir -p "$work"
results="$work/results"
: >"$results"
fail_all() {
  local target
  for target in "${targets[@]}"; do echo "$target failed" >>"$results"; done
  exit 1
}

if [[ ! -f "$build/meson-private/coredata.dat" ]]; then
  CC=clang-14 CXX=clang++-14 meson setup "$build" -Dfuzzing=true \
    -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 -Ddebug=true ||
    fail_all
fi
# ninja names the targets by their path under the build directory: fuzz/split_fuzzer.
fuzzers=("${targets[@]/#/fuzz/}")
ninja -C "$build" "${fuzzers[@]/%/_fuzzer}" >/dev/null ||
  { ninja -C "$build" "${fuzzers[@]/%/_fuzzer}" || true; fail_all; }
for target in "${targets[@]}"; do
  [[ -x "$build/fuzz/${target}_fuzzer" ]] || { echo "no $build/fuzz/${target}_fuzzer" >&2; fail_all; }
done

# Seeds: every manifest and template in the repository's test data and charts.
seeds="$work/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
while IFS= read -r -d '' file; do
  cp "$file" "$seeds/$(echo "$file" | tr '/' '_')"
done < <(find testdata charts -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \
  -o -name '*.tpl' \) -print0)

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

status=0
for target in "${targets[@]}"; do
  corpus="$work/corpus/$target"
  findings="$work/findings/$target"
  log="$work/$target.log"
  mkdir -p "$corpus" "$findings"
  before="$(ls "$findings")"
  echo "fuzz: $target for ${seconds}s (log: $log)"
  "$build/fuzz/${target}_fuzzer" -max_total_time="$seconds" -timeout="$timeout_s" \
    -rss_limit_mb="$rss_mb" -max_len=65536 -dict=fuzz/yaml.dict -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" "$seeds" "fuzz/regressions/$target" >"$log" 2>&1 ||
    true
  new="$(comm -13 <(echo "$before") <(ls "$findings"))"
  if [[ -n "$new" ]]; then
    status=1
    echo "$target failed" >>"$results"
    echo "fuzz: $target FOUND:"
    while IFS= read -r file; do echo "  $findings/$file"; done <<<"$new"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz check failed|.*runtime error)' "$log" | head -5 |
      sed 's/^/  /'
  elif ! grep -q '^Done [0-9]* runs' "$log"; then
    # The fuzzer stopped without a finding and without finishing: a broken build or
    # bad arguments, never a pass.
    status=1
    echo "$target failed" >>"$results"
    echo "fuzz: $target did not run to the end:"
    tail -5 "$log" | sed 's/^/  /'
  else
    echo "$target passed" >>"$results"
    echo "fuzz: $target: no finding ($(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" |
      grep -Eo '[0-9]+$') inputs run, corpus $(find "$corpus" -type f | wc -l) files)"
  fi
done
exit "$status"
