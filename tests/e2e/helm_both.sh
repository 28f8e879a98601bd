#!/usr/bin/env bash
# End-to-end test: Helm 3 and Helm 4 on one machine, sharing one plugin folder
# (HELM_DATA_HOME/plugins, as they do by default), with rollcall installed once as
# integrations/helm3-plugin (legacy plugin.yaml, `rollcall`), which serves `helm rollcall`
# under both; and what `helm rollcall` adds: the hooks given to rollcall under Helm 3
# (charts/hook-sources) and rollcall's findings on stderr after helm finishes.
#
# Usage: helm_both.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. Helm comes from SOURCE_ROOT/.cache/helm/{v3,v3-newest,v4}/helm
# (scripts/fetch-helm.sh), or $ROLLCALL_HELM3, $ROLLCALL_HELM3_NEWEST, $ROLLCALL_HELM4; the
# points of a missing one are skipped.
#
# Facts the layout rests on (Helm 3.17.2 and 3.18.0, Helm 4.1.4; the same read in
# Helm's source up to 3.21.4 and 4.2.4):
# - Both read every DIR/*/plugin.yaml of every folder in HELM_PLUGINS (default
#   HELM_DATA_HOME/plugins). Helm 3 reads each strictly (yaml.UnmarshalStrict into the
#   legacy fields) and one failure loses them all: a plugin.yaml with apiVersion makes
#   every Helm 3 command print `failed to load plugins: ... unknown field "apiVersion"`.
# - Helm 4 reads a plugin.yaml without apiVersion as a legacy plugin, leniently, and
#   makes it cli/v1 (getter/v1 with downloaders), never postrenderer/v1: a post-renderer
#   plugin needs apiVersion v1, which Helm 3 refuses. So the shared folder holds only the
#   legacy plugin, and Helm 4 finds the post-renderer plugin in another folder listed in
#   HELM_PLUGINS: `helm rollcall` puts a private one first; by hand, the user lists one.
# - Helm 4 refuses two plugins of one name within one folder ("two plugins claim the
#   name"), not across folders: it takes the first postrenderer/v1 plugin by that name.
set -uo pipefail

usage="usage: helm_both.sh ROLLCALL_BINARY SOURCE_ROOT"
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
helm3s=("${ROLLCALL_HELM3:-$root/.cache/helm/v3/helm}" "${ROLLCALL_HELM3_NEWEST:-$root/.cache/helm/v3-newest/helm}")
helm4="${ROLLCALL_HELM4:-$root/.cache/helm/v4/helm}"
hooks_chart="$root/charts/hook-sources"
webapp="$root/charts/webapp"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
helm_sandbox "$tmp"
unset ROLLCALL ROLLCALL_REPORT_FORMAT
export KUBECONFIG="$tmp/no-cluster.kubeconfig"
mkdir -p "$tmp/bin"
ln -s "$rollcall" "$tmp/bin/rollcall"
export PATH="$tmp/bin:$PATH"
# helm rollcall's temporary folders go here, to check that none is left behind.
export TMPDIR="$tmp/tmpdir"
mkdir -p "$TMPDIR"

per_pair=(
  "one install of integrations/helm3-plugin, with the first Helm; the second's install of it says it exists; plugin list under both: rollcall, nothing on stderr"
  "helm rollcall template under both: exit 0, nothing about plugins on stderr, the same Deployment hash (charts/hook-sources)"
  "Helm 4 --post-renderer rollcall by hand (the post-renderer plugin in a folder Helm 3 never reads, docs/examples/helm4-shared-plugins.sh); Helm 3 --post-renderer PATH; neither warns"
  "helm plugin uninstall rollcall with the second Helm: gone for both, nothing on stderr"
)
per_helm3=(
  "hooks: helm rollcall template under Helm 3 gives the Deployment of charts/hook-sources the hash Helm 4's plugin gives it; bare Helm 3 --post-renderer cannot"
  "hooks: db.password changed moves that hash under Helm 3 and Helm 4 alike"
  "findings: db.existingSecret set: helm rollcall template exits 0 and prints the unresolved-reference on stderr after helm, under Helm 3 and Helm 4; stdout is YAML only"
  "findings: a missing key (db.passwordKey): exit 1, nothing on stdout, the missing-key finding on stderr, under Helm 3 and Helm 4"
  "findings: --post-renderer-args=--report=FILE is respected: the JSON report goes to FILE and nothing of it to stderr, under Helm 3 and Helm 4"
  "Helm 3: --show-only still gives the full-render hash; a failing hook render stops before helm runs, with its message and status"
)
checks=()
for h3 in "${helm3s[@]}"; do
  label="Helm $("$h3" version --template '{{.Version}}' 2>/dev/null || echo "3 (missing: $h3)")"
  for order in "3 then 4" "4 then 3"; do
    for c in "${per_pair[@]}"; do checks+=("$label and Helm 4, $order: $c"); done
  done
  for c in "${per_helm3[@]}"; do checks+=("$label and Helm 4: $c"); done
done
checks+=(
  "no temporary folder of helm rollcall is left in TMPDIR"
  "the plugin from a folder without helm-plugin beside it, under Helm 4: exit 2 naming the folder it looked in"
)
echo "1..${#checks[@]}"
tap_python

# at HOME HELM ARGS...: HELM with its data, config and cache under $tmp/HOME (one
# HELM_DATA_HOME, so one plugin folder, for both Helms given the same HOME).
at() {
  local home="$tmp/$1"
  shift
  HELM_DATA_HOME="$home/data" HELM_CONFIG_HOME="$home/config" HELM_CACHE_HOME="$home/cache" "$@"
}
# plugin_noise FILE...: lines of Helm's complaints about plugins.
plugin_noise() { grep -h -i -E 'failed to load plugin|claim the name|unknown field' "$@"; }

skip_n() { local i; for ((i = 0; i < $1; i++)); do tap_skip "${checks[n]}" "$2"; done; }

pair=0
for h3 in "${helm3s[@]}"; do
  if [[ ! -x "$h3" || ! -x "$helm4" ]]; then
    skip_n $((2 * ${#per_pair[@]} + ${#per_helm3[@]})) "Helm 3 at $h3 or Helm 4 at $helm4 missing (run scripts/fetch-helm.sh)"
    continue
  fi
  for order in 34 43; do
    pair=$((pair + 1))
    home="both$pair"
    if [[ $order == 34 ]]; then first="$h3" second="$helm4"; else first="$helm4" second="$h3"; fi

    # 1: install with the first; the second sees it.
    at "$home" "$first" plugin install "$root/integrations/helm3-plugin" >"$tmp/i1.out" 2>&1
    s1=$?
    at "$home" "$second" plugin install "$root/integrations/helm3-plugin" >"$tmp/i2.out" 2>&1
    s2=$?
    at "$home" "$h3" plugin list >"$tmp/l3.out" 2>"$tmp/l3.err"
    l3=$?
    at "$home" "$helm4" plugin list >"$tmp/l4.out" 2>"$tmp/l4.err"
    l4=$?
    [[ $s1 == 0 && $s2 != 0 && $l3 == 0 && $l4 == 0 && ! -s "$tmp/l3.err" && ! -s "$tmp/l4.err" ]] &&
      grep -q 'plugin already exists' "$tmp/i2.out" &&
      [[ "$(awk '$1 == "rollcall" { print $1 }' "$tmp/l3.out")" == rollcall ]] &&
      [[ "$(awk '$1 == "rollcall" { print $3 }' "$tmp/l4.out")" == cli/v1 ]]
    check $? "install $s1, second install $s2, list: Helm 3 $l3, Helm 4 $l4" \
      "$(cat "$tmp/i1.out" "$tmp/i2.out" "$tmp/l3.out" "$tmp/l3.err" "$tmp/l4.out" "$tmp/l4.err")"

    # 2: helm rollcall under both.
    at "$home" "$h3" rollcall template demo "$hooks_chart" -n demo >"$tmp/t3.yaml" 2>"$tmp/t3.err"
    t3=$?
    at "$home" "$helm4" rollcall template demo "$hooks_chart" -n demo >"$tmp/t4.yaml" 2>"$tmp/t4.err"
    t4=$?
    a="$(field "$tmp/t3.yaml" Deployment/demo-server 2)"
    b="$(field "$tmp/t4.yaml" Deployment/demo-server 2)"
    [[ $t3 == 0 && $t4 == 0 && "$a" =~ $hash_re && "$a" == "$b" ]] && ! plugin_noise "$tmp/t3.err" "$tmp/t4.err" >/dev/null
    check $? "Helm 3 exit $t3, hash $a; Helm 4 exit $t4, hash $b" "$(cat "$tmp/t3.err" "$tmp/t4.err")"

    # 3: the flags by hand: Helm 4 with the documented folder of its own, Helm 3 by path.
    user="$tmp/user$pair"
    mkdir -p "$user"
    ln -s "$root/integrations" "$root/charts" "$user/"
    mkdir -p "$user/bin" && ln -s "$helm4" "$user/bin/helm"
    (
      cd "$user" || exit 1
      export HELM_DATA_HOME="$tmp/$home/data" HELM_CONFIG_HOME="$tmp/$home/config" HELM_CACHE_HOME="$tmp/$home/cache"
      export PATH="$user/bin:$PATH"
      bash "$root/docs/examples/helm4-shared-plugins.sh"
    ) >"$tmp/h4hand.yaml" 2>"$tmp/h4hand.err"
    s4=$?
    at "$home" "$h3" template demo "$webapp" -n demo --post-renderer "$rollcall" \
      --post-renderer-args=--namespace=demo >"$tmp/h3hand.yaml" 2>"$tmp/h3hand.err"
    s3=$?
    at "$home" "$h3" plugin list >"$tmp/l3.out" 2>"$tmp/l3.err"
    l3=$?
    a="$(field "$tmp/h4hand.yaml" Deployment/demo-web 2)"
    b="$(field "$tmp/h3hand.yaml" Deployment/demo-web 2)"
    [[ $s4 == 0 && $s3 == 0 && $l3 == 0 && "$a" =~ $hash_re && "$a" == "$b" && ! -s "$tmp/l3.err" ]] &&
      [[ "$(field "$tmp/h4hand.yaml" Job/demo-migrate 2)" =~ $hash_re ]] &&
      ! plugin_noise "$tmp/h4hand.err" "$tmp/h3hand.err" >/dev/null
    check $? "Helm 4 by hand exit $s4 (Deployment $a), Helm 3 by path exit $s3 ($b), Helm 3 plugin list $l3" \
      "$(cat "$tmp/h4hand.err" "$tmp/h3hand.err" "$tmp/l3.err")"

    # 4: uninstall with the second.
    at "$home" "$second" plugin uninstall rollcall >"$tmp/u.out" 2>&1
    u=$?
    at "$home" "$h3" plugin list >"$tmp/l3.out" 2>"$tmp/l3.err"
    at "$home" "$helm4" plugin list >"$tmp/l4.out" 2>"$tmp/l4.err"
    [[ $u == 0 && ! -s "$tmp/l3.err" && ! -s "$tmp/l4.err" ]] &&
      ! grep -q '^rollcall' "$tmp/l3.out" "$tmp/l4.out"
    check $? "uninstall exit $u" "$(cat "$tmp/u.out" "$tmp/l3.out" "$tmp/l3.err" "$tmp/l4.out" "$tmp/l4.err")"
  done

  # The points of helm rollcall itself, in a home with the one plugin.
  home="cmd$pair"
  at "$home" "$h3" plugin install "$root/integrations/helm3-plugin" >/dev/null 2>&1
  r3() { at "$home" "$h3" rollcall template demo "$hooks_chart" -n demo "$@"; }
  r4() { at "$home" "$helm4" rollcall template demo "$hooks_chart" -n demo "$@"; }

  # 5: the hooks' hash, against Helm 4's plugin by hand and bare Helm 3.
  mkdir -p "$tmp/priv" && ln -sfn "$root/integrations/helm-plugin" "$tmp/priv/rollcall"
  HELM_PLUGINS="$tmp/priv" at "$home" "$helm4" template demo "$hooks_chart" -n demo --post-renderer rollcall \
    --post-renderer-args=--namespace=demo >"$tmp/p4.yaml" 2>"$tmp/p4.err"
  r3 >"$tmp/r3.yaml" 2>"$tmp/r3.err"
  s=$?
  "$h3" template demo "$hooks_chart" -n demo --post-renderer "$rollcall" \
    --post-renderer-args=--namespace=demo >"$tmp/bare3.yaml" 2>/dev/null
  a="$(field "$tmp/r3.yaml" Deployment/demo-server 2)"
  b="$(field "$tmp/p4.yaml" Deployment/demo-server 2)"
  c="$(field "$tmp/r3.yaml" Deployment/demo-server 3)"
  bare="$(field "$tmp/bare3.yaml" Deployment/demo-server 3)"
  [[ $s == 0 && "$a" =~ $hash_re && "$a" == "$b" && "$c" == "configmap/demo-settings, secret/demo-db[password]" &&
    "$bare" != "$c" ]]
  check $? "helm rollcall (Helm 3) exit $s: $a ($c); Helm 4 plugin: $b; bare Helm 3 sources: $bare" \
    "$(cat "$tmp/r3.err" "$tmp/p4.err")"

  # 6: a password change moves it under both.
  r3 --set db.password=rotated >"$tmp/r3b.yaml" 2>/dev/null
  r4 --set db.password=rotated >"$tmp/r4b.yaml" 2>/dev/null
  a2="$(field "$tmp/r3b.yaml" Deployment/demo-server 2)"
  b2="$(field "$tmp/r4b.yaml" Deployment/demo-server 2)"
  [[ "$a2" =~ $hash_re && "$a2" == "$b2" && "$a2" != "$a" ]]
  check $? "before: $a; after, Helm 3: $a2, Helm 4: $b2"

  # 7: a finding on a successful render, on stderr after helm's output.
  r3 --set db.existingSecret=outside >"$tmp/f3.yaml" 2>"$tmp/f3.err"
  f3=$?
  r4 --set db.existingSecret=outside >"$tmp/f4.yaml" 2>"$tmp/f4.err"
  f4=$?
  want='^rollcall: .*error\[unresolved-reference\] Deployment demo/demo-server reads secret/outside\[password\]'
  [[ $f3 == 0 && $f4 == 0 ]] && grep -q "$want" "$tmp/f3.err" && grep -q "$want" "$tmp/f4.err" &&
    ! grep -q '^rollcall' "$tmp/f3.yaml" "$tmp/f4.yaml" && [[ "$(objects "$tmp/f3.yaml" | wc -l)" -ge 4 ]]
  check $? "Helm 3 exit $f3, Helm 4 exit $f4" "$(cat "$tmp/f3.err" "$tmp/f4.err")"

  # 8: a finding that stops the render.
  r3 --set db.passwordKey=nope >"$tmp/k3.yaml" 2>"$tmp/k3.err"
  k3=$?
  r4 --set db.passwordKey=nope >"$tmp/k4.yaml" 2>"$tmp/k4.err"
  k4=$?
  want='^rollcall: .*error\[missing-key\] Secret demo/demo-db has no key "nope"'
  [[ $k3 == 1 && $k4 == 1 && ! -s "$tmp/k3.yaml" && ! -s "$tmp/k4.yaml" ]] &&
    grep -q "$want" "$tmp/k3.err" && grep -q "$want" "$tmp/k4.err"
  check $? "Helm 3 exit $k3, Helm 4 exit $k4" "$(cat "$tmp/k3.err" "$tmp/k4.err")"

  # 9: the user's own --report.
  r3 --set db.existingSecret=outside "--post-renderer-args=--report=$tmp/rep3.json" >/dev/null 2>"$tmp/o3.err"
  o3=$?
  r4 --set db.existingSecret=outside --post-renderer-args "--report=$tmp/rep4.json" >/dev/null 2>"$tmp/o4.err"
  o4=$?
  [[ $o3 == 0 && $o4 == 0 ]] && grep -q '"unresolved-reference"' "$tmp/rep3.json" "$tmp/rep4.json" &&
    ! grep -q 'unresolved-reference' "$tmp/o3.err" "$tmp/o4.err"
  check $? "Helm 3 exit $o3, Helm 4 exit $o4" "$(cat "$tmp/o3.err" "$tmp/o4.err")" \
    "$(head -c 600 "$tmp/rep3.json" 2>&1)"

  # 10: --show-only keeps the full render's hash; a hook render that fails stops all.
  r3 --show-only templates/deployment.yaml >"$tmp/so.yaml" 2>"$tmp/so.err"
  so=$?
  r3 --set-string 'db.password={{' -f "$tmp/no-such-values.yaml" >"$tmp/bad.out" 2>"$tmp/bad.err"
  bad=$?
  at "$home" "$h3" template demo "$hooks_chart" -f "$tmp/no-such-values.yaml" >/dev/null 2>&1
  want_bad=$?
  [[ $so == 0 && "$(field "$tmp/so.yaml" Deployment/demo-server 2)" == "$a" && "$(objects "$tmp/so.yaml")" == Deployment/demo-server ]] &&
    [[ $bad == "$want_bad" && $bad != 0 && ! -s "$tmp/bad.out" ]] &&
    grep -q 'no-such-values.yaml' "$tmp/bad.err" &&
    grep -q '^helm rollcall: helm template, which gives rollcall the release.s hooks, failed' "$tmp/bad.err"
  check $? "--show-only exit $so: $(objects "$tmp/so.yaml" | tr '\n' ' ') $(field "$tmp/so.yaml" Deployment/demo-server 2) (full: $a);" \
    "failing hook render: exit $bad (helm template alone: $want_bad)" "$(cat "$tmp/so.err" "$tmp/bad.err")"
done

# 11: nothing left behind (the runs above include failures).
[[ -z "$(ls -A "$TMPDIR")" ]]
check $? "$(ls -la "$TMPDIR")"

# 12: a copy of the plugin folder on its own: Helm 4 has no post-renderer plugin to use.
if [[ ! -x "$helm4" ]]; then
  tap_skip "${checks[n]}" "Helm 4 not found at $helm4 (run scripts/fetch-helm.sh)"
else
  mkdir -p "$tmp/lonely/shelf"
  cp -R "$root/integrations/helm3-plugin" "$tmp/lonely/shelf/cli"
  at lonely "$helm4" plugin install "$tmp/lonely/shelf/cli" >"$tmp/lonely.out" 2>&1
  at lonely "$helm4" rollcall template demo "$webapp" >"$tmp/lonely.yaml" 2>"$tmp/lonely.err"
  s=$?
  [[ $s == 2 && ! -s "$tmp/lonely.yaml" ]] &&
    grep -q "there is no $tmp/lonely/shelf/helm-plugin beside this plugin" "$tmp/lonely.err"
  check $? "exit $s" "$(cat "$tmp/lonely.out" "$tmp/lonely.err")"
fi

[[ $failed == 0 ]]
