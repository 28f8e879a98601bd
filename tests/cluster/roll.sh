#!/usr/bin/env bash
# `rollcall roll` on a real control plane (scripts/cluster.sh), with the kubectl built at
# the cluster's release: the shared-Secret shape of testdata/roll/shared-secret (nine
# workloads read one Secret, each its own keys: StatefulSets, Deployments, a DaemonSet
# and a CronJob). What roll reports is compared with what the API server shows: which
# workloads got a new ReplicaSet or ControllerRevision, and which kept theirs.
#
# Usage: roll.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP.
set -uo pipefail

# shellcheck source=SCRIPTDIR/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || { echo "Bail out! cannot read lib.sh"; exit 1; }
cluster_test_init "$@"
data="$root/testdata/roll/shared-secret"

checks=(
  "the nine workloads and the Secret applied; every Deployment, StatefulSet and DaemonSet settles"
  "roll --dry-run --apply (POSTGRES_PASSWORD changed): exit 0, the plan rolls postgresql, authentik-server, authentik-worker, litellm and fluent-bit"
  "roll --dry-run touched nothing: every resourceVersion as before, the Secret's content as before"
  "roll --apply: exit 0, the five readers of POSTGRES_PASSWORD rolled, redis, open-webui and grafana unchanged, pg-backup next-run"
  "the API server agrees: a new ReplicaSet for each rolled Deployment, a new revision for postgresql and fluent-bit, the others' ReplicaSets and revisions as before"
  "the report's observed ReplicaSets are the API server's newest ReplicaSets of those Deployments, available"
  "the Secret in the cluster holds the new POSTGRES_PASSWORD"
  "after an out-of-band kubectl apply (REDIS_PASSWORD changed), roll secret/urbalurba-secrets: exit 0; what carries the hash of the new content stays, what carries none or another rolls"
  "the API server agrees with the second roll, workload by workload"
  "a Deployment whose pods never get Ready (readinessProbe runs false): roll --apply --timeout 10s exits 1, timed-out, and says what it saw last"
  "docs/roll.md's commands on the shop fixture: the plan rolls api and leaves worker; roll --apply: exit 0, api rolled, worker unchanged"
  "the same roll --apply again: exit 0, nothing rolled, no workload's resourceVersion moved (what keeps a later helm upgrade from rolling again)"
  "a key set out of band that the manifest does not name: kubectl apply keeps it, so roll --apply, reading the Secret back from the API server, patches nothing and exits 2 naming the key; the Secret holds the manifest's password"
  "then roll secret/NS/NAME, as that error says: exit 0, the envFrom reader rolled"
)
echo "1..${#checks[@]}"

cluster_start

deployments=(open-webui authentik-server authentik-worker litellm grafana)
statefulsets=(postgresql redis)

# revisions: one line per workload, what identifies the template it runs: a
# Deployment's ReplicaSets (pod-template-hash), a StatefulSet's update revision, a
# DaemonSet's newest ControllerRevision, a CronJob's template hash annotation.
revisions() {
  local d s
  for d in "${deployments[@]}"; do
    echo "deployment/$d $(kc get replicasets -l "app=$d" --sort-by=.metadata.creationTimestamp \
      -o 'jsonpath={range .items[*]}{.metadata.labels.pod-template-hash} {end}')"
  done
  for s in "${statefulsets[@]}"; do
    echo "statefulset/$s $(jsonpath default statefulset "$s" '{.status.updateRevision}')"
  done
  echo "daemonset/fluent-bit $(kc get controllerrevisions -l app=fluent-bit \
    -o 'jsonpath={range .items[*]}{.revision}:{.metadata.name} {end}')"
  echo "cronjob/pg-backup $(jsonpath default cronjob pg-backup \
    '{.spec.jobTemplate.spec.template.metadata.annotations.rollcall\.dev/config-hash}')"
}

all_settled() {
  local d s
  for d in "${deployments[@]}"; do settled default "$d" || return 1; done
  for s in "${statefulsets[@]}"; do
    [[ "$(jsonpath default statefulset "$s" '{.status.readyReplicas}/{.spec.replicas} {.status.currentRevision} {.status.updateRevision}')" =~ ^([0-9]+)/([0-9]+)\ (.+)\ (.+)$ ]] &&
      [[ "${BASH_REMATCH[1]}" == "${BASH_REMATCH[2]}" && "${BASH_REMATCH[3]}" == "${BASH_REMATCH[4]}" ]] ||
      return 1
  done
  [[ "$(jsonpath default daemonset fluent-bit '{.status.desiredNumberScheduled} {.status.updatedNumberScheduled} {.status.numberAvailable}')" =~ ^([1-9][0-9]*)\ ([0-9]+)\ ([0-9]+)$ ]] &&
    [[ "${BASH_REMATCH[1]}" == "${BASH_REMATCH[2]}" && "${BASH_REMATCH[1]}" == "${BASH_REMATCH[3]}" ]]
}

resource_versions() {
  kc get deploy,sts,ds,cronjob,secret -o 'jsonpath={range .items[*]}{.kind}/{.metadata.name}={.metadata.resourceVersion}{"\n"}{end}' |
    sort
}

# changed_lines BEFORE AFTER: the workloads whose line differs, space-separated.
changed_lines() {
  diff <(echo "$1") <(echo "$2") | sed -n 's/^> \([^ ]*\) .*/\1/p' | sort | tr '\n' ' '
}

# statuses REPORT: "status kind/name" lines of roll's text report, sorted.
statuses() { grep -E '^(rolled|unchanged|next-run|not-rolled|timed-out|roll) ' "$1" | awk '{print $1, $2}' | sort; }

kc apply -f "$data/secret-before.yaml" -f "$data/workloads.yaml" >"$tmp/apply.out" 2>&1
status=$?
eventually 120 all_settled
settled_status=$?
rev0="$(revisions)"
[[ $status == 0 && $settled_status == 0 ]]
check $? "kubectl apply exited $status: $(cat "$tmp/apply.out")" "$rev0" \
  "$(kc get deploy,sts,ds,pods -o wide 2>&1)"

rv0="$(resource_versions)"
"$rollcall" roll --dry-run --apply "$data/secret-after.yaml" -n default >"$tmp/plan.out" 2>"$tmp/plan.err"
status=$?
# What roll must do with POSTGRES_PASSWORD changed; the plan says `roll` for `rolled`.
want="next-run cronjob/default/pg-backup
rolled daemonset/default/fluent-bit
rolled deployment/default/authentik-server
rolled deployment/default/authentik-worker
rolled deployment/default/litellm
rolled statefulset/default/postgresql
unchanged deployment/default/grafana
unchanged deployment/default/open-webui
unchanged statefulset/default/redis"
want_plan="${want//rolled /roll }"
got="$(statuses "$tmp/plan.out")"
[[ $status == 0 && "$got" == "$want_plan" ]]
check $? "exit $status" "$(cat "$tmp/plan.out" "$tmp/plan.err")"

sleep 2
rv1="$(resource_versions)"
[[ "$rv1" == "$rv0" && "$(jsonpath default secret urbalurba-secrets '{.data.POSTGRES_PASSWORD}')" == "$(sed -n 's/^  POSTGRES_PASSWORD: //p' "$data/secret-before.yaml")" ]]
check $? "$(diff <(echo "$rv0") <(echo "$rv1"))"

"$rollcall" roll --apply "$data/secret-after.yaml" -n default --timeout 3m >"$tmp/roll.out" 2>"$tmp/roll.err"
status=$?
got="$(statuses "$tmp/roll.out")"
[[ $status == 0 && "$got" == "$want" ]]
check $? "exit $status" "$(cat "$tmp/roll.out" "$tmp/roll.err")"

eventually 120 all_settled
rev1="$(revisions)"
moved="$(changed_lines "$rev0" "$rev1")"
want_moved="daemonset/fluent-bit deployment/authentik-server deployment/authentik-worker deployment/litellm statefulset/postgresql "
ok=1
[[ "$moved" == "$want_moved" ]] || ok=0
# Each rolled Deployment has exactly one ReplicaSet more than before.
for d in authentik-server authentik-worker litellm; do
  before="$(grep "^deployment/$d " <<<"$rev0" | wc -w)"
  after="$(grep "^deployment/$d " <<<"$rev1" | wc -w)"
  ((after == before + 1)) || ok=0
done
((ok))
check $? "moved: '$moved' (want '$want_moved')" "before:" "$rev0" "after:" "$rev1"

ok=1
evidence=()
for d in authentik-server authentik-worker litellm; do
  newest="$(kc get replicasets -l "app=$d" --sort-by=.metadata.creationTimestamp \
    -o 'jsonpath={range .items[*]}{.metadata.name} {.status.availableReplicas}/{.spec.replicas}{"\n"}{end}' | tail -n 1)"
  reported="$(awk -v w="deployment/default/$d" '$2 == w {found=1; next} /^[a-z-]+ +[a-z]+\// {found=0} found && /observed ReplicaSet/ {print; exit}' "$tmp/roll.out")"
  evidence+=("$d: API newest '$newest'; report '$reported'")
  read -r rs_name rs_avail <<<"$newest"
  [[ "$reported" == *"observed ReplicaSet $rs_name: "* && "$rs_avail" =~ ^([1-9][0-9]*)/\1$ ]] || ok=0
done
((ok))
check $? "${evidence[@]}"

[[ "$(jsonpath default secret urbalurba-secrets '{.data.POSTGRES_PASSWORD}')" == "$(sed -n 's/^  POSTGRES_PASSWORD: //p' "$data/secret-after.yaml")" ]]
check $? "$(kc get secret urbalurba-secrets -o yaml 2>&1 | grep -v '^  [A-Z_]*: ')"

# Out of band: REDIS_PASSWORD changes through kubectl, as a platform's "secrets apply"
# or a controller's sync would change it. roll cannot know the old content now: the
# hash each template carries decides (docs/roll.md).
sed 's/^  REDIS_PASSWORD: .*/  REDIS_PASSWORD: cmVkaXMtMg==/' "$data/secret-after.yaml" >"$tmp/secret-redis.yaml"
kc apply -f "$tmp/secret-redis.yaml" >/dev/null 2>&1
"$rollcall" roll secret/urbalurba-secrets -n default --timeout 3m >"$tmp/roll2.out" 2>"$tmp/roll2.err"
status=$?
# Carrying a hash of content that is still the cluster's: postgresql, authentik-server,
# authentik-worker and litellm read no REDIS_PASSWORD. Carrying none: redis, open-webui,
# grafana (never rolled by rollcall, nothing shows they are up to date). fluent-bit reads
# every key: its hash moved.
want2="next-run cronjob/default/pg-backup
rolled daemonset/default/fluent-bit
rolled deployment/default/grafana
rolled deployment/default/open-webui
rolled statefulset/default/redis
unchanged deployment/default/authentik-server
unchanged deployment/default/authentik-worker
unchanged deployment/default/litellm
unchanged statefulset/default/postgresql"
got="$(statuses "$tmp/roll2.out")"
[[ $status == 0 && "$got" == "$want2" ]]
check $? "exit $status" "$(cat "$tmp/roll2.out" "$tmp/roll2.err")"

eventually 120 all_settled
rev2="$(revisions)"
moved="$(changed_lines "$rev1" "$rev2")"
want_moved="daemonset/fluent-bit deployment/grafana deployment/open-webui statefulset/redis "
[[ "$moved" == "$want_moved" ]]
check $? "moved: '$moved' (want '$want_moved')" "before:" "$rev1" "after:" "$rev2"

# A rollout that cannot complete: the pods' readiness probe runs `false`, so no pod of
# the new template ever becomes Ready (kwok follows the probe, as a kubelet would).
kc create namespace stall >/dev/null
kc apply -n stall -f - >/dev/null <<'EOF'
apiVersion: v1
kind: Secret
metadata: {name: stall-db}
stringData: {password: one}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: stuck}
spec:
  replicas: 1
  selector: {matchLabels: {app: stuck}}
  template:
    metadata: {labels: {app: stuck}}
    spec:
      containers:
      - name: app
        image: example/stuck:1
        readinessProbe: {exec: {command: ["false"]}}
        env:
        - name: PASSWORD
          valueFrom: {secretKeyRef: {name: stall-db, key: password}}
EOF
cat >"$tmp/stall-db.yaml" <<'EOF'
apiVersion: v1
kind: Secret
metadata: {name: stall-db, namespace: stall}
stringData: {password: two}
EOF
"$rollcall" roll --apply "$tmp/stall-db.yaml" -n stall --timeout 10s --interval 1s \
  >"$tmp/stall.out" 2>"$tmp/stall.err"
status=$?
ready="$(jsonpath stall deployment stuck '{.status.readyReplicas}')"
[[ $status == 1 && "$(statuses "$tmp/stall.out")" == "timed-out deployment/stall/stuck" &&
  -z "$ready" ]] && grep -q '^  observed ' "$tmp/stall.out"
check $? "exit $status, ready replicas '$ready'" "$(cat "$tmp/stall.out" "$tmp/stall.err")"

# docs/roll.md, "To try it yourself", as written there.
shop="$root/testdata/roll/shop"
kc create namespace shop >/dev/null
kc apply -n shop -f "$shop/secret-before.yaml" >/dev/null
# The fixture's one Pod is left out: it names a ReplicaSet that does not exist here.
sed '/^  - apiVersion: v1$/,$d' "$shop/cluster.yaml" | kc apply -n shop -f - >/dev/null
shop_settled() { settled shop api && settled shop worker; }
eventually 60 shop_settled
"$rollcall" roll --dry-run --apply "$shop/secret-after.yaml" -n shop >"$tmp/shop-plan.out" 2>&1
plan_status=$?
"$rollcall" roll --apply "$shop/secret-after.yaml" -n shop --timeout 2m >"$tmp/shop.out" 2>&1
status=$?
[[ $plan_status == 0 && $status == 0 ]] &&
  [[ "$(statuses "$tmp/shop-plan.out" | grep -v mailer)" == "roll deployment/shop/api
unchanged deployment/shop/worker" ]] &&
  [[ "$(statuses "$tmp/shop.out" | grep -v mailer)" == "rolled deployment/shop/api
unchanged deployment/shop/worker" ]]
check $? "plan exit $plan_status, roll exit $status" "$(cat "$tmp/shop-plan.out" "$tmp/shop.out")"

eventually 60 shop_settled
rv_before="$(kc get deploy -n shop -o 'jsonpath={range .items[*]}{.metadata.name}={.metadata.resourceVersion} {end}')"
"$rollcall" roll --apply "$shop/secret-after.yaml" -n shop --timeout 2m >"$tmp/shop2.out" 2>&1
status=$?
sleep 1
rv_after="$(kc get deploy -n shop -o 'jsonpath={range .items[*]}{.metadata.name}={.metadata.resourceVersion} {end}')"
[[ $status == 0 && "$rv_after" == "$rv_before" ]] && ! grep -q '^rolled ' "$tmp/shop2.out"
check $? "exit $status" "resourceVersions $rv_before -> $rv_after" "$(cat "$tmp/shop2.out")"

# roll --apply reads back what it applied (docs/roll.md): a key an earlier writer set
# and the manifest does not name is kept by kubectl apply's three-way merge, and an
# envFrom reads it, so the hash roll planned from the manifest would not be the
# content the pods get.
kc create namespace kept >/dev/null
kc apply -n kept -f - >/dev/null <<'EOF'
apiVersion: v1
kind: Secret
metadata: {name: kept-db}
stringData: {password: one}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: reads-all}
spec:
  selector: {matchLabels: {app: reads-all}}
  template:
    metadata: {labels: {app: reads-all}}
    spec:
      containers:
      - name: app
        image: example/app:1
        envFrom: [{secretRef: {name: kept-db}}]
EOF
kept_settled() { settled kept reads-all; }
eventually 60 kept_settled
kc patch -n kept secret kept-db --type=merge -p '{"stringData":{"rotated-at":"2026-12-07"}}' >/dev/null
cat >"$tmp/kept-db.yaml" <<'EOF'
apiVersion: v1
kind: Secret
metadata: {name: kept-db, namespace: kept}
stringData: {password: two}
EOF
rv_before="$(jsonpath kept deployment reads-all '{.metadata.resourceVersion}')"
"$rollcall" roll --apply "$tmp/kept-db.yaml" -n kept --timeout 2m >"$tmp/kept.out" 2>"$tmp/kept.err"
status=$?
rv_after="$(jsonpath kept deployment reads-all '{.metadata.resourceVersion}')"
password="$(jsonpath kept secret kept-db '{.data.password}' | base64 -d)"
[[ $status == 2 && ! -s "$tmp/kept.out" && "$rv_after" == "$rv_before" && "$password" == two ]] &&
  grep -q "(1 key its readers read differs: rotated-at): nothing was patched" "$tmp/kept.err" &&
  grep -q 'run `rollcall roll secret/kept/kept-db`' "$tmp/kept.err"
check $? "exit $status, resourceVersion $rv_before -> $rv_after, password '$password'" \
  "$(cat "$tmp/kept.out" "$tmp/kept.err")"

"$rollcall" roll secret/kept/kept-db --timeout 2m >"$tmp/kept2.out" 2>"$tmp/kept2.err"
status=$?
[[ $status == 0 && "$(statuses "$tmp/kept2.out")" == "rolled deployment/kept/reads-all" ]]
check $? "exit $status" "$(cat "$tmp/kept2.out" "$tmp/kept2.err")"

[[ $failed == 0 ]]
