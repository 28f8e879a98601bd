# Helpers for the tests on a real control plane (tests/cluster/*.sh). Each test starts
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || { echo "Bail out! …"; exit 1; }
#   cluster_test_init "$@"
#
# cluster_start brings up a cluster of this test's own (scripts/cluster.sh up, its state
# in $tmp/cluster, going down with this script's process however it ends), sets
# KUBECONFIG, and points kubectl ($kubectl, also exported as KUBECTL for rollcall) at
# the kubectl built at the cluster's release. Every question to the cluster goes
# through the real API server; nothing here models what a controller would do.
# shellcheck shell=bash
# shellcheck disable=SC2154  # root, tmp and failed are the test script's

# cluster_test_init ROLLCALL_BINARY SOURCE_ROOT: what every cluster test does first.
# Sets rollcall and root (absolute), sources tests/lib/tap.sh, makes $tmp (the working
# directory, removed at exit, with this test's cluster stopped), puts the rollcall under
# test first on PATH as `rollcall` (Helm 3's --post-renderer and the Helm plugins run it
# from there), and unsets what in the environment would change Helm's or rollcall's
# behaviour.
cluster_test_init() {
  local usage
  usage="usage: $(basename "$0") ROLLCALL_BINARY SOURCE_ROOT"
  [[ $# == 2 ]] || { echo "Bail out! $usage"; exit 1; }
  rollcall="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  root="$(cd "$2" && pwd)"
  # shellcheck source=SCRIPTDIR/../lib/tap.sh
  source "$root/tests/lib/tap.sh" || { echo "Bail out! cannot read $root/tests/lib/tap.sh"; exit 1; }
  tmp="$(mktemp -d)"
  trap 'cluster_stop; rm -rf "$tmp"' EXIT
  unset HELM_NAMESPACE HELM_BIN ROLLCALL_REPORT ROLLCALL_HMAC_KEY_FILE ROLLCALL
  cd "$tmp" || exit 1
  mkdir -p bin
  ln -s "$rollcall" bin/rollcall
  export PATH="$tmp/bin:$PATH"
  export HELM_CONFIG_HOME="$tmp/helm-config" HELM_CACHE_HOME="$tmp/helm-cache"
}

# cluster_start: or bails out (with the cluster's own words) when it cannot start.
cluster_start() {
  if ! command -v go >/dev/null 2>&1 && ! bash "$root/scripts/cluster.sh" built; then
    # .ci/run sets ROLLCALL_CLUSTER_REQUIRED=1: there a missing Go is a failure.
    if [[ "${ROLLCALL_CLUSTER_REQUIRED:-}" == 1 ]]; then
      echo "Bail out! no Go to build the control plane (scripts/cluster.sh needs Go 1.26)"
      exit 1
    fi
    skip_rest "no Go to build the control plane (scripts/cluster.sh needs Go 1.26)"
    exit 0
  fi
  local out
  if ! out="$(ROLLCALL_CLUSTER_DIR="$tmp/cluster" ROLLCALL_CLUSTER_OWNER=$$ \
    bash "$root/scripts/cluster.sh" up 2>"$tmp/cluster-up.err")"; then
    echo "Bail out! scripts/cluster.sh up failed: $(tail -n 20 "$tmp/cluster-up.err" | tr '\n' ' ')"
    exit 1
  fi
  eval "$out"
  export KUBECONFIG
  kubectl="$(bash "$root/scripts/cluster.sh" bin)/kubectl"
  export KUBECTL="$kubectl"
  # The cluster's own messages (how long it took) as diagnostics.
  tap_diag "$(cat "$tmp/cluster-up.err")"
}

# cluster_stop: the cluster down and its state gone (also done by the EXIT trap).
cluster_stop() {
  ROLLCALL_CLUSTER_DIR="$tmp/cluster" bash "$root/scripts/cluster.sh" down || true
}

# kc ARGS...: kubectl on this test's cluster.
kc() { "$kubectl" "$@"; }

# jsonpath NS KIND NAME EXPR: one field of one object, through kubectl's JSONPath.
jsonpath() { kc -n "$1" get "$2" "$3" -o "jsonpath=$4"; }

# replicasets NS SELECTOR: the ReplicaSets a label selector finds, one line each:
# "NAME pod-template-hash=H revision=R replicas=N available=A", oldest first.
replicasets() {
  kc -n "$1" get replicasets -l "$2" --sort-by=.metadata.creationTimestamp \
    -o 'jsonpath={range .items[*]}{.metadata.name} pod-template-hash={.metadata.labels.pod-template-hash} revision={.metadata.annotations.deployment\.kubernetes\.io/revision} replicas={.status.replicas} available={.status.availableReplicas}{"\n"}{end}'
}

# pod_uids NS SELECTOR: the uids of the pods a selector finds, sorted, space-separated.
pod_uids() {
  kc -n "$1" get pods -l "$2" -o 'jsonpath={range .items[*]}{.metadata.uid}{"\n"}{end}' |
    sort | tr '\n' ' '
}

# settled NS DEPLOYMENT: the Deployment's controller has seen its latest spec and every
# replica is updated and available, with no old pod left (what `kubectl rollout status`
# waits for).
settled() {
  local out
  out="$(kc -n "$1" get deployment "$2" -o 'jsonpath={.metadata.generation} {.status.observedGeneration} {.spec.replicas} {.status.updatedReplicas} {.status.availableReplicas} {.status.replicas}' 2>/dev/null)" ||
    return 1
  local gen observed want updated available total
  read -r gen observed want updated available total <<<"$out"
  [[ "$gen" == "$observed" && "$updated" == "$want" && "$available" == "$want" && "$total" == "$want" ]]
}

# eventually SECONDS COMMAND...: polls COMMAND every half second until it succeeds;
# fails after SECONDS.
eventually() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS >= deadline)) && return 1
    sleep 0.5
  done
}
