#!/usr/bin/env bash
# On a real control plane (scripts/cluster.sh): `helm upgrade --install --wait` of
# charts/webapp under Helm 3 and Helm 4, through rollcall (the plain --post-renderer and
# `helm rollcall`) and without it. What is asserted is what the API server shows after
# each upgrade: the Deployment's ReplicaSets (by pod-template-hash, the Deployment
# controller's own name for a template) and the uids of its pods.
#
# For each way of running Helm, one release in a namespace of its own:
#   install                               one ReplicaSet, 2 of 2 pods available
#   db.password changed (the Deployment   through rollcall: a new ReplicaSet, available,
#   reads it through secretKeyRef)        every pod new; without rollcall: the same
#                                         ReplicaSet and pods, the Secret changed
#                                         ("reported success, changed nothing")
#   db.username changed (a key only the   the same ReplicaSet, the same pods; through
#   CronJob and the hook read)            rollcall the CronJob's hash moves
#   a label added to the Secret           the same ReplicaSet, the same pods
#   the same values again                 the same ReplicaSet, the same pods
#
# Usage: helm_upgrades.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. Helm comes from SOURCE_ROOT/.cache/helm (scripts/fetch-helm.sh).
set -uo pipefail

# shellcheck source=SCRIPTDIR/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || { echo "Bail out! cannot read lib.sh"; exit 1; }
cluster_test_init "$@"
helm3="$root/.cache/helm/v3/helm"
helm4="$root/.cache/helm/v4/helm"
chart="$root/charts/webapp"

# The ways of running Helm: name, helm, how rollcall is asked for.
ways=(
  "helm3-post-renderer|$helm3|post-renderer"
  "helm3-helm-rollcall|$helm3|helm-rollcall"
  "helm3-without-rollcall|$helm3|none"
  "helm4-post-renderer|$helm4|post-renderer"
  "helm4-helm-rollcall|$helm4|helm-rollcall"
  "helm4-without-rollcall|$helm4|none"
)
steps=(
  "install: exit 0, one ReplicaSet, 2 of 2 pods available"
  "db.password changed"
  "db.username changed (no key the Deployment reads): the same ReplicaSet and pods (through rollcall, the CronJob's hash moves)"
  "a label added to the Secret: the same ReplicaSet and pods"
  "the same values again: the same ReplicaSet and pods"
)
checks=()
for way in "${ways[@]}"; do
  name="${way%%|*}"
  for step in "${steps[@]}"; do
    if [[ "$step" == "db.password changed" ]]; then
      if [[ "$way" == *"|none" ]]; then
        step="$step, without rollcall: the same ReplicaSet and pods while the Secret holds the new password (the deploy that changed nothing)"
      else
        step="$step: a new ReplicaSet carrying a new config hash, 2 of 2 available, every pod new, the old ReplicaSet at 0"
      fi
    fi
    checks+=("$name: $step")
  done
done
echo "1..${#checks[@]}"

[[ -x "$helm3" && -x "$helm4" ]] || { skip_rest "no Helm in .cache/helm (scripts/fetch-helm.sh)"; exit 0; }
cluster_start

# helm_run WAY NAMESPACE ARGS...: `helm upgrade --install demo charts/webapp` in
# NAMESPACE with --wait, the way WAY says; output in $tmp/helm.out.
helm_run() {
  local way="$1" ns="$2"
  shift 2
  local name helm how
  IFS='|' read -r name helm how <<<"$way"
  local data="$tmp/helm-${name%%-*}"
  local args=(upgrade --install demo "$chart" --namespace "$ns" --create-namespace --wait
    --timeout 3m "$@")
  case "$how" in
    post-renderer)
      HELM_DATA_HOME="$data" "$helm" "${args[@]}" --post-renderer rollcall \
        --post-renderer-args="--namespace=$ns" ;;
    helm-rollcall) HELM_DATA_HOME="$data" "$helm" rollcall "${args[@]}" ;;
    none) HELM_DATA_HOME="$data" "$helm" "${args[@]}" ;;
  esac >"$tmp/helm.out" 2>&1
}

# Helm 3 reads the legacy plugin only; Helm 4 the postrenderer/v1 plugin and the cli/v1
# one beside it (docs/helm.md). Each Helm its own data folder.
HELM_DATA_HOME="$tmp/helm-helm3" "$helm3" plugin install "$root/integrations/helm3-plugin" \
  >"$tmp/plugins.out" 2>&1 || { echo "Bail out! helm 3 plugin install: $(cat "$tmp/plugins.out")"; exit 1; }
for plugin in helm-plugin helm4-cli-plugin; do
  HELM_DATA_HOME="$tmp/helm-helm4" "$helm4" plugin install "$root/integrations/$plugin" \
    >"$tmp/plugins.out" 2>&1 || { echo "Bail out! helm 4 plugin install $plugin: $(cat "$tmp/plugins.out")"; exit 1; }
done

selector="app.kubernetes.io/component=web"

# state NS: the Deployment's ReplicaSets and its pods' uids, for comparing two moments.
state() { replicasets "$1" "$selector"; echo "pods: $(pod_uids "$1" "$selector")"; }
template_hash() {
  jsonpath "$1" deployment demo-web '{.spec.template.metadata.annotations.rollcall\.dev/config-hash}'
}
cronjob_hash() {
  jsonpath "$1" cronjob demo-cleanup '{.spec.jobTemplate.spec.template.metadata.annotations.rollcall\.dev/config-hash}'
}
secret_field() {
  jsonpath "$1" secret demo-db "{.data.$2}" | base64 -d
}

# upgrade_step WAY NAMESPACE ARGS...: helm_run, its exit status in $status, then the
# Deployment given time to settle.
upgrade_step() {
  helm_run "$@"
  status=$?
  eventually 60 settled "$2" demo-web
}

# same_as_before NS BEFORE STATUS: helm exited 0, the Deployment settled, and its
# ReplicaSets and pods are exactly BEFORE.
same_as_before() {
  local ns="$1" before="$2" status="$3" after
  eventually 60 settled "$ns" demo-web
  after="$(state "$ns")"
  [[ "$status" == 0 && "$after" == "$before" ]]
  check $? "helm exited $status: $(tail -n 5 "$tmp/helm.out")" "before:" "$before" "after:" "$after"
}

for way in "${ways[@]}"; do
  IFS='|' read -r name helm how <<<"$way"
  ns="${name//_/-}"
  sets=(--set db.password=first)

  upgrade_step "$way" "$ns" "${sets[@]}"
  before="$(state "$ns")"
  hash0="$(template_hash "$ns")"
  [[ $status == 0 && "$(replicasets "$ns" "$selector" | wc -l)" == 1 &&
    "$before" == *"replicas=2 available=2"* ]] &&
    { [[ $how == none && -z "$hash0" ]] || [[ $how != none && "$hash0" == sha256:* ]]; }
  check $? "helm exited $status: $(tail -n 5 "$tmp/helm.out")" "$before" "template hash: '$hash0'"

  sets=(--set db.password=second)
  upgrade_step "$way" "$ns" "${sets[@]}"
  after="$(state "$ns")"
  password="$(secret_field "$ns" password)"
  if [[ $how == none ]]; then
    [[ $status == 0 && "$after" == "$before" && "$password" == second ]]
    check $? "helm exited $status" "before:" "$before" "after:" "$after" "password in the Secret: $password"
  else
    hash1="$(template_hash "$ns")"
    old_pods="${before##*pods: }"
    new_pods="${after##*pods: }"
    disjoint=1
    for uid in $old_pods; do [[ " $new_pods " == *" $uid "* ]] && disjoint=0; done
    [[ $status == 0 && "$password" == second && "$hash1" == sha256:* && "$hash1" != "$hash0" &&
      "$(replicasets "$ns" "$selector" | wc -l)" == 2 && $disjoint == 1 &&
      "$(replicasets "$ns" "$selector" | head -n 1)" == *"revision=1 replicas=0 available=" &&
      "$(replicasets "$ns" "$selector" | tail -n 1)" == *"revision=2 replicas=2 available=2" ]]
    check $? "helm exited $status: $(tail -n 5 "$tmp/helm.out")" "before:" "$before" "after:" "$after" \
      "hash $hash0 -> $hash1"
  fi
  before="$(state "$ns")"
  cron0="$(cronjob_hash "$ns")"

  sets+=(--set db.username=someone-else)
  helm_run "$way" "$ns" "${sets[@]}"
  status=$?
  cron1="$(cronjob_hash "$ns")"
  if [[ $how != none && ( -z "$cron1" || "$cron1" == "$cron0" ) ]]; then
    status="$status (the CronJob's hash did not move: '$cron0' -> '$cron1')"
  fi
  same_as_before "$ns" "$before" "$status"

  sets+=(--set db.labels.team=payments)
  helm_run "$way" "$ns" "${sets[@]}"
  status=$?
  label="$(jsonpath "$ns" secret demo-db '{.metadata.labels.team}')"
  [[ "$label" == payments ]] || status="$status (the Secret's label team is '$label')"
  same_as_before "$ns" "$before" "$status"

  helm_run "$way" "$ns" "${sets[@]}"
  same_as_before "$ns" "$before" "$?"
done

[[ $failed == 0 ]]
