#!/usr/bin/env bash
# APS-4720 as a real sequence on a real control plane (scripts/cluster.sh), with Helm 3
# and Helm 4, on charts/edge-gateway: install, stage with --reuse-values (a one-time
# token, the bootstrap Job writing the staging Secret), promote with --reuse-values (the
# token kept, the Job's template changed), then the token cleared.
#
# Without rollcall the API server refuses the promote: the kept Job's pod template
# changed, and a Job's template is immutable. With rollcall (--previous-release: the Job
# that already ran is written back as it ran) the promote succeeds, the Job is the same
# object (same uid) and runs no new pod, and the gateway rolls to the promoted
# certificate. Clearing the token with --set-string stops rendering the Job: Helm removes
# it, and nothing runs again.
#
# Usage: edge_gateway.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. Helm comes from SOURCE_ROOT/.cache/helm (scripts/fetch-helm.sh).
set -uo pipefail

# shellcheck source=SCRIPTDIR/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || { echo "Bail out! cannot read lib.sh"; exit 1; }
cluster_test_init "$@"
chart="$root/charts/edge-gateway"
pem="$root/testdata/jobs/edge-gateway.pem"

t1_hash="$(printf '%s' T1 | sha256sum | cut -c1-8)"
job="edge-boot-$t1_hash"

checks=()
for major in 3 4; do
  checks+=(
    "Helm $major without rollcall: install and stage (token T1, stageSecret=true): exit 0, Job $job completes"
    "Helm $major without rollcall: promote with --reuse-values: the API server refuses it, spec.template of Job $job is immutable"
    "Helm $major through rollcall: install and stage: exit 0, Job $job completes"
    "Helm $major through rollcall: promote with --reuse-values: exit 0, Job $job the same object (same uid, one pod, never re-run), the gateway rolled to a new ReplicaSet"
    "Helm $major through rollcall: promote again with --set-string bootstrap.tls.token=\"\": exit 0, Job $job removed by Helm, no Job and no bootstrap pod created, the gateway not rolled"
  )
done
echo "1..${#checks[@]}"

helm3="$root/.cache/helm/v3/helm"
helm4="$root/.cache/helm/v4/helm"
[[ -x "$helm3" && -x "$helm4" ]] || { skip_rest "no Helm in .cache/helm (scripts/fetch-helm.sh)"; exit 0; }
cluster_start
HELM_DATA_HOME="$tmp/helm-4" "$helm4" plugin install "$root/integrations/helm-plugin" \
  >"$tmp/plugin.out" 2>&1 || { echo "Bail out! helm 4 plugin install: $(cat "$tmp/plugin.out")"; exit 1; }

# upgrade MAJOR NS WITH-ROLLCALL ARGS...: helm upgrade --install edge in NS, output in
# $tmp/helm.out. Through rollcall, render reads the release being upgraded itself
# (--previous-release edge, with this test's helm).
upgrade() {
  local major="$1" ns="$2" with="$3"
  shift 3
  local helm="$helm3"
  ((major == 4)) && helm="$helm4"
  local args=(upgrade --install edge "$chart" --namespace "$ns" --create-namespace --wait
    --timeout 2m "$@")
  if [[ "$with" == yes ]]; then
    local renderer=rollcall
    ((major == 3)) && renderer="$tmp/bin/rollcall"
    args+=(--post-renderer "$renderer" --post-renderer-args="--namespace=$ns"
      --post-renderer-args=--previous-release=edge --post-renderer-args="--helm=$helm")
  fi
  HELM_DATA_HOME="$tmp/helm-$major" "$helm" "${args[@]}" >"$tmp/helm.out" 2>&1
}

job_complete() {
  [[ "$(jsonpath "$1" job "$job" '{.status.succeeded}')" == 1 ]]
}
job_uid() { jsonpath "$1" job "$job" '{.metadata.uid}' 2>/dev/null; }
bootstrap_pods() {
  kc -n "$1" get pods -l app.kubernetes.io/component=bootstrap -o name 2>/dev/null | wc -l
}
gateway_replicasets() {
  replicasets "$1" app.kubernetes.io/component=gateway | awk '{print $2}' | tr '\n' ' '
}

stage=(--reuse-values --set bootstrap.tls.token=T1 --set bootstrap.stageSecret=true)
promote=(--reuse-values --set bootstrap.stageSecret=false --set rotation.promote=true
  --set-file "rotation.certificatePem=$pem")
clear_token=(--reuse-values --set-string 'bootstrap.tls.token=')

for major in 3 4; do
  for with in no yes; do
    ns="edge-h$major-$with"
    upgrade "$major" "$ns" "$with"
    s1=$?
    upgrade "$major" "$ns" "$with" "${stage[@]}"
    s2=$?
    eventually 60 job_complete "$ns"
    done_status=$?
    uid="$(job_uid "$ns")"
    [[ $s1 == 0 && $s2 == 0 && $done_status == 0 && "$(bootstrap_pods "$ns")" == 1 ]]
    check $? "install exited $s1, stage exited $s2: $(tail -n 5 "$tmp/helm.out")" \
      "$(kc -n "$ns" get jobs,pods 2>&1)"

    rs_before="$(gateway_replicasets "$ns")"
    upgrade "$major" "$ns" "$with" "${promote[@]}"
    status=$?
    if [[ "$with" == no ]]; then
      # The API server's own words, kept in the log for docs/cluster.md.
      grep -q "Job.batch \"$job\" is invalid" "$tmp/helm.out" &&
        grep -q 'spec.template: Invalid value' "$tmp/helm.out" &&
        grep -q 'field is immutable' "$tmp/helm.out" && [[ $status != 0 ]]
      check $? "exit $status" "$(cat "$tmp/helm.out")"
      # The template as JSON in the middle left out: what docs/cluster.md quotes.
      tap_diag "Helm $major, the API server's refusal: $(grep -m1 'Job.batch' "$tmp/helm.out" |
        sed -E 's/(Invalid value: )[{].*[}](: field is immutable)/\1{…}\2/')"
      continue
    fi
    eventually 60 settled "$ns" edge-gateway
    rs_after="$(gateway_replicasets "$ns")"
    [[ $status == 0 && "$(job_uid "$ns")" == "$uid" && "$(bootstrap_pods "$ns")" == 1 &&
      "$(wc -w <<<"$rs_after")" == $(($(wc -w <<<"$rs_before") + 1)) ]]
    check $? "exit $status: $(tail -n 5 "$tmp/helm.out")" "job uid $uid -> $(job_uid "$ns")" \
      "gateway ReplicaSets: $rs_before -> $rs_after" "$(kc -n "$ns" get jobs,pods 2>&1)"

    rs_before="$rs_after"
    upgrade "$major" "$ns" "$with" "${clear_token[@]}"
    status=$?
    sleep 2
    jobs="$(kc -n "$ns" get jobs -o name 2>&1)"
    [[ $status == 0 && -z "$jobs" && "$(bootstrap_pods "$ns")" -le 1 &&
      "$(gateway_replicasets "$ns")" == "$rs_before" ]]
    check $? "exit $status: $(tail -n 5 "$tmp/helm.out")" "jobs: '$jobs'" \
      "gateway ReplicaSets: $rs_before -> $(gateway_replicasets "$ns")"
  done
done

[[ $failed == 0 ]]
