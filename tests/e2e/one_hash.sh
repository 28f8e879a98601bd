#!/usr/bin/env bash
# End-to-end test: one hash, whatever path (docs/hashing.md). The hash of a pod template
# must not depend on the client that ran rollcall nor on whether or how it was told the
# release namespace, when the objects name none: a team that mixes paths, or adds a
# flag later, must not roll every workload once for nothing.
#
# Usage: one_hash.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. For charts/webapp (Deployment demo-web) and charts/hook-sources (Deployment
# demo-server, whose Secret and ConfigMap are pre-install,pre-upgrade hooks), release
# demo in namespace demo, each path's config-hash against the pipe's
# (`helm template demo CHART -n demo | rollcall render`, no namespace given):
#   Helm 3 --post-renderer without and with --post-renderer-args=--namespace=demo,
#   helm rollcall under Helm 3 and Helm 4, the Helm 4 post-renderer plugin,
#   the Argo CD plugin's generate (integrations/argocd/plugin.yaml) and kustomize
#   (kubectl kustomize --enable-alpha-plugins with the shipped exec plugin and the
#   kustomization's namespace: demo).
# Helm 3 never passes hooks to a post-renderer, so bare Helm 3 on hook-sources cannot
# hash the hooks: that path is checked to differ, and lint to say so.
# Helm 3, Helm 4 and kubectl come from SOURCE_ROOT/.cache (scripts/fetch-helm.sh); a path
# whose client is missing is skipped.
set -uo pipefail

usage="usage: one_hash.sh ROLLCALL_BINARY SOURCE_ROOT"
rollcall="${1:?$usage}"
root="${2:?$usage}"
rollcall="$(cd "$(dirname "$rollcall")" && pwd)/$(basename "$rollcall")"
root="$(cd "$root" && pwd)"
# shellcheck source=SCRIPTDIR/../lib/tap.sh
source "$root/tests/lib/tap.sh" || { echo "Bail out! cannot read $root/tests/lib/tap.sh"; exit 1; }
# shellcheck source=SCRIPTDIR/../lib/rendered.sh
source "$root/tests/lib/rendered.sh" || { echo "Bail out! cannot read $root/tests/lib/rendered.sh"; exit 1; }
# shellcheck source=SCRIPTDIR/../lib/helm.sh
source "$root/tests/lib/helm.sh" || { echo "Bail out! cannot read $root/tests/lib/helm.sh"; exit 1; }
helm3="${ROLLCALL_HELM3:-$root/.cache/helm/v3/helm}"
helm4="${ROLLCALL_HELM4:-$root/.cache/helm/v4/helm}"
kubectl="${ROLLCALL_KUBECTL:-$root/.cache/kubectl/kubectl}"

# chart|Deployment the hash is read from
charts=("webapp|Deployment/demo-web" "hook-sources|Deployment/demo-server")
paths=(
  "the pipe with --namespace demo"
  "Helm 3 --post-renderer rollcall"
  "Helm 3 --post-renderer rollcall --post-renderer-args=--namespace=demo"
  "helm rollcall template under Helm 3"
  "helm rollcall template under Helm 4"
  "Helm 4 --post-renderer rollcall (the plugin)"
  "Argo CD: the rollcall-helm plugin's generate"
  "kubectl kustomize with the rollcall exec plugin"
)
checks=()
for entry in "${charts[@]}"; do
  chart="${entry%%|*}"
  checks+=("$chart: the pipe without a namespace gives ${entry#*|} a hash")
  for i in "${!paths[@]}"; do
    if [[ "$chart" == hook-sources && ($i == 1 || $i == 2) ]]; then
      checks+=("$chart: ${paths[$i]}: not the pipe's hash, and no hook in config-sources (Helm 3 passes a post-renderer no hooks)")
    else
      checks+=("$chart: ${paths[$i]}: the pipe's hash")
    fi
  done
done
checks+=("lint of charts/hook-sources names both hook sources bare Helm 3 hides (helm3-hook-source)")
echo "1..${#checks[@]}"
if [[ ! -x "$helm3" ]]; then
  skip_rest "Helm 3 not found at $helm3 (run scripts/fetch-helm.sh)"
  exit 0
fi
tap_python

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
helm_sandbox "$tmp"
mkdir -p "$tmp/bin" "$tmp/bin3" "$tmp/bin4"
ln -s "$rollcall" "$tmp/bin/rollcall"
ln -s "$helm3" "$tmp/bin3/helm"
[[ -x "$helm4" ]] && ln -s "$helm4" "$tmp/bin4/helm"
export PATH="$tmp/bin:$PATH"

# Helm homes of their own: the legacy plugin (helm rollcall) for both Helms, and Helm
# 4's post-renderer plugin in a folder of Helm 4's own (docs/helm.md).
h3() { HELM_DATA_HOME="$tmp/h3" "$helm3" "$@"; }
h4() { HELM_DATA_HOME="$tmp/h4" "$helm4" "$@"; }
h3 plugin install "$root/integrations/helm3-plugin" >/dev/null 2>&1
if [[ -x "$helm4" ]]; then
  h4 plugin install "$root/integrations/helm3-plugin" >/dev/null 2>&1
  mkdir -p "$tmp/h4-own"
  ln -s "$root/integrations/helm-plugin" "$tmp/h4-own/rollcall"
fi

# The Argo CD plugin's generate script, run as argocd-cmp-server runs it (bash -c, in a
# copy of the source folder, the Application's name and namespace in the environment).
"$python" - "$root/integrations/argocd/plugin.yaml" >"$tmp/generate.sh" <<'PY'
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
spec = k8s_json.load_all(sys.argv[1])[0]["spec"]["generate"]
assert spec["command"] == ["bash", "-c"], spec["command"]
print(spec["args"][0])
PY

# run_path pipe|PATH_INDEX CHART OUT: writes the stream that path gives to OUT (stderr to
# OUT.err); returns its exit status, 77 when its client is missing.
run_path() {
  local path="$1" chart="$root/charts/$2" out="$3"
  case "$path" in
    pipe) h3 template demo "$chart" -n demo | rollcall render ;;
    0) h3 template demo "$chart" -n demo | rollcall render --namespace demo ;;
    1) h3 template demo "$chart" -n demo --post-renderer rollcall ;;
    2) h3 template demo "$chart" -n demo --post-renderer rollcall --post-renderer-args=--namespace=demo ;;
    3) h3 rollcall template demo "$chart" -n demo ;;
    4) [[ -x "$helm4" ]] || return 77
      h4 rollcall template demo "$chart" -n demo ;;
    5) [[ -x "$helm4" ]] || return 77
      HELM_PLUGINS="$tmp/h4-own" h4 template demo "$chart" -n demo --post-renderer rollcall ;;
    6) rm -rf "$tmp/app" && cp -r "$chart" "$tmp/app" &&
      (cd "$tmp/app" && PATH="$tmp/bin3:$PATH" ARGOCD_APP_NAME=demo ARGOCD_APP_NAMESPACE=demo \
        TMPDIR="$tmp" bash -c "$(cat "$tmp/generate.sh")") ;;
    7) [[ -x "$kubectl" ]] || return 77
      rm -rf "$tmp/kz" && mkdir -p "$tmp/kz" &&
        h3 template demo "$chart" -n demo >"$tmp/kz/rendered.yaml" &&
        printf 'apiVersion: rollcall.dev/v1\nkind: Rollcall\nmetadata:\n  name: rollcall\n' >"$tmp/kz/rollcall.yaml" &&
        printf 'namespace: demo\nresources:\n- rendered.yaml\ntransformers:\n- rollcall.yaml\n' >"$tmp/kz/kustomization.yaml" &&
        KUSTOMIZE_PLUGIN_HOME="$root/integrations/kustomize/plugin" \
          "$kubectl" kustomize --enable-alpha-plugins "$tmp/kz" ;;
  esac >"$out" 2>"$out.err"
}

for entry in "${charts[@]}"; do
  chart="${entry%%|*}"
  workload="${entry#*|}"
  run_path pipe "$chart" "$tmp/$chart-pipe.yaml"
  status=$?
  want="$(field "$tmp/$chart-pipe.yaml" "$workload" 2)"
  sources="$(field "$tmp/$chart-pipe.yaml" "$workload" 3)"
  [[ $status == 0 && "$want" =~ $hash_re ]]
  check $? "exit $status, $workload hash $want ($sources)" "$(cat "$tmp/$chart-pipe.yaml.err")"
  for i in "${!paths[@]}"; do
    run_path "$i" "$chart" "$tmp/$chart-$i.yaml"
    status=$?
    if [[ $status == 77 ]]; then
      skip "client not found (run scripts/fetch-helm.sh)"
      continue
    fi
    got="$(field "$tmp/$chart-$i.yaml" "$workload" 2)"
    got_sources="$(field "$tmp/$chart-$i.yaml" "$workload" 3)"
    if [[ "$chart" == hook-sources && ($i == 1 || $i == 2) ]]; then
      [[ $status == 0 && "$got" != "$want" && "$got_sources" != *secret/demo-db* ]]
    else
      [[ $status == 0 && "$got" == "$want" ]]
    fi
    check $? "exit $status; hash $got ($got_sources); the pipe's $want ($sources)" \
      "$(head -c 2000 "$tmp/$chart-$i.yaml.err")"
  done
done

# And lint names what bare Helm 3 misses.
"$rollcall" lint --helm "$helm3" "$root/charts/hook-sources" >"$tmp/lint.out" 2>&1
status=$?
[[ $status == 0 && "$(grep -c 'warning\[helm3-hook-source\]' "$tmp/lint.out")" == 2 ]]
check $? "exit $status" "$(cat "$tmp/lint.out")"

[[ $failed == 0 ]]
