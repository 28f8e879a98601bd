#!/usr/bin/env bash
# End-to-end test: rollcall's Argo CD config-management plugin (integrations/argocd).
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
example_app="$root/docs/examples/argocd-application.yaml"

checks=(
  "plugin.yaml: a ConfigManagementPlugin (argoproj.io/v1alpha1) generating with bash; discover ./Chart.yaml matches a chart folder only"
  "generate for docs/examples/argocd-application.yaml: exit 0, Deployment, CronJob and hook Job annotated"
  "the manifests are helm template | rollcall render run by hand with the Application's name, namespace and values files"
  "values-files parameter honoured: values-prod.yaml's log level and replicas, and a different Deployment hash"
  "job-policy parameter honoured: a plain Job is renamed by default and kept as rendered with keep"
  "strict=true with an unresolved reference (edge-gateway): non-zero exit, the finding on stderr, nothing on stdout"
  "a malformed Secret: non-zero exit, rollcall's message on stderr, nothing on stdout"
  "helm failing (a values file that does not exist): helm's exit status and message, nothing on stdout"
  "values files outside the chart folder (absolute, ../, URL) are refused before helm runs"
  "a chart rendering no object: non-zero exit and nothing on stdout, not an empty manifest"
  "Helm 4 as helm: exit 0 and the same hashes as with Helm 3"
  "docs/examples/argocd-kustomization.yaml with the component: ConfigMap holds plugin.yaml; sidecar runs argocd-cmp-server as 999 from the pushed image, with plugin.yaml, var-files, plugins and its own /tmp"
)
echo "1..${#checks[@]}"

if [[ ! -x "$helm3" ]]; then
  skip_rest "Helm 3 not found at $helm3 (run scripts/fetch-helm.sh)"
  exit 0
fi
tap_python

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The sidecar's tools, one folder per Helm major: `helm` and `rollcall` on PATH.
for major in 3 4; do
  mkdir -p "$tmp/bin$major"
  ln -s "$rollcall" "$tmp/bin$major/rollcall"
done
ln -s "$helm3" "$tmp/bin3/helm"
[[ -x "$helm4" ]] && ln -s "$helm4" "$tmp/bin4/helm"

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
env = {"PATH": bin_dir + ":/usr/bin:/bin", "HOME": scratch + "/home",
       "HELM_CACHE_HOME": scratch + "/helm/cache", "HELM_CONFIG_HOME": scratch + "/helm/config",
       "HELM_DATA_HOME": scratch + "/helm/data"}
env.update(argocd_app_env.plugin_environment(app))

command = generate["command"] + (generate.get("args") or [])
with open(out, "wb") as stdout, open(out + ".err", "wb") as stderr:
    sys.exit(subprocess.run(command, cwd=source_dir, env=env, stdout=stdout, stderr=stderr).returncode)
EOF

# generate APPLICATION SOURCE_DIR OUT [HELM_MAJOR]: plugin.yaml's generate for the
# Application, run in SOURCE_DIR (a copy, as Argo CD gives the plugin a copy).
generate() {
  mkdir -p "$tmp/scratch"
  "$python" "$tmp/cmp_generate.py" "$plugin" "$1" "$2" "$tmp/bin${4:-3}" "$tmp/scratch" "$3"
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
['job-policy', 'strict', 'values-files']
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
  installed="$("$python" - "$tmp/installed.yaml" "$plugin" <<'EOF' 2>&1
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
docs = [d for d in k8s_json.load_all(sys.argv[1]) if d]
shipped = open(sys.argv[2]).read()
cms = [d for d in docs if d["kind"] == "ConfigMap"]
dep = [d for d in docs if d["kind"] == "Deployment"][0]
pod = dep["spec"]["template"]["spec"]
print("configmaps:", len(cms), "plugin.yaml as shipped:", cms[0]["data"]["plugin.yaml"] == shipped)
print("containers:", sorted(c["name"] for c in pod["containers"]))
side = [c for c in pod["containers"] if c["name"] == "rollcall-cmp"][0]
print("command:", side["command"], "user:", side["securityContext"]["runAsUser"])
print("image:", side["image"])
vols = {v["name"]: v for v in pod["volumes"]}
for m in side["volumeMounts"]:
    v = vols[m["name"]]
    source = ("the ConfigMap" if v["configMap"]["name"] == cms[0]["metadata"]["name"] else v["configMap"]) \
        if "configMap" in v else "%s (%s)" % (m["name"], sorted(set(v) - {"name"})[0])
    print("mount:", m["mountPath"], m.get("subPath", "-"), source)
EOF
)"
  want="configmaps: 1 plugin.yaml as shipped: True
containers: ['argocd-repo-server', 'rollcall-cmp']
command: ['/var/run/argocd/argocd-cmp-server'] user: 999
image: registry.example.com/platform/rollcall-argocd-cmp:0.1.0
mount: /var/run/argocd - var-files (emptyDir)
mount: /home/argocd/cmp-server/plugins - plugins (emptyDir)
mount: /home/argocd/cmp-server/config/plugin.yaml plugin.yaml the ConfigMap
mount: /tmp - rollcall-cmp-tmp (emptyDir)"
  [[ $status == 0 && "$installed" == "$want" ]]
  check $? "kubectl kustomize exited $status:" "$installed" "want:" "$want" "$(cat "$tmp/installed.err")"
else
  skip "no kubectl for kubectl kustomize"
fi

[[ $failed == 0 ]]
