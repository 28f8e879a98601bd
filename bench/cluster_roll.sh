#!/bin/bash
# `rollcall roll` at scale on a real API server (scripts/cluster.sh, docs/cluster.md):
# one namespace of N Deployments (default 2,000, one replica each), of which READERS
# (default 10) read the Secret that changes. Prints the wall time of `roll --apply`, its
# peak RSS, the number of API requests it made (from the API server's audit log, by the
# user roll ran as) by verb and resource, and the workloads it patched.
#
# Target (docs/performance.md): each kind read once per namespace, only the readers
# patched. It prints figures and asserts nothing.
#
# Usage: bench/cluster_roll.sh [BUILD_DIR] [DEPLOYMENTS] [READERS]
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
count="${2:-2000}"
readers="${3:-10}"
tmp="$(mktemp -d)"
export ROLLCALL_CLUSTER_DIR="$tmp/cluster" ROLLCALL_CLUSTER_OWNER=$$ ROLLCALL_CLUSTER_AUDIT=1
trap 'bash "$root/scripts/cluster.sh" down; rm -rf "$tmp"' EXIT

eval "$(bash "$root/scripts/cluster.sh" up)"
export KUBECONFIG
kubectl="$(bash "$root/scripts/cluster.sh" bin)/kubectl"

# The stream: the Secret, READERS Deployments reading its key, the others reading
# nothing of it (each its own ConfigMap-free template).
python3 - "$count" "$readers" >"$tmp/workloads.yaml" <<'PY'
import sys
count, readers = int(sys.argv[1]), int(sys.argv[2])
print("apiVersion: v1\nkind: Secret\nmetadata: {name: shared-db, namespace: bench}\n"
      "stringData: {password: one, other: x}")
for i in range(count):
    env = ("        env:\n        - name: DB_PASSWORD\n          valueFrom: {secretKeyRef: "
           "{name: shared-db, key: password}}\n") if i < readers else ""
    print(f"""---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: app-{i:05d}, namespace: bench}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: app-{i:05d}}}}}
  template:
    metadata: {{labels: {{app: app-{i:05d}}}}}
    spec:
      containers:
      - name: app
        image: example/app:1
{env}""".rstrip())
PY
"$kubectl" create namespace bench >/dev/null
start=$SECONDS
"$kubectl" apply --server-side -f "$tmp/workloads.yaml" >/dev/null
echo "applied $count Deployments in $((SECONDS - start)) s; waiting for their pods"
until [[ "$("$kubectl" get deployments -n bench -o jsonpath='{range .items[*]}{.status.availableReplicas}{"\n"}{end}' | grep -c '^1$')" == "$count" ]]; do
  sleep 2
done
echo "all $count available after $((SECONDS - start)) s"

cat >"$tmp/rotate.yaml" <<'EOF'
apiVersion: v1
kind: Secret
metadata: {name: shared-db, namespace: bench}
stringData: {password: two, other: x}
EOF
user_kubeconfig="$(bash "$root/scripts/cluster.sh" user roll-bench system:masters)"
# kubectl through a wrapper that notes each call's peak RSS: GNU time's figure for
# rollcall counts the children it waited for, kubectl among them.
printf '#!/bin/sh\nexec /usr/bin/time -f "%%M KiB %%e s %%C" -a -o "%s" "%s" "$@"\n' \
  "$tmp/kubectl-calls" "$kubectl" >"$tmp/kubectl"
chmod +x "$tmp/kubectl"
# rollcall alone on the same input: the plan from a dump of what roll reads.
"$kubectl" get -n bench deployments.apps,statefulsets.apps,daemonsets.apps,cronjobs.batch,jobs.batch,pods \
  -o yaml >"$tmp/dump.yaml"
"$kubectl" get -n bench secret shared-db -o yaml >"$tmp/secret.yaml"
/usr/bin/time -f '%e s wall, %M KiB peak RSS' -o "$tmp/time-plan" \
  "$build/rollcall" roll --dry-run --state "$tmp/dump.yaml" --state "$tmp/secret.yaml" \
  --apply "$tmp/rotate.yaml" -n bench >"$tmp/plan.out" 2>&1 || { cat "$tmp/plan.out"; exit 1; }
echo "what roll reads of the namespace: $(wc -c <"$tmp/dump.yaml") bytes of YAML"
echo "rollcall roll --dry-run --state of it (rollcall alone): $(cat "$tmp/time-plan")"

mark="$(wc -l <"$ROLLCALL_CLUSTER_DIR/audit.log")"
/usr/bin/time -f '%e s wall, %M KiB peak RSS (rollcall or a kubectl it ran)' -o "$tmp/time" \
  env KUBECONFIG="$user_kubeconfig" KUBECTL="$tmp/kubectl" \
  "$build/rollcall" roll --apply "$tmp/rotate.yaml" -n bench --timeout 10m >"$tmp/roll.out" 2>&1 ||
  { cat "$tmp/roll.out"; exit 1; }
echo "rollcall roll --apply: $(cat "$tmp/time")"
grep -E '^result:' "$tmp/roll.out"
echo "kubectl runs: $(wc -l <"$tmp/kubectl-calls"); the largest: $(sort -n "$tmp/kubectl-calls" | tail -n 1 | cut -c1-150)"
sleep 2  # the audit log's last events
tail -n +"$((mark + 1))" "$ROLLCALL_CLUSTER_DIR/audit.log" | python3 -c '
import collections, json, sys
counts = collections.Counter()
for line in sys.stdin:
    e = json.loads(line)
    if e.get("user", {}).get("username") != "roll-bench" or e.get("stage") != "ResponseComplete":
        continue
    ref = e.get("objectRef") or {}
    resource = ref.get("resource") or e.get("requestURI", "").split("?")[0]
    counts[(e["verb"], resource)] += 1
total = sum(counts.values())
print(f"API requests by roll (and the kubectl it ran): {total}")
for (verb, resource), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"  {n:6d}  {verb:6s} {resource}")
'
