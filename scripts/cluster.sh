#!/usr/bin/env bash
# A real Kubernetes control plane on 127.0.0.1, for the cluster tests (tests/cluster/)
# and for anyone who wants to try rollcall against a real API server:
#
#   eval "$(bash scripts/cluster.sh up)"     # prints: export KUBECONFIG=…
#   kubectl get nodes
#   bash scripts/cluster.sh down             # stops it and removes its state
#
#   bash scripts/cluster.sh build            # only builds the binaries (cached)
#   bash scripts/cluster.sh bin              # builds them if missing, prints their folder
#   bash scripts/cluster.sh built            # exit 0 when they are built already
#   bash scripts/cluster.sh user NAME        # a kubeconfig for user NAME (a client
#                                            # certificate of the cluster's CA), printed
#   bash scripts/cluster.sh status           # is it up? (exit 0 when the API answers)
#
# What runs (docs/cluster.md): etcd, kube-apiserver (RBAC on), kube-controller-manager
# and kube-scheduler, built from Kubernetes' own Go modules at the release pinned in
# tests/cluster/components/go.mod, and kwok, which plays the nodes: it keeps the Node
# objects Ready and takes the pods bound to them to Running and Ready (or Succeeded, for
# a Job's) as tests/cluster/components/kwok-stages.yaml says, with no container runtime.
#
# Every listener is on 127.0.0.1, on ports free when the cluster starts. The state
# (certificates, kubeconfigs, etcd's data, logs, process ids) is in $ROLLCALL_CLUSTER_DIR,
# default .cache/cluster/run; `down` removes it. The built binaries are cached in
# .cache/cluster/bin-<release>-<hash of the module files>, so only a first `up` builds.
#
# ROLLCALL_CLUSTER_OWNER=PID: the cluster goes down by itself once process PID has
# exited (tests set it to their own pid, so nothing outlives a test that was killed).
# ROLLCALL_CLUSTER_AUDIT=1: the API server writes an audit log of every request's
# metadata to $ROLLCALL_CLUSTER_DIR/audit.log (bench/cluster-roll.sh counts requests).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
components="$root/tests/cluster/components"
dir="${ROLLCALL_CLUSTER_DIR:-$root/.cache/cluster/run}"

die() {
  echo "cluster: $*" >&2
  exit 1
}
say() { echo "cluster: $*" >&2; }

# The Kubernetes release the module pins (k8s.io/kubernetes vX.Y.Z).
release() { sed -n 's/^[[:space:]]*k8s.io\/kubernetes \(v[0-9.]*\)$/\1/p' "$components/go.mod"; }

# The linker's flags: the release as Kubernetes' own build stamps it, so that the API
# server reports it (kubectl version, Helm's .Capabilities.KubeVersion and a chart's
# kubeVersion check read it) rather than v0.0.0-master.
ldflags() {
  local r major minor p flags="-s"
  r="$(release)"
  major="${r#v}" && major="${major%%.*}"
  minor="${r#v*.}" && minor="${minor%%.*}"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X $p.gitVersion=$r -X $p.gitMajor=$major -X $p.gitMinor=$minor"
    flags+=" -X $p.gitTreeState=clean"
  done
  echo "$flags"
}

bin_dir() {
  local key
  key="$( (cat "$components/go.mod" "$components/go.sum" "$components/tools.go" \
    "$components"/cmd/*/*.go; ldflags) | sha256sum | cut -c1-12)"
  echo "$root/.cache/cluster/bin-$(release)-$key"
}

programs=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok kubectl)

# Go 1.26 or newer: what k8s.io/kubernetes' go.mod asks for.
check_go() {
  command -v go >/dev/null 2>&1 ||
    die "Go is needed to build the control plane (go 1.26 or newer on PATH)"
  local v
  v="$(go env GOVERSION)"
  if ! [[ "$v" =~ ^go1\.([0-9]+) ]] || ((BASH_REMATCH[1] < 26)); then
    die "Go 1.26 or newer is needed to build the control plane, found $v"
  fi
}

# cmd_built: exit 0 when every program is built already.
cmd_built() {
  local bin p
  bin="$(bin_dir)"
  for p in "${programs[@]}"; do [[ -x "$bin/$p" ]] || return 1; done
}

cmd_build() {
  local bin
  bin="$(bin_dir)"
  cmd_built && { echo "$bin"; return 0; }
  check_go
  say "building ${programs[*]} ($(release)) into $bin; a first build takes minutes"
  local start=$SECONDS tmp="$bin.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  # -mod=readonly: go.sum is the pin, nothing is resolved anew. One `go build` for all,
  # so the packages they share are compiled once.
  (cd "$components" && GOFLAGS="-mod=readonly -buildvcs=false" CGO_ENABLED=0 \
    go build -trimpath -ldflags="$(ldflags)" -o "$tmp/" \
    k8s.io/kubernetes/cmd/kube-apiserver \
    k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler \
    k8s.io/kubernetes/cmd/kubectl \
    sigs.k8s.io/kwok/cmd/kwok \
    ./cmd/etcd) >&2 || { rm -rf "$tmp"; die "go build failed"; }
  rm -rf "$bin"
  mv "$tmp" "$bin"
  say "built in $((SECONDS - start)) s"
  echo "$bin"
}

# free_ports N: N TCP ports of 127.0.0.1 that nothing listens on now.
free_ports() {
  python3 - "$1" <<'PY'
import socket, sys
held = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    held.append(s)
print(" ".join(str(s.getsockname()[1]) for s in held))
PY
}

# cert NAME CN [O] [SAN]: an EC key and a certificate signed by the cluster's CA.
cert() {
  local name="$1" cn="$2" org="${3:-}" san="${4:-}"
  local subj="/CN=$cn"
  [[ -n "$org" ]] && subj="/O=$org$subj"
  openssl ecparam -name prime256v1 -genkey -noout -out "$pki/$name.key" 2>/dev/null
  local ext="$pki/$name.ext"
  {
    echo "basicConstraints=CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    if [[ -n "$san" ]]; then
      echo "extendedKeyUsage=serverAuth"
      echo "subjectAltName=$san"
    else
      echo "extendedKeyUsage=clientAuth"
    fi
  } >"$ext"
  openssl req -new -key "$pki/$name.key" -subj "$subj" -out "$pki/$name.csr" 2>/dev/null
  openssl x509 -req -in "$pki/$name.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" \
    -CAcreateserial -days 30 -extfile "$ext" -out "$pki/$name.crt" 2>/dev/null
  rm -f "$pki/$name.csr" "$ext"
}

# kubeconfig FILE CERT-NAME: a kubeconfig of one cluster, one user and one context.
kubeconfig() {
  local file="$1" name="$2"
  cat >"$file" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: rollcall-test
  cluster:
    server: https://127.0.0.1:$(cat "$dir/api-port")
    certificate-authority: $pki/ca.crt
users:
- name: $name
  user:
    client-certificate: $pki/$name.crt
    client-key: $pki/$name.key
contexts:
- name: rollcall-test
  context:
    cluster: rollcall-test
    user: $name
current-context: rollcall-test
EOF
}

# start NAME ARGS...: runs a component in the background, its output in logs/NAME.log.
start() {
  local name="$1"
  shift
  setsid "$bin/$name" "$@" >"$dir/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$dir/pids/$name"
}

# api_ready: the API server answers /readyz to the admin.
api_ready() {
  curl -sf --max-time 2 --cacert "$pki/ca.crt" --cert "$pki/admin.crt" \
    --key "$pki/admin.key" "https://127.0.0.1:$(cat "$dir/api-port")/readyz" >/dev/null 2>&1
}

# api GET PATH: the admin's GET of an API path, the body on stdout.
api_get() {
  curl -sf --max-time 5 --cacert "$pki/ca.crt" --cert "$pki/admin.crt" \
    --key "$pki/admin.key" "https://127.0.0.1:$(cat "$dir/api-port")$1"
}

# wait_for SECONDS WHAT COMMAND...: polls COMMAND every 0.2 s.
wait_for() {
  local limit="$1" what="$2"
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@"; do
    if ((SECONDS >= deadline)); then
      say "$what: not after $limit s; the last lines of each log:"
      local log
      for log in "$dir"/logs/*.log; do
        echo "--- $log" >&2
        tail -n 15 "$log" >&2
      done
      cmd_down >/dev/null 2>&1 || true
      die "$what: timed out"
    fi
    sleep 0.2
  done
}

node_ready() {
  api_get /api/v1/nodes/rollcall-node-1 2>/dev/null |
    python3 -c 'import json,sys; n=json.load(sys.stdin); sys.exit(0 if any(c["type"]=="Ready" and c["status"]=="True" for c in n.get("status",{}).get("conditions",[])) else 1)' \
      2>/dev/null
}

default_service_account() { api_get /api/v1/namespaces/default/serviceaccounts/default >/dev/null 2>&1; }

cmd_up() {
  [[ -f "$dir/pids/kube-apiserver" ]] && api_ready 2>/dev/null && {
    echo "export KUBECONFIG=$dir/admin.kubeconfig"
    return 0
  }
  command -v openssl >/dev/null || die "openssl is needed for the certificates"
  command -v curl >/dev/null || die "curl is needed to see the API server ready"
  bin="$(cmd_build)"
  rm -rf "$dir"
  mkdir -p "$dir/pki" "$dir/logs" "$dir/pids"
  pki="$dir/pki"
  local t0=$SECONDS
  local etcd_port peer_port api_port
  read -r etcd_port peer_port api_port < <(free_ports 3)
  echo "$api_port" >"$dir/api-port"

  # The CA, the API server's serving certificate, a client certificate per component,
  # and the service accounts' signing key.
  openssl ecparam -name prime256v1 -genkey -noout -out "$pki/ca.key" 2>/dev/null
  openssl req -x509 -new -key "$pki/ca.key" -subj "/CN=rollcall-test-ca" -days 30 \
    -out "$pki/ca.crt" 2>/dev/null
  cert apiserver kube-apiserver "" \
    "IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc"
  cert admin rollcall-admin system:masters
  cert kube-controller-manager system:kube-controller-manager
  cert kube-scheduler system:kube-scheduler
  # kwok writes Node and Pod status for every node it plays: the rights of a kubelet
  # for all of them, more than the Node authorizer gives one kubelet.
  cert kwok kwok system:masters
  openssl ecparam -name prime256v1 -genkey -noout -out "$pki/sa.key" 2>/dev/null
  openssl ec -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
  local c
  for c in admin kube-controller-manager kube-scheduler kwok; do
    kubeconfig "$dir/$c.kubeconfig" "$c"
  done

  if [[ -n "${ROLLCALL_CLUSTER_OWNER:-}" ]]; then
    # Goes down with its owner, however the owner ended.
    (
      while kill -0 "$ROLLCALL_CLUSTER_OWNER" 2>/dev/null; do sleep 1; done
      ROLLCALL_CLUSTER_DIR="$dir" bash "$root/scripts/cluster.sh" down >/dev/null 2>&1
    ) </dev/null >/dev/null 2>&1 &
    disown
  fi

  start etcd --name=rollcall --data-dir="$dir/etcd" \
    --listen-client-urls="http://127.0.0.1:$etcd_port" \
    --advertise-client-urls="http://127.0.0.1:$etcd_port" \
    --listen-peer-urls="http://127.0.0.1:$peer_port" \
    --initial-advertise-peer-urls="http://127.0.0.1:$peer_port" \
    --initial-cluster="rollcall=http://127.0.0.1:$peer_port" \
    --listen-metrics-urls="" --unsafe-no-fsync --log-level=warn

  local audit=()
  if [[ "${ROLLCALL_CLUSTER_AUDIT:-}" == 1 ]]; then
    cat >"$dir/audit-policy.yaml" <<'EOF'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
EOF
    audit=(--audit-policy-file="$dir/audit-policy.yaml" --audit-log-path="$dir/audit.log"
      --audit-log-format=json --audit-log-mode=blocking)
  fi
  start kube-apiserver \
    --etcd-servers="http://127.0.0.1:$etcd_port" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$api_port" \
    --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
    --client-ca-file="$pki/ca.crt" \
    --service-account-issuer=https://kubernetes.default.svc \
    --service-account-key-file="$pki/sa.pub" \
    --service-account-signing-key-file="$pki/sa.key" \
    --service-cluster-ip-range=10.96.0.0/16 \
    --authorization-mode=RBAC \
    --endpoint-reconciler-type=none \
    --profiling=false "${audit[@]}"
  wait_for 120 "the API server ready" api_ready
  echo $((SECONDS - t0)) >"$dir/api-ready-seconds"

  start kube-controller-manager --kubeconfig="$dir/kube-controller-manager.kubeconfig" \
    --bind-address=127.0.0.1 --secure-port=0 --leader-elect=false \
    --root-ca-file="$pki/ca.crt" --service-account-private-key-file="$pki/sa.key" \
    --use-service-account-credentials=true --controllers='*' \
    --kube-api-qps=200 --kube-api-burst=400
  start kube-scheduler --kubeconfig="$dir/kube-scheduler.kubeconfig" \
    --bind-address=127.0.0.1 --secure-port=0 --leader-elect=false
  start kwok --kubeconfig="$dir/kwok.kubeconfig" \
    --config="$components/kwok-stages.yaml" \
    --manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
    --server-address="" --cidr=10.244.0.0/24 --node-ip=127.0.0.1 \
    --node-lease-duration-seconds=40

  # One node, played by kwok.
  curl -sf --max-time 5 --cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key" \
    -H 'Content-Type: application/json' -X POST \
    "https://127.0.0.1:$api_port/api/v1/nodes" -d @- >/dev/null <<'EOF' ||
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "rollcall-node-1",
              "annotations": {"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
              "labels": {"kubernetes.io/hostname": "rollcall-node-1", "kubernetes.io/os": "linux",
                         "kubernetes.io/arch": "amd64", "type": "kwok"}},
 "status": {"allocatable": {"cpu": "1000", "memory": "4Ti", "pods": "10000"},
            "capacity": {"cpu": "1000", "memory": "4Ti", "pods": "10000"}}}
EOF
    die "could not create the node"
  wait_for 60 "the node Ready" node_ready
  # Pods are admitted once their namespace's default ServiceAccount exists.
  wait_for 60 "the default ServiceAccount" default_service_account
  echo $((SECONDS - t0)) >"$dir/ready-seconds"
  say "up in $((SECONDS - t0)) s (API ready after $(cat "$dir/api-ready-seconds") s): $(release) on https://127.0.0.1:$api_port"
  echo "export KUBECONFIG=$dir/admin.kubeconfig"
}

cmd_down() {
  [[ -d "$dir" ]] || return 0
  local p pid
  # The node players and controllers first, etcd last.
  for p in kwok kube-scheduler kube-controller-manager kube-apiserver etcd; do
    [[ -f "$dir/pids/$p" ]] || continue
    pid="$(cat "$dir/pids/$p")"
    kill "$pid" 2>/dev/null || true
  done
  local deadline=$((SECONDS + 15))
  for p in kwok kube-scheduler kube-controller-manager kube-apiserver etcd; do
    [[ -f "$dir/pids/$p" ]] || continue
    pid="$(cat "$dir/pids/$p")"
    while kill -0 "$pid" 2>/dev/null; do
      if ((SECONDS >= deadline)); then
        kill -9 "$pid" 2>/dev/null || true
        break
      fi
      sleep 0.1
    done
  done
  rm -rf "$dir"
}

cmd_user() {
  local name="${1:?usage: cluster.sh user NAME [GROUP]}" group="${2:-}"
  # Checked before openssl sees them; shown quoted (%q), control characters escaped.
  [[ "$name" =~ ^[a-z][a-z0-9-]{0,40}$ ]] ||
    die "user names are [a-z][a-z0-9-]*: $(printf %q "$name")"
  [[ -z "$group" || "$group" =~ ^[a-z][a-z0-9:-]{0,60}$ ]] ||
    die "group names are [a-z][a-z0-9:-]*: $(printf %q "$group")"
  [[ -f "$dir/api-port" ]] || die "no cluster in $dir (cluster.sh up first)"
  pki="$dir/pki"
  cert "user-$name" "$name" "$group"
  kubeconfig "$dir/user-$name.kubeconfig" "user-$name"
  echo "$dir/user-$name.kubeconfig"
}

cmd_status() {
  [[ -f "$dir/api-port" ]] || { echo "cluster: down" >&2; return 1; }
  pki="$dir/pki"
  api_ready || { echo "cluster: not answering" >&2; return 1; }
  echo "cluster: up on https://127.0.0.1:$(cat "$dir/api-port") ($dir)" >&2
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  build) cmd_build >/dev/null ;;
  bin) cmd_build ;;
  built) cmd_built ;;
  user) shift; cmd_user "$@" ;;
  status) cmd_status ;;
  *) die "usage: cluster.sh up|down|build|user NAME [GROUP]|status" ;;
esac
