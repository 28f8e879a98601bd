#!/usr/bin/env bash
# `--lookup kubectl` and the rights rollcall needs, on a real control plane with RBAC on
# (scripts/cluster.sh). Each command runs as a user of its own (a client certificate of
# the cluster's CA, scripts/cluster.sh user) bound to exactly the Role docs/security.md
# gives for it (tests/cluster/rbac/*.yaml), and once more without it.
#
#   render --lookup kubectl   a Secret outside the input hashed from the cluster: the
#                             hash is the one a --state file of the same Secret gives,
#                             and moves when the Secret changes in the cluster
#   without `get secrets`     a clear error naming what is forbidden, exit 2, nothing on
#                             stdout, no hash guessed
#   roll --apply              with the roll Role: applies, patches, observes (exit 0);
#                             without it: exit 2 before anything changes
#   consumers                 reads no cluster; the `kubectl get … | rollcall consumers`
#                             of docs/consumers.md needs the consumers Role
#
# Usage: rbac.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP.
set -uo pipefail

# shellcheck source=SCRIPTDIR/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || { echo "Bail out! cannot read lib.sh"; exit 1; }
cluster_test_init "$@"
rbac="$root/tests/cluster/rbac"

checks=(
  "render --lookup kubectl as a user with the lookup Role: exit 0, the Secret outside the input hashed, the hash a --state file of the same Secret gives"
  "the Secret changed in the cluster: render --lookup kubectl writes another hash"
  "render --lookup kubectl as a user whose Role lacks get secrets: exit 2, nothing on stdout, the error names the forbidden get of secrets and where the Roles are listed"
  "roll --apply as a user with the roll Role: exit 0, the reader rolled and observed"
  "roll --apply as a user without the roll Role: exit 2, the error names what is forbidden and where the Roles are listed, the Secret unchanged"
  "kubectl get … | rollcall consumers as a user with the consumers Role: the reader listed"
  "the same without the consumers Role: kubectl is forbidden to list deployments, and nothing is listed"
  "cluster.sh user refuses hostile names (leading '-', ';', '../', an escape sequence) before openssl runs, and shows them escaped"
)
echo "1..${#checks[@]}"

cluster_start

# The chart's view: the Deployment alone, reading a Secret it does not render. The
# cluster runs it, beside that Secret.
cat >"$tmp/app.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - name: api
        image: example/api:1
        env:
        - name: DB_PASSWORD
          valueFrom: {secretKeyRef: {name: external-db, key: password}}
EOF
kc create namespace shop >/dev/null
kc create secret generic -n shop external-db --from-literal=password=one \
  --from-literal=username=app >/dev/null
kc apply -f "$tmp/app.yaml" >/dev/null

# A user bound to ROLE (a file of tests/cluster/rbac/, applied in shop), and one bound
# to nothing.
user_with() {
  local user="$1" role="$2"
  kc apply -n shop -f "$rbac/$role.yaml" >/dev/null || return 1
  kc create rolebinding -n shop "$user" --role="$role" --user="$user" >/dev/null || return 1
  ROLLCALL_CLUSTER_DIR="$tmp/cluster" bash "$root/scripts/cluster.sh" user "$user"
}
nobody="$(ROLLCALL_CLUSTER_DIR="$tmp/cluster" bash "$root/scripts/cluster.sh" user nobody)"

# hash_of FILE: the config hash render wrote (block or flow style), or nothing.
hash_of() { grep -o 'rollcall.dev/config-hash"\{0,1\}: *"\{0,1\}sha256:[0-9a-f]\{64\}' "$1" | grep -o 'sha256:.*' | head -n 1; }

lookup_user="$(user_with lookup-user rollcall-lookup)"
KUBECONFIG="$lookup_user" "$rollcall" render --lookup kubectl --namespace shop \
  <"$tmp/app.yaml" >"$tmp/lookup.out" 2>"$tmp/lookup.err"
status=$?
kc get secret -n shop external-db -o yaml >"$tmp/state.yaml"
"$rollcall" render --state "$tmp/state.yaml" --namespace shop <"$tmp/app.yaml" \
  >"$tmp/state.out" 2>"$tmp/state.err"
looked_up="$(hash_of "$tmp/lookup.out")"
from_state="$(hash_of "$tmp/state.out")"
[[ $status == 0 && "$looked_up" == sha256:* && "$looked_up" == "$from_state" ]] &&
  ! grep -q unresolved-reference "$tmp/lookup.err"
check $? "exit $status, lookup hash '$looked_up', --state hash '$from_state'" "$(cat "$tmp/lookup.err")"

kc patch -n shop secret external-db --type=merge -p '{"stringData":{"password":"two"}}' >/dev/null
KUBECONFIG="$lookup_user" "$rollcall" render --lookup kubectl --namespace shop \
  <"$tmp/app.yaml" >"$tmp/lookup2.out" 2>"$tmp/lookup2.err"
status=$?
changed="$(hash_of "$tmp/lookup2.out")"
[[ $status == 0 && "$changed" == sha256:* && "$changed" != "$looked_up" ]]
check $? "exit $status, hash '$looked_up' -> '$changed'" "$(cat "$tmp/lookup2.err")"

# A Role of its own that lacks only `get secrets`: the lookup Role for ConfigMaps.
kc apply -n shop -f - >/dev/null <<'EOF'
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: configmaps-only}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [get]}
EOF
kc create rolebinding -n shop configmaps-only --role=configmaps-only --user=configmaps-only >/dev/null
configmaps_only="$(ROLLCALL_CLUSTER_DIR="$tmp/cluster" bash "$root/scripts/cluster.sh" user configmaps-only)"
KUBECONFIG="$configmaps_only" "$rollcall" render --lookup kubectl --namespace shop \
  <"$tmp/app.yaml" >"$tmp/denied.out" 2>"$tmp/denied.err"
status=$?
[[ $status == 2 && ! -s "$tmp/denied.out" ]] &&
  grep -q 'cannot get resource "secrets"' "$tmp/denied.err" &&
  grep -q 'forbidden' "$tmp/denied.err" && grep -q 'docs/security.md' "$tmp/denied.err"
check $? "exit $status, stdout $(wc -c <"$tmp/denied.out") bytes" "$(cat "$tmp/denied.err")"
tap_diag "what the user is told:" "$(cat "$tmp/denied.err")"

roll_user="$(user_with roll-user rollcall-roll)"
cat >"$tmp/rotate.yaml" <<'EOF'
apiVersion: v1
kind: Secret
metadata: {name: external-db, namespace: shop}
stringData: {password: three, username: app}
EOF
KUBECONFIG="$roll_user" "$rollcall" roll --apply "$tmp/rotate.yaml" -n shop --timeout 2m \
  >"$tmp/roll.out" 2>"$tmp/roll.err"
status=$?
[[ $status == 0 ]] && grep -q '^rolled  *deployment/shop/api' "$tmp/roll.out" &&
  grep -q 'observed ReplicaSet' "$tmp/roll.out"
check $? "exit $status" "$(cat "$tmp/roll.out" "$tmp/roll.err")"

before="$(jsonpath shop secret external-db '{.metadata.resourceVersion}')"
sed 's/three/four/' "$tmp/rotate.yaml" >"$tmp/rotate2.yaml"
KUBECONFIG="$nobody" "$rollcall" roll --apply "$tmp/rotate2.yaml" -n shop --timeout 30s \
  >"$tmp/roll2.out" 2>"$tmp/roll2.err"
status=$?
after="$(jsonpath shop secret external-db '{.metadata.resourceVersion}')"
[[ $status == 2 && "$before" == "$after" ]] && grep -q 'forbidden' "$tmp/roll2.err" &&
  grep -q 'docs/security.md' "$tmp/roll2.err"
check $? "exit $status, Secret resourceVersion $before -> $after" "$(cat "$tmp/roll2.out" "$tmp/roll2.err")"
tap_diag "what the user is told:" "$(cat "$tmp/roll2.err")"

consumers_user="$(user_with consumers-user rollcall-consumers)"
KUBECONFIG="$consumers_user" kc get -n shop deployments,statefulsets,daemonsets,cronjobs,jobs,pods -o yaml \
  2>"$tmp/get.err" | "$rollcall" consumers external-db -n shop - >"$tmp/consumers.out" 2>"$tmp/consumers.err"
[[ "$(grep -c '^deployment/shop/api ' "$tmp/consumers.out")" == 1 ]]
check $? "$(cat "$tmp/get.err" "$tmp/consumers.out" "$tmp/consumers.err")"

KUBECONFIG="$nobody" kc get -n shop deployments,statefulsets,daemonsets,cronjobs,jobs,pods -o yaml \
  2>"$tmp/get2.err" | "$rollcall" consumers external-db -n shop - >"$tmp/consumers2.out" 2>"$tmp/consumers2.err"
grep -q 'cannot list resource "deployments"' "$tmp/get2.err" && ! grep -q '^deployment/' "$tmp/consumers2.out"
check $? "$(cat "$tmp/get2.err" "$tmp/consumers2.out" "$tmp/consumers2.err")"

ok=1
evidence=()
for hostile in '-rf' 'a;b' '../x' $'a\e[2Jb'; do
  out="$(ROLLCALL_CLUSTER_DIR="$tmp/cluster" bash "$root/scripts/cluster.sh" user "$hostile" 2>&1)" &&
    ok=0
  [[ "$out" == *"user names are"* && "$out" != *$'\e'* ]] || ok=0
  [[ -e "$tmp/cluster/pki/user-$hostile.crt" ]] && ok=0
  evidence+=("$(printf %q "$hostile"): $(printf %q "$out")")
done
((ok))
check $? "${evidence[@]}"

[[ $failed == 0 ]]
