#!/usr/bin/env bash
# Checks the oracle's restatement of kubectl's reading (tests/oracle/k8sread) against
# the real code (tests/oracle/kubectlread: k8s.io/cli-runtime and apimachinery at the
# cluster suite's release), over the oracle's inputs and generated streams
# (docs/yaml.md, "The oracle"). Run by hand after changing k8sread; not part of the
# default build or test suite, since it needs Go 1.26 and the k8s.io modules (from the
# module proxy, or the local module cache; a first build takes a few minutes).
#
#   bash tests/oracle/crosscheck.sh [GENERATED [SEED]]     # default 2000 streams, seed 1
#
# Environment: BUILD_DIR (default build: its tests/oracle/k8sread is used when built,
# else k8sread is built into the work folder with Go 1.19, as meson builds it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
build="${BUILD_DIR:-build}"
work="$build/crosscheck"
mkdir -p "$work"
go126="$(command -v go || true)"
[[ -x /usr/local/go/bin/go ]] && go126=/usr/local/go/bin/go
[[ -n "$go126" ]] || { echo "Go 1.26 is needed to build tests/oracle/kubectlread" >&2; exit 2; }
(cd tests/oracle/kubectlread && GOFLAGS=-mod=readonly CGO_ENABLED=0 GOCACHE="$root/$work/gocache" \
  "$go126" build -trimpath -o "$root/$work/kubectlread" .)
k8sread="$build/tests/oracle/k8sread"
if [[ ! -x "$k8sread" || tests/oracle/k8sread/main.go -nt "$k8sread" ]]; then
  k8sread="$work/k8sread"
  GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= GOPROXY=off CGO_ENABLED=0 \
    GOCACHE="$root/$work/gocache-1.19" /usr/lib/go-1.19/bin/go build -trimpath -o "$k8sread" \
    tests/oracle/k8sread/main.go
fi
exec python3 tests/oracle/crosscheck.py --source-root "$root" --k8sread "$k8sread" \
  --kubectlread "$work/kubectlread" --generated "${1:-2000}" --seed "${2:-1}"
