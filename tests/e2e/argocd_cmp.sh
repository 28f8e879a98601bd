#!/usr/bin/env bash
# End-to-end test: rollcall's Argo CD config-management plugins (integrations/argocd:
# plugin.yaml, rollcall-helm; plugin-kustomize.yaml, rollcall-kustomize).
#
# Usage: argocd_cmp.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. Helm 3 and 4 come from SOURCE_ROOT/.cache/helm (scripts/fetch-helm.sh) or
# $ROLLCALL_HELM3 / $ROLLCALL_HELM4; without Helm 3 every check is reported as skipped.
#
# No Argo CD runs here. The test does what argocd-cmp-server does with a plugin
# (argoproj/argo-cd cmpserver/plugin/plugin.go): it reads `generate` from the shipped
# plugin.yaml, runs command + args as given (no shell, no `$` expansion) in a copy of the
# Application's source folder, with the sidecar's environment plus the entries the
# repo-server sends, and keeps stdout as the manifests. Those entries, from the
# Application (pkg/apis/application/v1alpha1 ApplicationSourcePluginParameters.Environ
# and reposerver getPluginEnvs): the build environment (ARGOCD_APP_NAME,
# ARGOCD_APP_NAMESPACE, …, KUBE_VERSION, KUBE_API_VERSIONS); each plugin env entry as
# ARGOCD_ENV_<NAME>; the parameters as JSON in ARGOCD_APP_PARAMETERS and one by one as
# PARAM_<NAME> (string), PARAM_<NAME>_<INDEX> (array item), PARAM_<NAME>_<KEY> (map
# entry), NAME and KEY upper-cased with every character outside [A-Z0-9_] made `_`.
# Entries with an empty value are not sent.
set -uo pipefail

rollcall="${1:?usage: argocd_cmp.sh ROLLCALL_BINARY SOURCE_ROOT}"
root="${2:?usage: argocd_cmp.sh ROLLCALL_BINARY SOURCE_ROOT}"
rollcall="$(cd "$(dirname "$rollcall")" && pwd)/$(basename "$rollcall")"
root="$(cd "$root" && pwd)"
# shellcheck source=SCRIPTDIR/../lib/tap.sh
source "$root/tests/lib/tap.sh" || { echo "Bail out! cannot read $root/tests/lib/tap.sh"; exit 1; }
# shellcheck source=SCRIPTDIR/../lib/rendered.sh
source "$root/tests/lib/rendered.sh" || { echo "Bail out! cannot read $root/tests/lib/rendered.sh"; exit 1; }
# shellcheck source=SCRIPTDIR/../lib/argocd_application.sh
source "$root/tests/lib/argocd_application.sh" ||
  { echo "Bail out! cannot read $root/tests/lib/argocd_application.sh"; exit 1; }
helm3="${ROLLCALL_HELM3:-$root/.cache/helm/v3/helm}"
helm4="${ROLLCALL_HELM4:-$root/.cache/helm/v4/helm}"
plugin="$root/integrations/argocd/plugin.yaml"
kustomize_plugin="$root/integrations/argocd/plugin-kustomize.yaml"
example_app="$root/docs/examples/argocd-application.yaml"

checks=(
  "plugin.yaml: a ConfigManagementPlugin (argoproj.io/v1alpha1) generating with bash; discover ./Chart.yaml matches a chart folder only"
  "generate for docs/examples/argocd-application.yaml: exit 0, Deployment, CronJob and hook Job annotated"
  "the manifests are helm template | rollcall render run by hand with the Application's name, namespace and values files"
  "values-files parameter honoured: values-prod.yaml's log level and replicas, and a different Deployment hash"
  "job-policy parameter honoured: a plain Job is renamed by default and kept as rendered with keep"
  "strict=true (fail-on error) with an unresolved reference (edge-gateway): non-zero exit, the finding on stderr, nothing on stdout"
  "a malformed Secret: non-zero exit, rollcall's message on stderr, nothing on stdout"
  "helm failing (a values file that does not exist): helm's exit status and message, nothing on stdout"
  "values files outside the chart folder (absolute, ../, URL) are refused before helm runs"
  "a chart rendering no object: non-zero exit and nothing on stdout, not an empty manifest"
  "Helm 4 as helm: exit 0 and the same hashes as with Helm 3"
  "docs/examples/argocd-kustomization.yaml with the component: ConfigMap holds both plugin files; two sidecars run argocd-cmp-server as 999 from the pushed image, each with its plugin, var-files, plugins and its own /tmp"
  "release-name parameter: objects named after it, the same bytes as helm template NAME | rollcall render; an invalid name is refused"
  "values, set and set-string parameters: merged after the values files in that order, set typed as helm --set types, set-string as strings, commas and \$(...) kept literally"
  "booleans as Argo CD users write them: strict True, TRUE, yes fail on the error, False and no do not; 1 and tru are refused"
  "fail-on parameter: warning fails on a warning (duplicate-source) where the default, strict=true (fail-on error) and fail-on error pass; fail-on never wins over strict=true"
  "Chart.lock dependencies missing from charts/: file:// packaged, a repository one copied from ROLLCALL_CHART_CACHE (Helm 3 and 4); without it exit 4 naming the dependency, nothing on stdout"
  "hostile values of every parameter (commas, leading '-', newlines, escape sequences, \$(...), very long, unknown names) are refused before helm runs, shown escaped, nothing on stdout"
  "rollcall-kustomize (plugin-kustomize.yaml): discover a kustomization; generate is kubectl kustomize | rollcall render, byte for byte; hostile parameters refused"
  "a key the chart's own Secret lacks (charts/hook-sources, db.passwordKey=nope) fails the sync with no strict or fail-on: the missing-key finding on stderr, nothing on stdout; the chart as it is passes"
  "nothing left in the sidecar's TMPDIR after every run above"
)
echo "1..${#checks[@]}"

if [[ ! -x "$helm3" ]]; then
  skip_rest "Helm 3 not found at $helm3 (run scripts/fetch-helm.sh)"
  exit 0
fi
tap_python

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The sidecar's tools, one folder per Helm major: `helm`, `rollcall` and kubectl (for
# rollcall-kustomize) on PATH. In binw, helm logs each run to $tmp/helm-ran first.
kubectl_bin="$root/.cache/kubectl/kubectl"
[[ -x "$kubectl_bin" ]] || kubectl_bin="$(command -v kubectl || true)"
for major in 3 4 w; do
  mkdir -p "$tmp/bin$major"
  ln -s "$rollcall" "$tmp/bin$major/rollcall"
  [[ -z "$kubectl_bin" ]] || ln -s "$kubectl_bin" "$tmp/bin$major/kubectl"
done
ln -s "$helm3" "$tmp/bin3/helm"
[[ -x "$helm4" ]] && ln -s "$helm4" "$tmp/bin4/helm"
printf '#!/bin/sh\necho "helm $*" >>"%s"\nexec "%s" "$@"\n' "$tmp/helm-ran" "$helm3" >"$tmp/binw/helm"
chmod +x "$tmp/binw/helm"

cat >"$tmp/cmp_generate.py" <<'EOF'
"""Runs plugin.yaml's generate for an Application the way argocd-cmp-server does.

usage: cmp_generate.py PLUGIN APPLICATION SOURCE_DIR BIN_DIR SCRATCH OUT
Writes stdout to OUT and stderr to OUT.err; exits with the command's status."""
import os, subprocess, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import argocd_app_env
import k8s_json

plugin_file, app_file, source_dir, bin_dir, scratch, out = sys.argv[1:]
generate = k8s_json.load_one(plugin_file)["spec"]["generate"]
app = k8s_json.load_one(app_file)

# The sidecar container's own environment, and what the CMP server sends.
env = {"PATH": bin_dir + ":/usr/bin:/bin", "HOME": scratch + "/home", "TMPDIR": scratch + "/tmp",
       "HELM_CACHE_HOME": scratch + "/helm/cache", "HELM_CONFIG_HOME": scratch + "/helm/config",
       "HELM_DATA_HOME": scratch + "/helm/data"}
# Variables set on the sidecar container itself: SIDECAR_<NAME> here.
env.update({k[len("SIDECAR_"):]: v for k, v in os.environ.items() if k.startswith("SIDECAR_")})
env.update(argocd_app_env.plugin_environment(app))

command = generate["command"] + (generate.get("args") or [])
with open(out, "wb") as stdout, open(out + ".err", "wb") as stderr:
    sys.exit(subprocess.run(command, cwd=source_dir, env=env, stdout=stdout, stderr=stderr).returncode)
EOF

# generate APPLICATION SOURCE_DIR OUT [HELM_MAJOR]: plugin.yaml's generate (or
# $plugin_file's) for the Application, run in SOURCE_DIR (a copy, as Argo CD gives the
# plugin a copy). HELM_MAJOR w is Helm 3 logging its runs to $tmp/helm-ran.
generate() {
  mkdir -p "$tmp/scratch/tmp"
  "$python" "$tmp/cmp_generate.py" "${plugin_file:-$plugin}" "$1" "$2" "$tmp/bin${4:-3}" "$tmp/scratch" "$3"
}

# param NAME KIND VALUE...: one plugin parameter as a flow mapping (JSON), KIND string
# (one VALUE), array (each VALUE an item) or map (each VALUE KEY=VALUE), any character
# escaped.
param() {
  local name="$1" kind="$2" item items=""
  shift 2
  case "$kind" in
    string) printf '{"name": %s, "string": %s}\n' "$(json_string "$name")" "$(json_string "$1")" ;;
    array)
      for item in "$@"; do items+="${items:+, }$(json_string "$item")"; done
      printf '{"name": %s, "array": [%s]}\n' "$(json_string "$name")" "$items" ;;
    map)
      for item in "$@"; do items+="${items:+, }$(json_string "${item%%=*}"): $(json_string "${item#*=}")"; done
      printf '{"name": %s, "map": {%s}}\n' "$(json_string "$name")" "$items" ;;
  esac
}

# json_string TEXT: TEXT as a JSON string (which YAML reads too).
json_string() {
  local LC_ALL=C s="$1" out="" c i
  s="${s//\\/\\\\}"
  s="${s//\"/\\\"}"
  if [[ "$s" == *[[:cntrl:]]* ]]; then
    for ((i = 0; i < ${#s}; i++)); do
      c="${s:i:1}"
      [[ "$c" != [[:cntrl:]] ]] || printf -v c '\\u%04x' "'$c"
      out+="$c"
    done
    s="$out"
  fi
  printf '"%s"' "$s"
}

# 1: the plugin file as Argo CD reads it, and its discovery rule (Go's filepath.Glob of
# the app folder joined with fileName, which Python's glob matches the same way here).
shape="$("$python" - "$plugin" "$root/charts/webapp" "$root/docs" <<'EOF' 2>&1
import glob, os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
p = k8s_json.load_one(sys.argv[1])
spec = p["spec"]
print(p["apiVersion"], p["kind"], p["metadata"]["name"], spec["generate"]["command"])
print(sorted(x["name"] for x in spec["parameters"]["static"]))
for folder in sys.argv[2:]:
    print(os.path.basename(folder), bool(glob.glob(os.path.join(folder, spec["discover"]["fileName"]))))
EOF
)"
[[ "$shape" == "argoproj.io/v1alpha1 ConfigManagementPlugin rollcall-helm ['bash', '-c']
['fail-on', 'job-policy', 'release-name', 'set', 'set-string', 'strict', 'values', 'values-files']
webapp True
docs False" ]]
check $? "$shape"

# 2-4: the documented Application on a copy of its source folder.
cp -r "$root/charts/webapp" "$tmp/webapp"
generate "$example_app" "$tmp/webapp" "$tmp/app.yaml"
status=$?
dep_hash="$(field "$tmp/app.yaml" Deployment/webapp-prod-web 2)"
cron_hash="$(field "$tmp/app.yaml" CronJob/webapp-prod-cleanup 2)"
hook_hash="$(field "$tmp/app.yaml" Job/webapp-prod-migrate 2)"
[[ $status == 0 && "$dep_hash" =~ $hash_re && "$cron_hash" =~ $hash_re && "$hook_hash" =~ $hash_re ]]
check $? "exit $status; Deployment $dep_hash, CronJob $cron_hash, hook Job $hook_hash" \
  "$(cat "$tmp/app.yaml.err")"

(cd "$tmp/webapp" && "$helm3" template webapp-prod . --namespace prod --values values-prod.yaml |
  "$rollcall" render --namespace prod) >"$tmp/by-hand.yaml" 2>"$tmp/by-hand.err"
cmp -s "$tmp/by-hand.yaml" "$tmp/app.yaml"
check $? "$(diff "$tmp/by-hand.yaml" "$tmp/app.yaml" | head -20)" "$(cat "$tmp/by-hand.err")"

plain_hash="$(cd "$tmp/webapp" && "$helm3" template webapp-prod . --namespace prod |
  "$rollcall" render --namespace prod 2>/dev/null >"$tmp/no-values.yaml"
  field "$tmp/no-values.yaml" Deployment/webapp-prod-web 2)"
settings="$("$python" - "$tmp/app.yaml" <<'EOF' 2>&1
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
for doc in k8s_json.load_all(sys.argv[1]):
    if doc and doc["kind"] == "ConfigMap": print("LOG_LEVEL=" + doc["data"]["LOG_LEVEL"])
    if doc and doc["kind"] == "Deployment": print("replicas=%d" % doc["spec"]["replicas"])
EOF
)"
[[ "$(sort <<<"$settings" | tr '\n' ' ')" == "LOG_LEVEL=warn replicas=3 " &&
  "$plain_hash" =~ $hash_re && "$plain_hash" != "$dep_hash" ]]
check $? "$settings" "Deployment hash with values-prod.yaml: $dep_hash, without: $plain_hash"

# 5: a plain Job (not a hook, not run-once) in a copy of the chart.
cp -r "$root/charts/webapp" "$tmp/jobs"
cat >"$tmp/jobs/templates/seed-job.yaml" <<'EOF'
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ .Release.Name }}-seed
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: seed
          image: busybox:1.36
          envFrom:
            - secretRef:
                name: {{ .Release.Name }}-db
EOF
application "$tmp/rename.app.yaml" jobs charts/jobs
application "$tmp/keep.app.yaml" jobs charts/jobs '{name: job-policy, string: keep}'
generate "$tmp/rename.app.yaml" "$tmp/jobs" "$tmp/rename.yaml"
rename_status=$?
generate "$tmp/keep.app.yaml" "$tmp/jobs" "$tmp/keep.yaml"
keep_status=$?
renamed="$(objects "$tmp/rename.yaml" | grep '^Job/' | sort | tr '\n' ' ')"
kept="$(objects "$tmp/keep.yaml" | grep '^Job/' | sort | tr '\n' ' ')"
[[ $rename_status == 0 && $keep_status == 0 &&
  "$renamed" =~ ^Job/jobs-migrate\ Job/jobs-seed-[0-9a-f]{8}\ $ &&
  "$kept" == "Job/jobs-migrate Job/jobs-seed " &&
  "$(field "$tmp/keep.yaml" Job/jobs-seed 2)" == "-" ]]
check $? "exit $rename_status / $keep_status; Jobs by default: $renamed; with keep: $kept" \
  "$(cat "$tmp/rename.yaml.err" "$tmp/keep.yaml.err")"

# 6: strict. edge-gateway reads Secrets from outside the chart: unresolved references.
cp -r "$root/charts/edge-gateway" "$tmp/edge"
application "$tmp/strict.app.yaml" edge charts/edge '{name: strict, string: "true"}'
generate "$tmp/strict.app.yaml" "$tmp/edge" "$tmp/strict.yaml"
status=$?
[[ $status != 0 && ! -s "$tmp/strict.yaml" ]] &&
  grep -q 'error\[unresolved-reference\] Deployment prod/edge-gateway reads secret/edge-client-tls' "$tmp/strict.yaml.err"
check $? "exit $status, stdout $(wc -c <"$tmp/strict.yaml") bytes; stderr:" "$(cat "$tmp/strict.yaml.err")"

# 7: rollcall refuses the input.
cp -r "$root/charts/webapp" "$tmp/broken"
printf 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: broken\ndata:\n  token: "not base64!"\n' \
  >"$tmp/broken/templates/broken-secret.yaml"
application "$tmp/broken.app.yaml" broken charts/broken
generate "$tmp/broken.app.yaml" "$tmp/broken" "$tmp/broken.yaml"
status=$?
[[ $status != 0 && ! -s "$tmp/broken.yaml" ]] &&
  grep -q 'webapp/templates/broken-secret.yaml.*Secret prod/broken: data.token is not valid base64' "$tmp/broken.yaml.err"
check $? "exit $status, stdout $(wc -c <"$tmp/broken.yaml") bytes; stderr:" "$(cat "$tmp/broken.yaml.err")"

# 8: helm refuses: rollcall then reads an empty stream and succeeds; pipefail makes
# the command fail with helm's status and message (the no-object guard of check 10
# would catch it too, but later and with a misleading message).
application "$tmp/missing.app.yaml" webapp-prod charts/webapp '{name: values-files, array: [values-missing.yaml]}'
generate "$tmp/missing.app.yaml" "$tmp/webapp" "$tmp/missing.yaml"
status=$?
[[ $status == 1 && ! -s "$tmp/missing.yaml" ]] && grep -q '^Error: .*values-missing.yaml' "$tmp/missing.yaml.err" &&
  ! grep -q 'rendered no object' "$tmp/missing.yaml.err"
check $? "exit $status, stdout $(wc -c <"$tmp/missing.yaml") bytes; stderr:" "$(cat "$tmp/missing.yaml.err")"

# 9: a parameter naming a file outside the source folder, or a URL helm would fetch.
outside_log=""
outside_ok=0
for bad in /etc/passwd ../edge/values.yaml 'a/../../b.yaml' 'https://example.com/values.yaml'; do
  application "$tmp/outside.app.yaml" webapp-prod charts/webapp "{name: values-files, array: [values-prod.yaml, '$bad']}"
  generate "$tmp/outside.app.yaml" "$tmp/webapp" "$tmp/outside.yaml"
  status=$?
  outside_log+="$bad: exit $status, stdout $(wc -c <"$tmp/outside.yaml") bytes: $(cat "$tmp/outside.yaml.err")"$'\n'
  [[ $status == 2 && ! -s "$tmp/outside.yaml" ]] &&
    grep -qF "rollcall-helm: values file '$bad': give a relative path inside the chart folder" "$tmp/outside.yaml.err" ||
    outside_ok=1
done
check $outside_ok "$outside_log"

# 10: nothing to deploy is refused, so Argo CD does not prune the application.
mkdir -p "$tmp/sparse/templates"
printf 'apiVersion: v2\nname: sparse\nversion: 0.1.0\n' >"$tmp/sparse/Chart.yaml"
printf '# Nothing here yet.\n---\n# (placeholder)\n' >"$tmp/sparse/templates/placeholder.yaml"
application "$tmp/sparse.app.yaml" sparse charts/sparse
generate "$tmp/sparse.app.yaml" "$tmp/sparse" "$tmp/sparse.yaml"
status=$?
[[ $status == 3 && ! -s "$tmp/sparse.yaml" ]] &&
  grep -q 'rollcall-helm: the chart rendered no object' "$tmp/sparse.yaml.err"
check $? "exit $status, stdout $(wc -c <"$tmp/sparse.yaml") bytes; stderr:" "$(cat "$tmp/sparse.yaml.err")"

# 11: the sidecar may carry Helm 4 instead.
if [[ -x "$helm4" ]]; then
  generate "$example_app" "$tmp/webapp" "$tmp/app4.yaml" 4
  status=$?
  pod_templates "$tmp/app.yaml" | cut -f1,2 | sort >"$tmp/hashes3"
  pod_templates "$tmp/app4.yaml" | cut -f1,2 | sort >"$tmp/hashes4"
  [[ $status == 0 && "$(grep -c sha256 "$tmp/hashes4")" == 3 ]] && cmp -s "$tmp/hashes3" "$tmp/hashes4"
  check $? "exit $status; Helm 3:" "$(cat "$tmp/hashes3")" "Helm 4:" "$(cat "$tmp/hashes4")" \
    "$(cat "$tmp/app4.yaml.err")"
else
  skip "Helm 4 not found at $helm4"
fi

# 12: installing the sidecar. The documented kustomization, as a user lays it out: next
# to a folder `argocd` holding the Argo CD installation (here its repo-server
# Deployment) and to this repository as `rollcall`.
if command -v kubectl >/dev/null 2>&1; then
  mkdir -p "$tmp/install/argocd"
  cp "$root/tests/e2e/argocd/argocd-repo-server.yaml" "$tmp/install/argocd/"
  printf 'resources:\n  - argocd-repo-server.yaml\n' >"$tmp/install/argocd/kustomization.yaml"
  ln -s "$root" "$tmp/install/rollcall"
  cp "$root/docs/examples/argocd-kustomization.yaml" "$tmp/install/kustomization.yaml"
  kubectl kustomize "$tmp/install" >"$tmp/installed.yaml" 2>"$tmp/installed.err"
  status=$?
  installed="$("$python" - "$tmp/installed.yaml" "$plugin" "$kustomize_plugin" <<'EOF' 2>&1
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
docs = [d for d in k8s_json.load_all(sys.argv[1]) if d]
cms = [d for d in docs if d["kind"] == "ConfigMap"]
dep = [d for d in docs if d["kind"] == "Deployment"][0]
pod = dep["spec"]["template"]["spec"]
print("configmaps:", len(cms), "files:", sorted(cms[0]["data"]), "as shipped:",
      [cms[0]["data"][os.path.basename(f)] == open(f).read() for f in sys.argv[2:]])
print("containers:", sorted(c["name"] for c in pod["containers"]))
vols = {v["name"]: v for v in pod["volumes"]}
for name in ("rollcall-cmp", "rollcall-cmp-kustomize"):
    side = [c for c in pod["containers"] if c["name"] == name][0]
    print(name, "command:", side["command"], "user:", side["securityContext"]["runAsUser"])
    print("image:", side["image"])
    for m in side["volumeMounts"]:
        v = vols[m["name"]]
        source = ("the ConfigMap" if v["configMap"]["name"] == cms[0]["metadata"]["name"] else v["configMap"]) \
            if "configMap" in v else "%s (%s)" % (m["name"], sorted(set(v) - {"name"})[0])
        print("mount:", m["mountPath"], m.get("subPath", "-"), source)
EOF
)"
  want="configmaps: 1 files: ['plugin-kustomize.yaml', 'plugin.yaml'] as shipped: [True, True]
containers: ['argocd-repo-server', 'rollcall-cmp', 'rollcall-cmp-kustomize']
rollcall-cmp command: ['/var/run/argocd/argocd-cmp-server'] user: 999
image: registry.example.com/platform/rollcall-argocd-cmp:0.1.0
mount: /var/run/argocd - var-files (emptyDir)
mount: /home/argocd/cmp-server/plugins - plugins (emptyDir)
mount: /home/argocd/cmp-server/config/plugin.yaml plugin.yaml the ConfigMap
mount: /tmp - rollcall-cmp-tmp (emptyDir)
rollcall-cmp-kustomize command: ['/var/run/argocd/argocd-cmp-server'] user: 999
image: registry.example.com/platform/rollcall-argocd-cmp:0.1.0
mount: /var/run/argocd - var-files (emptyDir)
mount: /home/argocd/cmp-server/plugins - plugins (emptyDir)
mount: /home/argocd/cmp-server/config/plugin.yaml plugin-kustomize.yaml the ConfigMap
mount: /tmp - rollcall-cmp-kustomize-tmp (emptyDir)"
  [[ $status == 0 && "$installed" == "$want" ]]
  check $? "kubectl kustomize exited $status:" "$installed" "want:" "$want" "$(cat "$tmp/installed.err")"
else
  skip "no kubectl for kubectl kustomize"
fi

# 13: release-name, as Argo CD's helm.releaseName.
application "$tmp/release.app.yaml" webapp-prod charts/webapp "$(param release-name string web)" \
  "$(param values-files array values-prod.yaml)"
generate "$tmp/release.app.yaml" "$tmp/webapp" "$tmp/release.yaml"
status=$?
(cd "$tmp/webapp" && "$helm3" template web . --namespace prod --values values-prod.yaml |
  "$rollcall" render --namespace prod) >"$tmp/release-by-hand.yaml" 2>/dev/null
application "$tmp/badrelease.app.yaml" webapp-prod charts/webapp "$(param release-name string Web_1)"
generate "$tmp/badrelease.app.yaml" "$tmp/webapp" "$tmp/badrelease.yaml"
bad_status=$?
[[ $status == 0 && "$(field "$tmp/release.yaml" Deployment/web-web 2)" =~ $hash_re && $bad_status == 2 &&
  ! -s "$tmp/badrelease.yaml" ]] && cmp -s "$tmp/release.yaml" "$tmp/release-by-hand.yaml" &&
  grep -qF "rollcall-helm: release name 'Web_1': not a Helm release name" "$tmp/badrelease.yaml.err"
check $? "exit $status, invalid name exit $bad_status; objects:" "$(objects "$tmp/release.yaml" | tr '\n' ' ')" \
  "$(diff "$tmp/release-by-hand.yaml" "$tmp/release.yaml" | head -10)" "$(cat "$tmp/release.yaml.err" "$tmp/badrelease.yaml.err")"

# 14: values, set and set-string on a chart that prints its values as JSON.
mkdir -p "$tmp/dump/templates"
printf 'apiVersion: v2\nname: dump\nversion: 0.1.0\n' >"$tmp/dump/Chart.yaml"
printf 'order: chart\nkeep: 1\n' >"$tmp/dump/values.yaml"
printf 'order: file\nfromFile: yes-it-is\n' >"$tmp/dump/values-a.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-values\ndata:\n  values: {{ toJson .Values | quote }}\n' \
  >"$tmp/dump/templates/values.yaml"
rm -f "$tmp/marker"
application "$tmp/values.app.yaml" dump charts/dump "$(param values-files array values-a.yaml)" \
  "$(param values string "order: values
inline:
  shell: \"\$(touch $tmp/marker)\"
  list: [a, b]
")" \
  "$(param set array 'order=set' 'on=True' 'off=false' 'nothing=null' 'count=-0042' 'zip=0123' \
    'huge=9223372036854775808' 'csv=a,b=c' "cmd=\$(touch $tmp/marker)" 'quote=say "hi" \n' \
    'deep.er.key=1' 'dotted\.name.x=y')" \
  "$(param set-string array 'str=true' 'order=set-string')"
generate "$tmp/values.app.yaml" "$tmp/dump" "$tmp/values.yaml"
status=$?
got_values="$("$python" - "$tmp/values.yaml" <<'EOF' 2>&1
import json, os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
for doc in k8s_json.load_all(sys.argv[1]):
    if doc and doc["kind"] == "ConfigMap":
        print(json.dumps(json.loads(doc["data"]["values"]), sort_keys=True))
EOF
)"
want_values='{"cmd": "$(touch '"$tmp"'/marker)", "count": -42, "csv": "a,b=c", "deep": {"er": {"key": 1}}, "dotted.name": {"x": "y"}, "fromFile": "yes-it-is", "huge": "9223372036854775808", "inline": {"list": ["a", "b"], "shell": "$(touch '"$tmp"'/marker)"}, "keep": 1, "nothing": null, "off": false, "on": true, "order": "set-string", "quote": "say \"hi\" \\n", "str": "true", "zip": "0123"}'
[[ $status == 0 && "$got_values" == "$want_values" && ! -e "$tmp/marker" ]]
check $? "exit $status; got:" "$got_values" "want:" "$want_values" "$(cat "$tmp/values.yaml.err")"

# 15, 16: booleans, and fail-on. edge-gateway has errors (unresolved references); warn,
# webapp with its ConfigMap defined twice, only a warning (duplicate-source).
cp -r "$root/charts/webapp" "$tmp/warn"
cp "$tmp/warn/templates/configmap.yaml" "$tmp/warn/templates/configmap-again.yaml"
bool_log="" bool_ok=0
for value in True TRUE yes False no 1 tru; do
  application "$tmp/bool.app.yaml" edge charts/edge "$(param strict string "$value")"
  generate "$tmp/bool.app.yaml" "$tmp/edge" "$tmp/bool.yaml" w
  status=$?
  bool_log+="strict=$value: exit $status, stdout $(wc -c <"$tmp/bool.yaml") bytes, $(grep -c 'error\[unresolved-reference\]' "$tmp/bool.yaml.err") findings; $(grep rollcall-helm "$tmp/bool.yaml.err")"$'\n'
  case "$value" in
    True | TRUE | yes | true) [[ $status != 0 && ! -s "$tmp/bool.yaml" ]] &&
      grep -q 'error\[unresolved-reference\]' "$tmp/bool.yaml.err" || bool_ok=1 ;;
    False | no | FALSE) [[ $status == 0 && -s "$tmp/bool.yaml" ]] || bool_ok=1 ;;
    *) [[ $status == 2 && ! -s "$tmp/bool.yaml" ]] &&
      grep -qF "rollcall-helm: strict '$value': give true or false" "$tmp/bool.yaml.err" || bool_ok=1 ;;
  esac
done
check $bool_ok "$bool_log"

failon_log="" failon_ok=0
for case in "warning:warn:1" "error:warn:0" ":warn:0" "strict:warn:0" "never+strict:edge:0" "error:edge:1"; do
  IFS=: read -r how chart want <<<"$case"
  params=()
  case "$how" in
    strict) params+=("$(param strict string true)") ;;
    never+strict) params+=("$(param strict string true)" "$(param fail-on string never)") ;;
    "") ;;
    *) params+=("$(param fail-on string "$how")") ;;
  esac
  application "$tmp/failon.app.yaml" "$chart" "charts/$chart" "${params[@]}"
  generate "$tmp/failon.app.yaml" "$tmp/$chart" "$tmp/failon.yaml"
  status=$?
  failed_run=0
  [[ $status == 0 ]] || failed_run=1
  failon_log+="fail-on=$how on $chart: exit $status, stdout $(wc -c <"$tmp/failon.yaml") bytes; $(grep -o '\(warning\|error\)\[[a-z-]*\]' "$tmp/failon.yaml.err" | sort -u | tr '\n' ' ')"$'\n'
  [[ $failed_run == "$want" ]] && { [[ $want == 0 ]] || [[ ! -s "$tmp/failon.yaml" ]]; } || failon_ok=1
done
grep -q 'fail-on=warning on warn: exit 1.*warning\[duplicate-source\]' <<<"$failon_log" || failon_ok=1
check $failon_ok "$failon_log"

# 17: dependencies. app depends on common (file://../common) and lib (a repository the
# sidecar cannot reach); Chart.lock pins both, charts/ is empty; lib's archive is in a
# folder the sidecar names with ROLLCALL_CHART_CACHE.
mkdir -p "$tmp/deps/common/templates" "$tmp/deps/lib/templates" "$tmp/deps/app/templates" "$tmp/chart-cache"
for sub in common:1.2.3 lib:0.4.0; do
  printf 'apiVersion: v2\nname: %s\nversion: %s\n' "${sub%%:*}" "${sub#*:}" >"$tmp/deps/${sub%%:*}/Chart.yaml"
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-%s\ndata:\n  from: %s\n' \
    "${sub%%:*}" "${sub%%:*}" >"$tmp/deps/${sub%%:*}/templates/configmap.yaml"
done
printf 'apiVersion: v2\nname: app\nversion: 0.1.0\ndependencies:\n  - name: common\n    version: ~1.2.0\n    repository: file://../common\n  - name: lib\n    version: 0.4.x\n    repository: https://charts.example.invalid/stable\n' \
  >"$tmp/deps/app/Chart.yaml"
printf 'dependencies:\n- name: common\n  repository: file://../common\n  version: 1.2.3\n- name: lib\n  repository: https://charts.example.invalid/stable\n  version: 0.4.0\ndigest: sha256:0000000000000000000000000000000000000000000000000000000000000000\ngenerated: "2025-01-01T00:00:00Z"\n' \
  >"$tmp/deps/app/Chart.lock"
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec:\n      containers:\n        - name: a\n          image: busybox:1.36\n          envFrom:\n            - configMapRef: {name: {{ .Release.Name }}-lib}\n' \
  >"$tmp/deps/app/templates/deployment.yaml"
"$helm3" package "$tmp/deps/lib" --destination "$tmp/chart-cache" >/dev/null 2>&1
deps_log="" deps_ok=0
application "$tmp/deps.app.yaml" app deps/app
cp -r "$tmp/deps" "$tmp/deps-nocache"
generate "$tmp/deps.app.yaml" "$tmp/deps-nocache/app" "$tmp/deps-nocache.yaml"
status=$?
deps_log+="no cache: exit $status, stdout $(wc -c <"$tmp/deps-nocache.yaml") bytes: $(cat "$tmp/deps-nocache.yaml.err")"$'\n'
[[ $status == 4 && ! -s "$tmp/deps-nocache.yaml" ]] &&
  grep -q 'rollcall-helm: dependency lib 0.4.0 from .https://charts.example.invalid/stable., pinned by Chart.lock, is not in charts/ and the sidecar names no folder of chart archives (ROLLCALL_CHART_CACHE)' "$tmp/deps-nocache.yaml.err" ||
  deps_ok=1
for major in 3 4; do
  [[ $major == 4 && ! -x "$helm4" ]] && continue
  rm -rf "$tmp/deps$major" && cp -r "$tmp/deps" "$tmp/deps$major"
  SIDECAR_ROLLCALL_CHART_CACHE="$tmp/chart-cache" generate "$tmp/deps.app.yaml" "$tmp/deps$major/app" "$tmp/deps$major.yaml" "$major"
  status=$?
  got="$(objects "$tmp/deps$major.yaml" | sort | tr '\n' ' ')charts/: $(ls "$tmp/deps$major/app/charts" | tr '\n' ' ')hash: $(field "$tmp/deps$major.yaml" Deployment/app 3)"
  deps_log+="Helm $major with the cache: exit $status; $got; $(cat "$tmp/deps$major.yaml.err")"$'\n'
  [[ $status == 0 && "$got" == "ConfigMap/app-common ConfigMap/app-lib Deployment/app charts/: common-1.2.3.tgz lib-0.4.0.tgz hash: configmap/app-lib" ]] ||
    deps_ok=1
done
check $deps_ok "$deps_log"

# 18: hostile values, each refused with exit 2 before helm runs (binw logs helm's runs),
# shown with its control characters escaped.
hostile_log="" hostile_ok=0
long="$(printf 'a%.0s' {1..1500})"
# hostile NAME KIND VALUE MESSAGE: the Application with that one parameter is refused.
hostile() {
  rm -f "$tmp/helm-ran" "$tmp/marker"
  application "$tmp/hostile.app.yaml" webapp-prod charts/webapp "$(param "$1" "$2" "$3")"
  generate "$tmp/hostile.app.yaml" "$tmp/webapp" "$tmp/hostile.yaml" w
  local status=$? ok=0
  [[ $status == 2 && ! -s "$tmp/hostile.yaml" && ! -e "$tmp/helm-ran" && ! -e "$tmp/marker" ]] &&
    grep -qF -- "$4" "$tmp/hostile.yaml.err" && ! LC_ALL=C grep -q '[[:cntrl:]]' "$tmp/hostile.yaml.err" || ok=1
  hostile_log+="$1 ($2) $(printf '%q' "${3:0:60}"): exit $status, stdout $(wc -c <"$tmp/hostile.yaml") bytes, helm ran: $([[ -e "$tmp/helm-ran" ]] && echo yes || echo no): $(head -c 300 "$tmp/hostile.yaml.err" | LC_ALL=C tr -c '[:print:]\n' '?')"$'\n'
  [[ $ok == 0 ]] || hostile_ok=1
}
hostile values-files array 'values.yaml,../../etc/passwd' "helm splits --values at commas"
hostile values-files array 'values.yaml,/abs/path' "helm splits --values at commas"
hostile values-files array '../other-tenant/values.yaml' "give a relative path inside the chart folder"
hostile values-files array 'templates/../../other-tenant/values.yaml' "give a relative path inside the chart folder"
hostile values-files array '/etc/passwd' "give a relative path inside the chart folder"
hostile values-files array 'https://example.com/values.yaml' "give a relative path inside the chart folder"
hostile values-files array '-' "a path may not start with '-'"
hostile values-files array '--post-renderer=/bin/sh' "a path may not start with '-'"
hostile values-files array $'values.yaml\n--set=x' "control characters are not allowed"
hostile values-files array "$long" "longer than 1024 characters"
hostile values-files array 'file:values.yaml' "give a relative path inside the chart folder"
hostile release-name string '-rf' "not a Helm release name"
hostile release-name string "\$(touch $tmp/marker)" "not a Helm release name"
hostile release-name string $'web\e]0;pwned\a' "\$'web\\E]0;pwned\\a'"
hostile release-name string 'a,b' "not a Helm release name"
hostile release-name string "$(printf 'a%.0s' {1..54})" "longer than 53 characters"
hostile values string $'a: 1\n\e[2Jb: 2' "control characters are not allowed"
hostile set array 'a[0]=x' "no list index, use values"
hostile set array '-a=x' "KEY is names of"
hostile set array '--set' "give KEY=VALUE"
hostile set array $'a=1\nb=2' "control characters are not allowed"
hostile set array "a=$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long$long" "longer than 65536 characters"
hostile set-string array "\$(touch $tmp/marker)=x" "KEY is names of"
hostile set-string array 'a.=x' "KEY is names of"
hostile job-policy string '--help' "job-policy '--help': give rename or keep"
hostile job-policy string $'keep\n' "job-policy \$'keep\\n': give rename or keep"
hostile fail-on string 'Error' "fail-on 'Error': give error, warning or never"
hostile fail-on string '--fail-on=never' "give error, warning or never"
hostile strict string "\$(touch $tmp/marker)" "give true or false"
hostile set map 'image.tag=1' "unknown parameter (PARAM_SET_IMAGE_TAG)"
hostile values-files string 'values-prod.yaml' "unknown parameter (PARAM_VALUES_FILES)"
check $hostile_ok "$hostile_log"

# 19: rollcall-kustomize on a kustomization: a Deployment reading a generated ConfigMap.
kust_log="" kust_ok=0
kshape="$("$python" - "$kustomize_plugin" "$tmp/webapp" <<'EOF' 2>&1
import glob, os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
p = k8s_json.load_one(sys.argv[1])
spec = p["spec"]
print(p["kind"], p["metadata"]["name"], spec["generate"]["command"], sorted(x["name"] for x in spec["parameters"]["static"]))
for folder in sys.argv[2:]:
    print(os.path.basename(folder), bool(glob.glob(os.path.join(folder, spec["discover"]["fileName"]))))
EOF
)"
mkdir -p "$tmp/kust"
printf 'resources:\n  - deployment.yaml\nconfigMapGenerator:\n  - name: settings\n    literals: [LOG_LEVEL=debug]\n' \
  >"$tmp/kust/kustomization.yaml"
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec:\n      containers:\n        - name: api\n          image: busybox:1.36\n          envFrom:\n            - configMapRef: {name: settings}\n' \
  >"$tmp/kust/deployment.yaml"
kshape+=$'\n'"$("$python" - "$kustomize_plugin" "$tmp/kust" <<'EOF' 2>&1
import glob, os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
spec = k8s_json.load_one(sys.argv[1])["spec"]
print(os.path.basename(sys.argv[2]), bool(glob.glob(os.path.join(sys.argv[2], spec["discover"]["fileName"]))))
EOF
)"
kust_log+="$kshape"$'\n'
[[ "$kshape" == "ConfigManagementPlugin rollcall-kustomize ['bash', '-c'] ['fail-on', 'job-policy', 'strict']
webapp False
kust True" ]] || kust_ok=1
if [[ -n "$kubectl_bin" ]]; then
  application "$tmp/kust.app.yaml" api apps/kust
  plugin_file="$kustomize_plugin" generate "$tmp/kust.app.yaml" "$tmp/kust" "$tmp/kust.yaml"
  status=$?
  (cd "$tmp/kust" && "$kubectl_bin" kustomize . | "$rollcall" render --namespace prod) >"$tmp/kust-by-hand.yaml" 2>/dev/null
  kust_log+="exit $status; Deployment/api: $(field "$tmp/kust.yaml" Deployment/api 3) $(cat "$tmp/kust.yaml.err")"$'\n'
  [[ $status == 0 && "$(field "$tmp/kust.yaml" Deployment/api 2)" =~ $hash_re ]] &&
    cmp -s "$tmp/kust.yaml" "$tmp/kust-by-hand.yaml" || kust_ok=1
  for bad in "strict:maybe:give true or false" "fail-on:Warning:give error, warning or never" \
    "release-name:x:unknown parameter (PARAM_RELEASE_NAME)"; do
    IFS=: read -r pname pvalue pmessage <<<"$bad"
    application "$tmp/kust-bad.app.yaml" api apps/kust "$(param "$pname" string "$pvalue")"
    plugin_file="$kustomize_plugin" generate "$tmp/kust-bad.app.yaml" "$tmp/kust" "$tmp/kust-bad.yaml"
    status=$?
    kust_log+="$pname=$pvalue: exit $status, stdout $(wc -c <"$tmp/kust-bad.yaml") bytes: $(cat "$tmp/kust-bad.yaml.err")"$'\n'
    [[ $status == 2 && ! -s "$tmp/kust-bad.yaml" ]] && grep -qF "rollcall-kustomize: " "$tmp/kust-bad.yaml.err" &&
      grep -qF "$pmessage" "$tmp/kust-bad.yaml.err" || kust_ok=1
  done
else
  kust_log+="no kubectl"
  kust_ok=1
fi
check $kust_ok "$kust_log"

# 20: a finding certain to fail the deploy fails the sync by default, where Argo CD shows
# it. The chart's Secret is a pre-install,pre-upgrade hook: helm template prints it and
# the whole stream goes through rollcall, so it is read and hashed.
cp -r "$root/charts/hook-sources" "$tmp/hooks"
application "$tmp/hooks.app.yaml" hooks charts/hooks
generate "$tmp/hooks.app.yaml" "$tmp/hooks" "$tmp/hooks.yaml"
ok_status=$?
application "$tmp/hooks-bad.app.yaml" hooks charts/hooks "$(param set array 'db.passwordKey=nope')"
generate "$tmp/hooks-bad.app.yaml" "$tmp/hooks" "$tmp/hooks-bad.yaml"
status=$?
[[ $ok_status == 0 && "$(field "$tmp/hooks.yaml" Deployment/hooks-server 2)" =~ $hash_re &&
  $status == 1 && ! -s "$tmp/hooks-bad.yaml" ]] &&
  grep -q 'error\[missing-key\] Secret prod/hooks-db has no key "nope", which Deployment prod/hooks-server reads' "$tmp/hooks-bad.yaml.err" &&
  grep -q 'findings that would fail the deploy (missing-key); nothing written' "$tmp/hooks-bad.yaml.err"
check $? "as it is: exit $ok_status, $(cat "$tmp/hooks.yaml.err")" \
  "with db.passwordKey=nope: exit $status, stdout $(wc -c <"$tmp/hooks-bad.yaml") bytes; stderr:" \
  "$(cat "$tmp/hooks-bad.yaml.err")"

# 21: the plugins' temporary folders are gone.
leftover="$(find "$tmp/scratch/tmp" -mindepth 1 2>&1)"
[[ -z "$leftover" ]]
check $? "left in TMPDIR:" "$leftover"

[[ $failed == 0 ]]
