#!/usr/bin/env bash
# What render stops because the API server would refuse it, put to the API server
# (scripts/cluster.sh). Each testdata/refusals/*.yaml is a Deployment whose pod template
# has a reference that names no source or no key, or references written in a way the
# API server's validation refuses (two sources in one envFrom, two volume types, ...);
# its first line, a comment, is the field the API server names (or its whole words). render must stop (exit 1, nothing on stdout, a
# malformed-reference finding, whatever --fail-on says), and `kubectl apply
# --dry-run=server` must be refused naming that field: a deploy would have failed there,
# half-applied. The same Deployment written well passes both.
#
# Usage: refusals.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP.
set -uo pipefail

# shellcheck source=SCRIPTDIR/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || { echo "Bail out! cannot read lib.sh"; exit 1; }
cluster_test_init "$@"

cases=("$root"/testdata/refusals/*.yaml)
checks=()
for file in "${cases[@]}"; do
  checks+=("$(basename "$file" .yaml): render stops (malformed-reference, --fail-on never), the API server refuses $(sed -n '1s/^# //p' "$file")")
done
checks+=("the same Deployment written well: render exit 0 with a hash, the API server accepts it")
echo "1..${#checks[@]}"

cluster_start

for file in "${cases[@]}"; do
  field="$(sed -n '1s/^# //p' "$file")"
  "$rollcall" render --fail-on never <"$file" >"$tmp/out.yaml" 2>"$tmp/render.err"
  status=$?
  kc apply --dry-run=server -f "$file" >"$tmp/apply.out" 2>&1
  apply_status=$?
  [[ $status == 1 && ! -s "$tmp/out.yaml" && $apply_status != 0 ]] &&
    grep -q 'error\[malformed-reference\]' "$tmp/render.err" &&
    grep -qF "$field" "$tmp/apply.out"
  check $? "render exit $status:" "$(cat "$tmp/render.err")" \
    "kubectl apply --dry-run=server exit $apply_status:" "$(cat "$tmp/apply.out")"
done

cat >"$tmp/good.yaml" <<'YAML'
apiVersion: v1
kind: Secret
metadata: {name: db}
stringData: {password: s3cret}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: good}
spec:
  selector: {matchLabels: {app: good}}
  template:
    metadata: {labels: {app: good}}
    spec:
      containers:
      - name: app
        image: example/app:1
        env:
        - name: PASSWORD
          valueFrom: {secretKeyRef: {name: db, key: password}}
YAML
"$rollcall" render <"$tmp/good.yaml" >"$tmp/good.out" 2>"$tmp/good.err"
status=$?
kc apply --dry-run=server -f "$tmp/good.out" >"$tmp/good.apply" 2>&1
apply_status=$?
[[ $status == 0 && $apply_status == 0 ]] && grep -qF '"rollcall.dev/config-hash": "sha256:3635c7112c41ce8d06d10501e7ba97b81880d52b0caff537b9bf064b788e1718"' "$tmp/good.out"
check $? "render exit $status: $(cat "$tmp/good.err")" "apply exit $apply_status: $(cat "$tmp/good.apply")"

[[ $failed == 0 ]]
