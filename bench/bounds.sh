#!/bin/bash
# The work bounds of docs/robustness.md ("Work per byte"), measured: for each hostile
# shape, the input's size, then the time, peak RSS and exit code of the command.
# Usage: bench/bounds.sh [BUILD_DIR]. Needs helm for the chart shapes (HELM_BIN, else
# .cache/helm/v3/helm, else PATH); without it those lines say so. It prints figures and
# asserts nothing.
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
rollcall="$build/rollcall"
helm="${HELM_BIN:-$here/../.cache/helm/v3/helm}"
[[ -x "$helm" ]] || helm="$(command -v helm || true)"

# measure WHAT INPUT COMMAND...: one line of figures; COMMAND reads INPUT on stdin.
measure() {
  local what="$1" input="$2" status
  shift 2
  status=0
  /usr/bin/time -q -f '%e %M' -o "$work/time" "$@" <"$input" >/dev/null 2>"$work/err" || status=$?
  read -r seconds kib <"$work/time"
  printf '%-58s %9s bytes  %6.2f s  %7.1f MiB  exit %s\n' "$what" "$(stat -c %s "$input")" \
    "$seconds" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" "$status"
}

# aliased DOCUMENTS CONTAINERS ENV PAD: Deployments of CONTAINERS aliased containers of
# ENV aliased secretKeyRefs each, with PAD annotations written out (go-yaml's rule).
aliased() {
  local i
  for ((i = 1; i <= $1; i++)); do
    ((i > 1)) && echo ---
    printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w%d\n  annotations:\n' "$i"
    printf '    a%d: b\n' $(seq "$4")
    printf 'spec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n'
    printf '    spec:\n      containers:\n        - &c\n          name: app\n          image: x\n'
    printf '          env:\n            - &e {name: P, valueFrom: {secretKeyRef: {name: s, key: p}}}\n'
    printf '            - *e\n%.0s' $(seq $(($3 - 1)))
    printf '        - *c\n%.0s' $(seq $(($2 - 1)))
  done
}

echo "== aliases (item 1): references multiplied by aliases"
aliased 1 150 200 3000 >"$work/aliased-1.yaml"
aliased 20 150 200 3000 >"$work/aliased-20.yaml"
measure "render, 1 document (30,000 references)" "$work/aliased-1.yaml" "$rollcall" render
measure "lint --format sarif, 1 document" "$work/aliased-1.yaml" "$rollcall" lint --format sarif -
measure "render, 20 documents (refused at document 4)" "$work/aliased-20.yaml" "$rollcall" render
measure "lint --format sarif, 20 documents" "$work/aliased-20.yaml" "$rollcall" lint --format sarif -

echo "== chart findings (item 2): a finding in a large template"
# chart NAME COMMENT_LINES ENV_ENTRIES: a one-template chart whose Deployment has
# ENV_ENTRIES env entries and one unresolved reference, after a comment of COMMENT_LINES.
chart() {
  mkdir -p "$work/$1/templates"
  printf 'apiVersion: v2\nname: %s\nversion: 0.1.0\n' "$1" >"$work/$1/Chart.yaml"
  echo '{}' >"$work/$1/values.yaml"
  {
    if (($2 > 0)); then
      echo '{{/*'
      printf 'comment line %d\n' $(seq "$2")
      echo '*/}}'
    fi
    printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n'
    printf '  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n'
    printf '    spec:\n      containers:\n        - name: app\n          image: x\n          env:\n'
    printf '            - {name: E%d, value: v}\n' $(seq "$3")
    printf '            - name: P\n              valueFrom:\n'
    printf '                secretKeyRef: {name: missing, key: p}\n'
  } >"$work/$1/templates/all.yaml"
  wc -c <"$work/$1/templates/all.yaml" >"$work/$1.size"
}
if [[ -n "$helm" ]]; then
  chart long-document 0 20000
  chart long-comment 200000 1000
  for c in long-document long-comment; do
    (cd "$work" && HELM_BIN="$helm" measure "lint $c (template $(cat "$c.size") bytes; helm included)" \
      /dev/null "$rollcall" lint "$c")
  done
else
  echo "(no helm: set HELM_BIN, or run scripts/fetch-helm.sh)"
fi

echo "== run-once patterns (item 3): a repository's patterns against Job names"
job() {
  printf 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: %s}\nspec:\n  template:\n' "$1"
  printf '    spec:\n      restartPolicy: Never\n      containers:\n'
  printf '        - {name: a, image: x, envFrom: [{secretRef: {name: s}}]}\n'
}
for ((i = 0; i < 16; i++)); do
  ((i > 0)) && echo ---
  job "j$((100 + i))-$(printf 'a%.0s' $(seq 248))"
done >"$work/jobs-16.yaml"
job "$(printf 'a%.0s' $(seq 100000))" >"$work/job-100k.yaml"
large=() widest=()
for i in $(seq 0 63); do
  large+=("--run-once-pattern=\\pL{3$i}")
  widest+=("--run-once-pattern=[^x]{49$((i % 10))}$i")
done
measure "render, 64 patterns of \\pL{300} size (refused: program size)" "$work/jobs-16.yaml" \
  "$rollcall" render "${large[@]}"
measure "render, 64 patterns of ~3,930 instructions, 16 Jobs of 253 bytes" \
  "$work/jobs-16.yaml" "$rollcall" render "${widest[@]}"
measure "render, the same, one Job of a 100 KB name (never matched)" "$work/job-100k.yaml" \
  "$rollcall" render "${widest[@]}"
echo "load after: $(uptime | sed 's/.*load/load/')"
