#!/usr/bin/env bash
# The picture in docs/consumers.md is what rollcall draws today: the committed DOT text
# is `rollcall consumers --all --format dot` on the example, and the committed SVG is
# Graphviz's rendering of it (scripts/docs-graph.sh writes both).
#
#   graph.sh ROLLCALL_BINARY SOURCE_ROOT
set -uo pipefail

rollcall="$1"
root="$2"
# shellcheck source=tests/lib/tap.sh
source "$root/tests/lib/tap.sh"

echo "1..3"
dot_text="$("$rollcall" consumers --all --format dot "$root/docs/examples/graph/shop.yaml" 2>&1)"
status=$?
tap_result "$status" "consumers --all --format dot exits 0 on the example" "" "$dot_text"

committed="$(cat "$root/docs/img/consumers.dot")"
[[ "$dot_text" == "$committed" ]]
tap_result $? "docs/img/consumers.dot is today's output (else run scripts/docs-graph.sh)" "" \
  "$(diff <(echo "$committed") <(echo "$dot_text"))"

if ! command -v dot >/dev/null 2>&1; then
  tap_skip "Graphviz renders the committed SVG" "Graphviz's dot is not installed (scripts/install-deps.sh installs it)"
  [[ $failed == 0 ]]
  exit
fi
svg="$(dot -Tsvg "$root/docs/img/consumers.dot" 2>&1)"
[[ "$svg" == "$(cat "$root/docs/img/consumers.svg")" ]]
tap_result $? "Graphviz renders docs/img/consumers.dot to the committed docs/img/consumers.svg" "" \
  "$(diff <(cat "$root/docs/img/consumers.svg") <(echo "$svg") | head -20)"
[[ $failed == 0 ]]
