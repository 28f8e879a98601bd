#!/usr/bin/env bash
# Draws the picture in docs/consumers.md: `rollcall consumers --all --format dot` on
# docs/examples/graph/shop.yaml, rendered to SVG with Graphviz (apt-get install
# graphviz). tests/docs/graph.sh fails when the committed files differ from what this
# writes, so run it after changing the example or the graph's look.
#
#   bash scripts/docs-graph.sh [ROLLCALL_BINARY]     # default: build/rollcall
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rollcall="${1:-$root/build/rollcall}"
"$rollcall" consumers --all --format dot "$root/docs/examples/graph/shop.yaml" \
  >"$root/docs/img/consumers.dot"
dot -Tsvg "$root/docs/img/consumers.dot" >"$root/docs/img/consumers.svg"
echo "wrote docs/img/consumers.dot and docs/img/consumers.svg" >&2
