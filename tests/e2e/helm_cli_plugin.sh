#!/usr/bin/env bash
# End-to-end test: `helm rollcall template|install|upgrade`, the Helm plugin command that
# runs helm with rollcall as the post-renderer and the release namespace passed to it:
# integrations/helm3-plugin under Helm 3, integrations/helm4-cli-plugin (with the
# post-renderer plugin integrations/helm-plugin) under Helm 4, each installed with
# `helm plugin install` into a throwaway HELM_DATA_HOME.
#
# Usage: helm_cli_plugin.sh ROLLCALL_BINARY SOURCE_ROOT PROJECT_VERSION
# Prints TAP. Helm comes from SOURCE_ROOT/.cache/helm/v3/helm and v4/helm
# (scripts/fetch-helm.sh), or $ROLLCALL_HELM3 and $ROLLCALL_HELM4; the points of a
# missing one are reported as skipped.
#
# Facts about the two Helms (v3.17.2, v4.1.4) that the plugins and the checks rely on:
# - Both run a plugin command with the arguments after `helm rollcall`, except the ones
#   Helm keeps (-n NS, -n=NS, --namespace[=]NS, --kube-context, --kubeconfig, --debug,
#   ...; not -nNS), which they export instead: HELM_NAMESPACE (the resolved namespace,
#   `default` without one), HELM_KUBECONTEXT, KUBECONFIG, HELM_DEBUG, plus HELM_BIN (the
#   running helm) and HELM_PLUGIN_DIR. A plugin's exit status becomes helm's, after
#   `Error: plugin "NAME" exited with error` on stderr.
# - Helm 3 reads only the legacy plugin.yaml (no apiVersion), strictly: `helm plugin
#   install` of a Helm 4 folder links it, then fails on `unknown field "apiVersion"` and
#   leaves the link, after which every Helm 3 command warns `failed to load plugins` and
#   loads none, `helm plugin uninstall` included.
# - Helm 4 reads legacy plugins too, but loads no plugin at all when two in one folder
#   share a name ("two plugins claim the name": neither `--post-renderer rollcall` nor
#   `helm plugin uninstall` works then); a cli/v1 plugin's command is the first
#   word of its config.usage, so rollcall-cli can be `helm rollcall` beside the
#   post-renderer plugin rollcall. A legacy plugin (integrations/helm3-plugin) is cli/v1
#   under Helm 4; `helm rollcall` then finds no post-renderer plugin installed and hands
#   its helm integrations/helm-plugin, the folder beside its own, through a private
#   folder first in HELM_PLUGINS (tests/e2e/helm_both.sh: both Helms, one plugin folder).
set -uo pipefail

usage="usage: helm_cli_plugin.sh ROLLCALL_BINARY SOURCE_ROOT PROJECT_VERSION"
rollcall="${1:?$usage}"
root="${2:?$usage}"
version="${3:?$usage}"
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
chart="$root/charts/webapp"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
helm_sandbox "$tmp"
unset ROLLCALL
# Never a real cluster.
export KUBECONFIG="$tmp/no-cluster.kubeconfig"
# The plugins run the `rollcall` found on PATH: the one just built.
mkdir -p "$tmp/bin"
ln -s "$rollcall" "$tmp/bin/rollcall"
export PATH="$tmp/bin:$PATH"

checks3=(
  "Helm 3: helm plugin install integrations/helm3-plugin: plugin rollcall at the project version; helm plugin list warns of nothing"
  "Helm 3: helm rollcall template -n demo: Deployment and CronJob hashes as from helm template -n demo | rollcall render --namespace demo"
  "Helm 3: the namespace reaches rollcall (\$ROLLCALL): -n, --namespace=, -nNS, HELM_NAMESPACE, -nNS over HELM_NAMESPACE, none"
  "Helm 3: arguments reach helm untouched: the bytes of helm template --post-renderer rollcall by hand"
  "Helm 3: a bad chart path: helm's exit status, nothing on stdout"
  "Helm 3: rollcall failing: helm fails with rollcall's message, nothing on stdout"
  "Helm 3: no rollcall on PATH, or a bad ROLLCALL: exit 2 before helm runs, saying what to do"
  "Helm 3: no arguments, lint, an unknown command, --post-renderer: exit 2 and a message, nothing on stdout; --help: exit 0"
  "Helm 3: installing the Helm 4 folder integrations/helm-plugin fails, its link breaks plugin list, docs/examples/helm3-remove-helm4-plugin.sh removes it"
  "Helm 3: docs/examples/helm3-cli-plugin.sh runs as documented"
  "Helm 3: docs/examples/helm-rollcall-finding.sh (edge-gateway's client certificate, applied apart) exits 0 and prints docs/examples/helm-rollcall-finding.txt after helm, as the README shows"
)
checks4=(
  "Helm 4: helm plugin install integrations/helm-plugin and integrations/helm4-cli-plugin: postrenderer/v1 rollcall and cli/v1 rollcall-cli at the project version"
  "Helm 4: helm rollcall template -n demo: Deployment, CronJob and hook Job hashes as from helm template -n demo | rollcall render --namespace demo"
  "Helm 4: the namespace reaches rollcall (\$ROLLCALL): -n, --namespace=, -nNS, HELM_NAMESPACE, -nNS over HELM_NAMESPACE, none"
  "Helm 4: arguments reach helm untouched: the bytes of helm template --post-renderer rollcall by hand"
  "Helm 4: a bad chart path: helm's exit status, nothing on stdout"
  "Helm 4: helm rollcall install --dry-run=client: manifest and hooks with helm rollcall template's hashes"
  "Helm 4: no arguments, lint, an unknown command, --post-renderer: exit 2 and a message, nothing on stdout; --help: exit 0"
  "Helm 4: integrations/helm4-cli-plugin without the post-renderer plugin installed: helm rollcall takes integrations/helm-plugin beside it, same bytes"
  "Helm 4: the Helm 3 folder alone (legacy, cli/v1): helm rollcall takes integrations/helm-plugin beside it, same bytes"
  "Helm 4: the Helm 3 folder beside integrations/helm-plugin: Helm 4 loads neither; removing its link as docs/helm.md says mends it"
  "Helm 4: docs/examples/helm4-plugin.sh, then docs/examples/helm4-cli-plugin.sh, run as documented"
)
checks=("${checks3[@]}" "${checks4[@]}"
  "integrations/helm4-cli-plugin/helm-rollcall is a link to integrations/helm3-plugin's script: one script"
  "upgrade --install (no cluster here): the command lines helm-rollcall gives a stand-in helm 3 (the hooks' dry run first; none before 3.13) and helm 4")

echo "1..${#checks[@]}"
tap_python

# h3|h4 HOME ARGS...: that helm with its data, config and cache under $tmp/HOME.
h3() { local home="$tmp/$1"; shift; HELM_DATA_HOME="$home/data" HELM_CONFIG_HOME="$home/config" HELM_CACHE_HOME="$home/cache" "$helm3" "$@"; }
h4() { local home="$tmp/$1"; shift; HELM_DATA_HOME="$home/data" HELM_CONFIG_HOME="$home/config" HELM_CACHE_HOME="$home/cache" "$helm4" "$@"; }

# args_rollcall DIR: DIR/rollcall, a stand-in that keeps its arguments in DIR/args, one a
# line, then runs the built rollcall with them.
args_rollcall() {
  mkdir -p "$1"
  cat >"$1/rollcall" <<SH
#!/bin/sh
printf '%s\n' "\$@" >"$1/args"
exec "$rollcall" "\$@"
SH
  chmod +x "$1/rollcall"
}
args_rollcall "$tmp/rec"

# Values that the wrapper must not touch: spaces, quotes, $, a glob, a file with a space.
# shellcheck disable=SC2016  # the $ is the point
odd_value='two  spaces "quoted" $HOME *.yaml'
printf 'replicaCount: 3\n' >"$tmp/my values.yaml"
odd_args=(--set-string "config.greeting=$odd_value" -f "$tmp/my values.yaml")

# greeting FILE: data.GREETING of the ConfigMap, as Kubernetes reads it.
greeting() {
  "$python" - "$1" <<'EOF'
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json

for doc in k8s_json.load_all(sys.argv[1]):
    if isinstance(doc, dict) and doc.get("kind") == "ConfigMap":
        print(doc["data"]["GREETING"])
EOF
}

# same_hashes OUT PIPED KIND/NAME...: the pod templates' hash and sources agree.
same_hashes() {
  local out="$1" piped="$2" w a b ok=0 log=""
  shift 2
  for w in "$@"; do
    a="$(field "$out" "$w" 2) $(field "$out" "$w" 3)"
    b="$(field "$piped" "$w" 2) $(field "$piped" "$w" 3)"
    log+="$w: $a | piped: $b"$'\n'
    [[ "$a" == "$b" && "$(field "$out" "$w" 2)" =~ $hash_re ]] || ok=1
  done
  same_log="$log"
  return $ok
}

# namespace_forms HELMFN HOME: helm rollcall template in each way of naming the namespace,
# with ROLLCALL at the recording stand-in; prints what rollcall got for each.
namespace_forms() {
  local fn="$1" home="$2" form
  local -a forms=("-n demo" "--namespace=demo" "-ndemo" "HELM_NAMESPACE=demo" "HELM_NAMESPACE=prod -ndemo" "none")
  for form in "${forms[@]}"; do
    rm -f "$tmp/rec/args"
    case "$form" in
      "-n demo") ROLLCALL="$tmp/rec/rollcall" "$fn" "$home" rollcall template demo "$chart" -n demo ;;
      "--namespace=demo") ROLLCALL="$tmp/rec/rollcall" "$fn" "$home" rollcall template demo "$chart" --namespace=demo ;;
      "-ndemo") ROLLCALL="$tmp/rec/rollcall" "$fn" "$home" rollcall template demo "$chart" -ndemo ;;
      "HELM_NAMESPACE=demo") HELM_NAMESPACE=demo ROLLCALL="$tmp/rec/rollcall" "$fn" "$home" rollcall template demo "$chart" ;;
      "HELM_NAMESPACE=prod -ndemo") HELM_NAMESPACE=prod ROLLCALL="$tmp/rec/rollcall" "$fn" "$home" rollcall template demo "$chart" -ndemo ;;
      none) ROLLCALL="$tmp/rec/rollcall" "$fn" "$home" rollcall template demo "$chart" ;;
    esac >/dev/null 2>"$tmp/ns.err"
    echo "$form (exit $?): $(grep -- '--namespace' "$tmp/rec/args" 2>/dev/null | tr '\n' ' ')"
  done
}
ns_want="-n demo (exit 0): --namespace=demo 
--namespace=demo (exit 0): --namespace=demo 
-ndemo (exit 0): --namespace=demo 
HELM_NAMESPACE=demo (exit 0): --namespace=demo 
HELM_NAMESPACE=prod -ndemo (exit 0): --namespace=demo 
none (exit 0): --namespace=default "

# misuse HELMFN HOME: each misuse's exit status, stdout size and first output line.
misuse() {
  local fn="$1" home="$2" i
  for i in 1 2 3 4 5; do
    case $i in
      1) "$fn" "$home" rollcall ;;
      2) "$fn" "$home" rollcall lint "$chart" ;;
      3) "$fn" "$home" rollcall frobnicate ;;
      4) "$fn" "$home" rollcall template demo "$chart" --post-renderer=other ;;
      5) "$fn" "$home" rollcall --help ;;
    esac >"$tmp/misuse.out" 2>"$tmp/misuse.err"
    echo "[$i] exit $?, stdout $(wc -c <"$tmp/misuse.out") bytes: $(cat "$tmp/misuse.err" "$tmp/misuse.out" | grep -m1 -v '^$')"
  done
}
misuse_ok() { # misuse_ok OUTPUT: 1-4 exited 2 with a message and nothing on stdout, 5 (--help) 0
  [[ "$(grep -c '^\[[1-4]\] exit 2, stdout 0 bytes: ' <<<"$1")" == 4 ]] &&
    grep -q '^\[1\] .*: Usage: helm rollcall template|install|upgrade' <<<"$1" &&
    grep -q '^\[2\] .*: helm rollcall: no lint here: run rollcall lint' <<<"$1" &&
    grep -q "^\[3\] .*: helm rollcall: unknown command 'frobnicate'" <<<"$1" &&
    grep -q '^\[4\] .*: helm rollcall: --post-renderer is set here (rollcall)' <<<"$1" &&
    grep -q '^\[5\] exit 0, stdout [1-9][0-9]* bytes: Usage: helm rollcall template|install|upgrade' <<<"$1"
}

# The points both Helms get. HELMFN is h3 or h4 (its plugin home is its own name).
# check_namespace HELMFN: the namespace, in every form, reaches rollcall.
check_namespace() {
  local got
  got="$(namespace_forms "$1" "$1")"
  [[ "$got" == "$ns_want" ]]
  check $? "got:" "$got" "want:" "$ns_want" "$(cat "$tmp/ns.err")"
}

# check_by_hand HELMFN HELM...: `helm rollcall template` gives the bytes of HELM
# template with the post-renderer flags written by hand, odd arguments included.
check_by_hand() {
  local fn="$1" status
  shift
  "$fn" "$fn" rollcall template demo "$chart" -n demo "${odd_args[@]}" >"$tmp/$fn-odd.yaml" 2>"$tmp/$fn-odd.err"
  status=$?
  "$@" template demo "$chart" -n demo --post-renderer rollcall --post-renderer-args=--namespace=demo \
    "${odd_args[@]}" >"$tmp/$fn-hand.yaml" 2>/dev/null
  [[ $status == 0 ]] && cmp -s "$tmp/$fn-odd.yaml" "$tmp/$fn-hand.yaml" &&
    [[ "$(greeting "$tmp/$fn-odd.yaml")" == "$odd_value" ]] && grep -q 'replicas: 3' "$tmp/$fn-odd.yaml"
  check $? "helm rollcall exited $status;" "$(diff "$tmp/$fn-hand.yaml" "$tmp/$fn-odd.yaml" | head -20)" \
    "GREETING: $(greeting "$tmp/$fn-odd.yaml")" "$(cat "$tmp/$fn-odd.err")"
}

# check_helm_failure HELMFN HELM: helm's own failure (a chart that is not there) is the
# wrapper's: its status, nothing on stdout.
check_helm_failure() {
  local fn="$1" helm="$2" want_status status
  "$helm" template demo "$tmp/no-such-chart" >/dev/null 2>&1
  want_status=$?
  "$fn" "$fn" rollcall template demo "$tmp/no-such-chart" -n demo >"$tmp/$fn-bad.out" 2>"$tmp/$fn-bad.err"
  status=$?
  [[ $status == "$want_status" && $status != 0 && ! -s "$tmp/$fn-bad.out" ]] &&
    grep -q 'no-such-chart' "$tmp/$fn-bad.err"
  check $? "exit $status (helm template alone: $want_status), stdout $(wc -c <"$tmp/$fn-bad.out") bytes" \
    "$(cat "$tmp/$fn-bad.err")"
}

# run_snippet HELM SNIPPET...: the docs snippets, run in order as a user runs them from a
# checkout (here links to this one's charts and integrations) with `helm` being HELM,
# rollcall on PATH and Helm's homes under $tmp/user-*; stdout to $tmp/user.out.
run_snippet() {
  local helm="$1" user
  shift
  user="$(mktemp -d "$tmp/user-XXXX")"
  mkdir -p "$user/bin"
  ln -s "$root/charts" "$root/integrations" "$user/"
  ln -s "$helm" "$user/bin/helm"
  (
    cd "$user" || exit 1
    export HELM_DATA_HOME="$user/home/data" HELM_CONFIG_HOME="$user/home/config" HELM_CACHE_HOME="$user/home/cache"
    export PATH="$user/bin:$PATH"
    for snippet in "$@"; do bash "$root/$snippet" || exit; done
  ) >"$tmp/user.out" 2>"$tmp/user.err"
}

# ---- Helm 3 ----
if [[ ! -x "$helm3" ]]; then
  for c in "${checks3[@]}"; do tap_skip "$c" "Helm 3 not found at $helm3 (run scripts/fetch-helm.sh)"; done
else
  # 1: install, and the list without a warning.
  h3 h3 plugin install "$root/integrations/helm3-plugin" >"$tmp/h3-install.out" 2>&1
  status=$?
  h3 h3 plugin list >"$tmp/h3-list.out" 2>"$tmp/h3-list.err"
  list_status=$?
  listed="$(awk '$1 == "rollcall" { print $2 }' "$tmp/h3-list.out")"
  [[ $status == 0 && $list_status == 0 && "$listed" == "$version" && ! -s "$tmp/h3-list.err" ]]
  check $? "install exited $status, list $list_status; version listed: '$listed' (want '$version')" \
    "$(cat "$tmp/h3-install.out" "$tmp/h3-list.out" "$tmp/h3-list.err")"

  # 2: the hashes, against the same render piped through rollcall by hand.
  h3 h3 rollcall template demo "$chart" -n demo >"$tmp/h3.yaml" 2>"$tmp/h3.err"
  status=$?
  "$helm3" template demo "$chart" -n demo | "$rollcall" render --namespace demo >"$tmp/h3-piped.yaml" 2>/dev/null
  same_hashes "$tmp/h3.yaml" "$tmp/h3-piped.yaml" Deployment/demo-web CronJob/demo-cleanup
  check $(( $? || status )) "helm rollcall exited $status" "$same_log" "$(cat "$tmp/h3.err")"

  # 3: the namespace, in every form, reaches rollcall; ROLLCALL names the renderer.
  check_namespace h3
  # 4: the wrapper's output is that of the flags written by hand, odd arguments included.
  check_by_hand h3 "$helm3"
  # 5: helm's own failure: its status, no output.
  check_helm_failure h3 "$helm3"

  # 6: rollcall's failure fails the release with its message.
  h3 h3 rollcall template demo "$chart" -n demo --post-renderer-args=--no-such-flag \
    >"$tmp/h3-fail.out" 2>"$tmp/h3-fail.err"
  status=$?
  [[ $status != 0 && ! -s "$tmp/h3-fail.out" ]] && grep -q 'error while running post render' "$tmp/h3-fail.err" &&
    grep -q -- 'no-such-flag' "$tmp/h3-fail.err"
  check $? "exit $status, stdout $(wc -c <"$tmp/h3-fail.out") bytes" "$(cat "$tmp/h3-fail.err")"

  # 7: no rollcall: the PATH without $tmp/bin, then a ROLLCALL that is not a program.
  if other="$(PATH="${PATH#"$tmp/bin:"}" command -v rollcall)"; then
    skip "a rollcall is installed on this machine's PATH ($other)"
  else
  PATH="${PATH#"$tmp/bin:"}" h3 h3 rollcall template demo "$chart" >"$tmp/h3-none.out" 2>"$tmp/h3-none.err"
  s1=$?
  ROLLCALL="$tmp/nothing-here" h3 h3 rollcall template demo "$chart" >>"$tmp/h3-none.out" 2>>"$tmp/h3-none.err"
  s2=$?
  [[ $s1 == 2 && $s2 == 2 && ! -s "$tmp/h3-none.out" ]] &&
    grep -q 'no rollcall on PATH: install it (meson install), or set ROLLCALL=' "$tmp/h3-none.err" &&
    grep -q "ROLLCALL='$tmp/nothing-here' is not an executable file" "$tmp/h3-none.err"
  check $? "exit $s1 without rollcall, $s2 with a bad ROLLCALL; stdout $(wc -c <"$tmp/h3-none.out") bytes" \
    "$(cat "$tmp/h3-none.err")"
  fi

  # 8: misuse.
  got="$(misuse h3 h3)"
  misuse_ok "$got"
  check $? "$got"

  # 9: the Helm 4 folder under Helm 3, in a home of its own: what the user sees, and the fix.
  h3 h3bad plugin install "$root/integrations/helm-plugin" >"$tmp/h3bad.out" 2>&1
  s_install=$?
  h3 h3bad plugin list >"$tmp/h3bad-list.out" 2>&1
  s_list=$?
  (cd "$tmp" && PATH="$(dirname "$helm3"):$PATH" HELM_DATA_HOME="$tmp/h3bad/data" \
    HELM_CONFIG_HOME="$tmp/h3bad/config" HELM_CACHE_HOME="$tmp/h3bad/cache" \
    bash "$root/docs/examples/helm3-remove-helm4-plugin.sh") >"$tmp/h3bad-rm.out" 2>&1
  s_rm=$?
  h3 h3bad plugin list >"$tmp/h3bad-after.out" 2>"$tmp/h3bad-after.err"
  s_after=$?
  [[ $s_install != 0 && $s_list != 0 && $s_rm == 0 && $s_after == 0 && ! -s "$tmp/h3bad-after.err" ]] &&
    grep -q 'unknown field "apiVersion"' "$tmp/h3bad.out" &&
    grep -q 'failed to load plugins' "$tmp/h3bad-list.out" &&
    [[ -z "$(ls -A "$tmp/h3bad/data/plugins")" ]]
  check $? "install exited $s_install, list $s_list, the snippet $s_rm, list then $s_after" \
    "$(cat "$tmp/h3bad.out" "$tmp/h3bad-list.out" "$tmp/h3bad-rm.out" "$tmp/h3bad-after.err")"

  # 10: the README/docs snippet.
  run_snippet "$helm3" docs/examples/helm3-cli-plugin.sh
  status=$?
  sed -n '/^---$/,$p' "$tmp/user.out" >"$tmp/user.yaml"
  [[ $status == 0 ]] && cmp -s "$tmp/user.yaml" "$tmp/h3.yaml"
  check $? "snippet exited $status" "$(head -5 "$tmp/user.out")" "$(cat "$tmp/user.err")" \
    "$(diff "$tmp/h3.yaml" "$tmp/user.yaml" | head -10)"

  # 11: what the README shows a user with a finding: the findings after helm, exit 0.
  run_snippet "$helm3" docs/examples/helm3-cli-plugin.sh docs/examples/helm-rollcall-finding.sh
  status=$?
  want="$(cat "$root/docs/examples/helm-rollcall-finding.txt")"
  got="$(tail -n "$(wc -l <"$root/docs/examples/helm-rollcall-finding.txt")" "$tmp/user.err")"
  [[ $status == 0 && "$got" == "$want" ]]
  check $? "snippets exited $status" "got:" "$got" "want:" "$want"
fi

# ---- Helm 4 ----
if [[ ! -x "$helm4" ]]; then
  for c in "${checks4[@]}"; do tap_skip "$c" "Helm 4 not found at $helm4 (run scripts/fetch-helm.sh)"; done
else
  # 12: both plugins, side by side.
  {
    h4 h4 plugin install "$root/integrations/helm-plugin" &&
      h4 h4 plugin install "$root/integrations/helm4-cli-plugin"
  } >"$tmp/h4-install.out" 2>&1
  status=$?
  h4 h4 plugin list >"$tmp/h4-list.out" 2>"$tmp/h4-list.err"
  listed="$(awk '$1 ~ /^rollcall/ { print $1, $2, $3 }' "$tmp/h4-list.out" | sort)"
  want="rollcall $version postrenderer/v1
rollcall-cli $version cli/v1"
  [[ $status == 0 && "$listed" == "$want" && ! -s "$tmp/h4-list.err" ]]
  check $? "install exited $status; listed:" "$listed" "want:" "$want" \
    "$(cat "$tmp/h4-install.out" "$tmp/h4-list.err")"

  # 13: the hashes, hooks included (Helm 4 post-renders them).
  h4 h4 rollcall template demo "$chart" -n demo >"$tmp/h4.yaml" 2>"$tmp/h4.err"
  status=$?
  "$helm4" template demo "$chart" -n demo | "$rollcall" render --namespace demo >"$tmp/h4-piped.yaml" 2>/dev/null
  same_hashes "$tmp/h4.yaml" "$tmp/h4-piped.yaml" Deployment/demo-web CronJob/demo-cleanup Job/demo-migrate
  check $(( $? || status )) "helm rollcall exited $status" "$same_log" "$(cat "$tmp/h4.err")"

  # 14: the namespace; ROLLCALL (a file called rollcall) goes first on the plugin's PATH.
  check_namespace h4
  # 15: the flags by hand.
  check_by_hand h4 h4 h4
  # 16: helm's own failure.
  check_helm_failure h4 "$helm4"

  # 17: install without a cluster (Helm 4 allows --dry-run=client).
  h4 h4 rollcall install demo "$chart" -n demo --dry-run=client -o json >"$tmp/h4-install.json" 2>"$tmp/h4-install.err"
  status=$?
  release_stream "$tmp/h4-install.json" >"$tmp/h4-install.yaml" 2>>"$tmp/h4-install.err"
  pod_templates "$tmp/h4-install.yaml" | sort >"$tmp/h4-install.hashes"
  pod_templates "$tmp/h4.yaml" | sort >"$tmp/h4-template.hashes"
  [[ $status == 0 && "$(grep -c sha256 "$tmp/h4-install.hashes")" == 3 ]] &&
    cmp -s "$tmp/h4-install.hashes" "$tmp/h4-template.hashes"
  check $? "helm rollcall install exited $status; install:" "$(cat "$tmp/h4-install.hashes")" \
    "template:" "$(cat "$tmp/h4-template.hashes")" "$(head -c 2000 "$tmp/h4-install.err")"

  # 18: misuse.
  got="$(misuse h4 h4)"
  misuse_ok "$got"
  check $? "$got"

  # 19: the command without the post-renderer plugin installed: the folder beside it.
  h4 h4cli plugin install "$root/integrations/helm4-cli-plugin" >"$tmp/h4cli.out" 2>&1
  s_install=$?
  h4 h4cli rollcall template demo "$chart" -n demo >"$tmp/h4cli.yaml" 2>"$tmp/h4cli.err"
  status=$?
  [[ $s_install == 0 && $status == 0 ]] && cmp -s "$tmp/h4cli.yaml" "$tmp/h4.yaml"
  check $? "install exited $s_install, helm rollcall $status" "$(cat "$tmp/h4cli.out" "$tmp/h4cli.err")" \
    "$(diff "$tmp/h4.yaml" "$tmp/h4cli.yaml" | head -10)"

  # 20: the Helm 3 folder under Helm 4, alone: Helm 4 loads it as cli/v1 (beside the
  # post-renderer plugin Helm 4 would load no plugin at all: point 20).
  h4 h4legacy plugin install "$root/integrations/helm3-plugin" >"$tmp/h4legacy.out" 2>&1
  s_install=$?
  h4 h4legacy rollcall template demo "$chart" -n demo >"$tmp/h4legacy.yaml" 2>"$tmp/h4legacy.err"
  status=$?
  [[ $s_install == 0 && $status == 0 ]] && cmp -s "$tmp/h4legacy.yaml" "$tmp/h4.yaml"
  check $? "install exited $s_install, helm rollcall $status" "$(cat "$tmp/h4legacy.out" "$tmp/h4legacy.err")" \
    "$(diff "$tmp/h4.yaml" "$tmp/h4legacy.yaml" | head -10)"

  # 21: ... and beside the post-renderer plugin: two plugins named rollcall in one folder.
  h4 h4legacy plugin install "$root/integrations/helm-plugin" >"$tmp/h4dup.out" 2>&1
  s_install=$?
  h4 h4legacy template demo "$chart" -n demo --post-renderer rollcall >"$tmp/h4dup.yaml" 2>"$tmp/h4dup.err"
  s_dup=$?
  h4 h4legacy plugin uninstall rollcall >>"$tmp/h4dup.out" 2>&1
  s_uninstall=$?
  rm "$(h4 h4legacy env HELM_PLUGINS 2>/dev/null)/helm3-plugin"
  h4 h4legacy template demo "$chart" -n demo --post-renderer rollcall >"$tmp/h4dup-after.yaml" 2>"$tmp/h4dup-after.err"
  s_after=$?
  [[ $s_install == 0 && $s_dup != 0 && $s_uninstall != 0 && $s_after == 0 && ! -s "$tmp/h4dup.yaml" ]] &&
    grep -q 'two plugins claim the name "rollcall"' "$tmp/h4dup.err" &&
    [[ "$(field "$tmp/h4dup-after.yaml" Deployment/demo-web 2)" =~ $hash_re ]]
  check $? "install exited $s_install; with both: template $s_dup, uninstall $s_uninstall; after rm: template $s_after" \
    "$(cat "$tmp/h4dup.out" "$tmp/h4dup.err" "$tmp/h4dup-after.err")"

  # 22: the README/docs snippets, the post-renderer plugin's first.
  run_snippet "$helm4" docs/examples/helm4-plugin.sh docs/examples/helm4-cli-plugin.sh
  status=$?
  # Each snippet's install lines, then its rendered stream: keep the last stream.
  awk '/^Install/ { buf = ""; next } { buf = buf $0 "\n" } END { printf "%s", buf }' "$tmp/user.out" |
    sed -n '/^---$/,$p' >"$tmp/user.yaml"
  [[ $status == 0 ]] && cmp -s "$tmp/user.yaml" "$tmp/h4.yaml"
  check $? "snippets exited $status" "$(grep -v '^[ #-]' "$tmp/user.out" | grep -v '^[a-z]' | head -8)" \
    "$(cat "$tmp/user.err")" "$(diff "$tmp/h4.yaml" "$tmp/user.yaml" | head -10)"
fi

# 23: one script for both folders (Helm installs a local plugin folder as a link to it,
# so the relative link resolves there too; the Helm 4 points above ran through it).
[[ "$(readlink "$root/integrations/helm4-cli-plugin/helm-rollcall")" == ../helm3-plugin/helm-rollcall &&
  -x "$root/integrations/helm3-plugin/helm-rollcall" ]]
check $? "$(ls -l "$root/integrations/helm4-cli-plugin/")"

# 24: upgrade needs a cluster with either Helm; the script, run as Helm runs it, hands a
# stand-in helm (which answers `version` and `plugin list` as the real ones) these lines:
# under Helm 3 first the dry run whose HOOKS: section becomes rollcall's --state.
mkdir -p "$tmp/fake"
cat >"$tmp/fake/helm" <<'SH'
#!/bin/sh
case "$1" in
  version) echo "$FAKE_VERSION" ;;
  plugin) printf 'NAME\tVERSION\tTYPE\nrollcall\t0\tpostrenderer/v1\n' ;;
  *) echo "$*" >>"$FAKE_LOG"; printf 'HOOKS:\n---\nkind: Secret\nMANIFEST:\n' ;;
esac
SH
chmod +x "$tmp/fake/helm"
got=""
for v in v3.17.2 v3.12.3 v4.1.4; do
  rm -f "$tmp/fake/log"
  FAKE_LOG="$tmp/fake/log" FAKE_VERSION="$v" HELM_BIN="$tmp/fake/helm" HELM_NAMESPACE=demo \
    sh "$root/integrations/helm3-plugin/helm-rollcall" upgrade --install demo "$chart" --wait >/dev/null 2>"$tmp/fake/err"
  got+="$v: $(sed -e "s|$tmp/bin/rollcall |(the rollcall on PATH) |" \
    -e "s|--state=[^ ]*/helm-rollcall\.[^/ ]*/hooks.yaml|--state=(private)/hooks.yaml|" "$tmp/fake/log" "$tmp/fake/err")"$'\n'
done
want="v3.17.2: upgrade --dry-run=server --install demo $chart --wait -o table
upgrade --post-renderer (the rollcall on PATH) --post-renderer-args=--namespace=demo --post-renderer-args=--state=(private)/hooks.yaml --install demo $chart --wait
v3.12.3: upgrade --post-renderer (the rollcall on PATH) --post-renderer-args=--namespace=demo --install demo $chart --wait
helm rollcall: Helm v3.12.3 has no --dry-run=server (Helm 3.13 and later): rollcall does not see the release's hooks
v4.1.4: upgrade --post-renderer rollcall --post-renderer-args=--namespace=demo --install demo $chart --wait"
[[ "$got" == "$want"$'\n' ]]
check $? "got:" "$got" "want:" "$want"

[[ $failed == 0 ]]
