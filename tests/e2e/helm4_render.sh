#!/usr/bin/env bash
# End-to-end test: rollcall as a Helm 4 post-renderer plugin (integrations/helm-plugin)
# on charts/webapp and charts/edge-gateway.
#
# Usage: helm4_render.sh ROLLCALL_BINARY SOURCE_ROOT PROJECT_VERSION
# Prints TAP. Helm comes from SOURCE_ROOT/.cache/helm/v4/helm (scripts/fetch-helm.sh) or
# $ROLLCALL_HELM4; when it is missing every check is reported as skipped.
#
# Facts about Helm 4 (v4.1.4) that the checks below rely on, seen with a recording plugin:
# - `--post-renderer` takes only a plugin name. `helm plugin install DIR` links DIR into
#   $HELM_DATA_HOME/plugins, whatever $HELM_PLUGINS says (helm/helm#32646), and needs no
#   signature for a local folder.
# - Helm runs the plugin's platformCommand with its args, then each --post-renderer-args,
#   in the environment Helm itself got plus HELM_PLUGIN_NAME and HELM_PLUGIN_DIR: no
#   HELM_NAMESPACE unless the user exported it, whatever -n says.
# - Hooks go through the post-renderer with the other documents. Each document reaches it
#   with the annotation postrenderer.helm.sh/postrender-filename and without the
#   `# Source:` line; Helm maps each returned document back to its template by that
#   annotation, removes it, and writes the `# Source:` line again.
# - The plugin's stderr is dropped, even with --debug; a plugin that exits non-zero makes
#   helm exit 1 with `plugin "rollcall" exited with error`. Empty output is refused
#   ("produced empty output").
# - Documents holding only comments are dropped before the post-renderer runs.
# - `helm install --dry-run=client` works without a cluster; `helm upgrade` needs one.
set -uo pipefail

usage="usage: helm4_render.sh ROLLCALL_BINARY SOURCE_ROOT PROJECT_VERSION"
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
helm="${ROLLCALL_HELM4:-$root/.cache/helm/v4/helm}"
webapp="$root/charts/webapp"
edge="$root/charts/edge-gateway"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
helm_sandbox "$tmp"
# The plugin runs the `rollcall` found on PATH: the one just built.
mkdir -p "$tmp/bin"
ln -s "$rollcall" "$tmp/bin/rollcall"
export PATH="$tmp/bin:$PATH"

checks=(
  "helm plugin install integrations/helm-plugin: postrenderer/v1 plugin rollcall, at the project version"
  "helm template --post-renderer rollcall exits 0"
  "HELM_PLUGINS at a folder holding the plugin, without installing it: same output"
  "Deployment and CronJob pod templates have rollcall.dev/config-hash sha256"
  "config-sources name exactly what each pod template reads"
  "Helm 4 post-renders hooks: the migrate hook Job is annotated, reading secret/demo-db"
  "the hook Job keeps its name (Helm recreates hooks) and hashes like the CronJob reading the same Secret"
  "rollcall adds annotation lines only to what Helm 4 hands it; helm prints what rollcall returned"
  "Source lines as in the plain render: Helm found each document's template again"
  "rollcall gives back every postrenderer.helm.sh/postrender-filename line byte for byte"
  "--post-renderer-args=--report=FILE: the JSON report (summary, no findings, each workload new)"
  "ROLLCALL_REPORT in helm's environment gives the same report"
  "findings reach the user through the report only: Helm 4 prints none of them (edge-gateway)"
  "--strict with an error finding: helm fails with no output, the report says why"
  "a malformed Secret: helm fails with no output, the report holds rollcall's message with file and line"
  "-n alone: Helm 4 passes the plugin no namespace; the hash is the same as without -n"
  "--post-renderer-args=--namespace=prod and HELM_NAMESPACE=prod reach rollcall (its report names prod) and leave the hash as it is"
  "helm install --dry-run=client: manifest and hooks annotated, same hashes as helm template"
  "edge-gateway's run-once bootstrap Job passes through the plugin unrenamed and unannotated"
  "comment-only and empty documents: rollcall render gives its input back byte for byte"
  "Helm 4 with comment-only and empty documents besides an object: exit 0, the object kept"
  "a chart rendering no object: Helm 4 hands the plugin 0 bytes and refuses the empty result"
  "docs/examples/helm4-plugin.sh runs as documented"
)

echo "1..${#checks[@]}"

if [[ ! -x "$helm" ]]; then
  skip_rest "Helm 4 not found at $helm (run scripts/fetch-helm.sh)"
  exit 0
fi
tap_python

# 1: the plugin as a user installs it.
"$helm" plugin install "$root/integrations/helm-plugin" >"$tmp/install.out" 2>&1
status=$?
"$helm" plugin list >"$tmp/list.out" 2>&1
listed="$(awk '$1 == "rollcall" { print $2, $3, $4 }' "$tmp/list.out")"
[[ $status == 0 && "$listed" == "$version postrenderer/v1 v1" ]]
check $? "helm plugin install exited $status; plugin list says: '$listed' (want '$version postrenderer/v1 v1')" \
  "$(cat "$tmp/install.out" "$tmp/list.out")"

render() { # render OUT CHART [helm args...]: helm template with the plugin; stderr to OUT.err
  local out="$1" chart="$2"
  shift 2
  "$helm" template demo "$chart" --post-renderer rollcall "$@" >"$out" 2>"$out.err"
}

# 2: the render itself.
render "$tmp/out.yaml" "$webapp"
status=$?
check "$status" "helm exited $status" "$(cat "$tmp/out.yaml.err")"
"$helm" template demo "$webapp" >"$tmp/plain.yaml" 2>"$tmp/plain.err" ||
  echo "# warning: plain helm template failed: $(cat "$tmp/plain.err")"

# 3: Helm 4 also finds the plugin through HELM_PLUGINS (a folder of plugin folders),
# with nothing installed: a fresh data home, the shipped folder linked under it.
mkdir -p "$tmp/plugins-dir" "$tmp/empty-data"
ln -s "$root/integrations/helm-plugin" "$tmp/plugins-dir/rollcall"
HELM_PLUGINS="$tmp/plugins-dir" HELM_DATA_HOME="$tmp/empty-data" \
  render "$tmp/via-plugins-dir.yaml" "$webapp"
status=$?
[[ $status == 0 ]] && cmp -s "$tmp/out.yaml" "$tmp/via-plugins-dir.yaml"
check $? "helm exited $status; difference from the installed plugin's output:" \
  "$(diff "$tmp/out.yaml" "$tmp/via-plugins-dir.yaml" | head -20)" "$(cat "$tmp/via-plugins-dir.yaml.err")"

dep_hash="$(field "$tmp/out.yaml" Deployment/demo-web 2)"
cron_hash="$(field "$tmp/out.yaml" CronJob/demo-cleanup 2)"
job_hash="$(field "$tmp/out.yaml" Job/demo-migrate 2)"

# 4, 5: the same annotations as under Helm 3 (tests/e2e/helm3_render.sh).
[[ "$dep_hash" =~ $hash_re && "$cron_hash" =~ $hash_re ]]
check $? "Deployment/demo-web: $dep_hash" "CronJob/demo-cleanup: $cron_hash"
dep_sources="$(field "$tmp/out.yaml" Deployment/demo-web 3)"
cron_sources="$(field "$tmp/out.yaml" CronJob/demo-cleanup 3)"
[[ "$dep_sources" == "configmap/demo-config, secret/demo-db[password]" &&
  "$cron_sources" == "secret/demo-db" ]]
check $? "Deployment/demo-web config-sources: $dep_sources" \
  "CronJob/demo-cleanup config-sources: $cron_sources"

# 6, 7: the hook. Helm deletes and recreates a hook Job (before-hook-creation), so its
# template may change; rollcall annotates it and leaves the name Helm deletes it by.
job_sources="$(field "$tmp/out.yaml" Job/demo-migrate 3)"
[[ "$job_hash" =~ $hash_re && "$job_sources" == "secret/demo-db" ]]
check $? "Job/demo-migrate config-hash: $job_hash, config-sources: $job_sources"
jobs="$(objects "$tmp/out.yaml" | grep '^Job/' | tr '\n' ' ')"
[[ "$jobs" == "Job/demo-migrate " && "$job_hash" == "$cron_hash" ]]
check $? "Jobs in the output: $jobs; Job hash $job_hash, CronJob hash $cron_hash"

# 8: what Helm sends and what rollcall returns, seen by a recording `rollcall` first on
# PATH that runs the built one. Helm 4 re-indents every document before the plugin sees
# it (sequences under their key), so the comparison is with rollcall's input, not with
# a plain render: the diff may only add rollcall's annotations (plus metadata: and
# annotations: where the template had none).
recording_rollcall "$tmp/rec" "$rollcall"
PATH="$tmp/rec:$PATH" render "$tmp/recorded.yaml" "$webapp"
status=$?
diff "$tmp/rec/in.yaml" "$tmp/rec/out.yaml" >"$tmp/diff.txt"
bad="$(grep -E '^[<>]' "$tmp/diff.txt" |
  grep -vE '^> +((metadata|annotations):|rollcall\.dev/config-(hash|sources): "[^"]*")$')"
added="$(grep -cE '^> +rollcall\.dev/' "$tmp/diff.txt")"
[[ $status == 0 && -z "$bad" && "$added" == 6 ]] && cmp -s "$tmp/recorded.yaml" "$tmp/out.yaml"
check $? "helm exited $status; expected 6 added rollcall.dev lines (Deployment, CronJob, hook Job)," \
  "got $added; unexpected diff lines:" "$bad"

# 9: Helm re-creates the Source lines from postrender-filename; a lost or changed
# annotation shows as `generated-by-postrender-N.yaml` or a wrong template.
[[ "$(grep '^# Source: ' "$tmp/plain.yaml")" == "$(grep '^# Source: ' "$tmp/out.yaml")" ]]
check $? "plain:" "$(grep '^# Source: ' "$tmp/plain.yaml")" "post-rendered:" \
  "$(grep '^# Source: ' "$tmp/out.yaml")"

# 10: the annotation Helm maps documents back by, in the same recording.
in_marks="$(grep -n 'postrenderer.helm.sh/postrender-filename' "$tmp/rec/in.yaml" 2>/dev/null | cut -d: -f2-)"
out_marks="$(grep 'postrenderer.helm.sh/postrender-filename' "$tmp/rec/out.yaml" 2>/dev/null)"
[[ $status == 0 && -n "$in_marks" && "$in_marks" == "$out_marks" ]] &&
  ! grep -q '^# Source:' "$tmp/rec/in.yaml"
check $? "helm exited $status; $(grep -c . <<<"$in_marks") annotation lines in, $(grep -c . <<<"$out_marks") out:" \
  "$in_marks" "---" "$out_marks"

# 11, 12: the report, by flag and by environment.
report_py='
import json, sys
r = json.load(open(sys.argv[1]))
s = r["summary"]
print("references=%d hashed=%d unresolved=%d findings=%d" % (
    s["references"], s["hashed"], s["unresolved"], len(r["findings"])))
for w in sorted(r["rollout"], key=lambda w: w["object"]):
    print("%s: %s" % (w["object"], w["status"]))
'
render "$tmp/report.yaml" "$webapp" --post-renderer-args="--report=$tmp/flag.json"
status=$?
report="$("$python" -c "$report_py" "$tmp/flag.json" 2>&1)"
want="references=5 hashed=5 unresolved=0 findings=0
CronJob default/demo-cleanup: new
Deployment default/demo-web: new
Job default/demo-migrate: new"
[[ $status == 0 && "$report" == "$want" ]] && cmp -s "$tmp/report.yaml" "$tmp/out.yaml"
check $? "helm exited $status; report:" "$report" "want:" "$want"
ROLLCALL_REPORT="$tmp/env.json" render "$tmp/env-report.yaml" "$webapp"
status=$?
[[ $status == 0 ]] && cmp -s "$tmp/flag.json" "$tmp/env.json"
check $? "helm exited $status; diff of the two reports:" \
  "$(diff "$tmp/flag.json" "$tmp/env.json" 2>&1 | head -20)"

# 13: edge-gateway reads Secrets that live outside the chart: two unresolved-reference
# errors. rollcall prints them on stderr, which Helm 4 drops; the report keeps them.
render "$tmp/edge.yaml" "$edge" --post-renderer-args="--report=$tmp/edge.json"
status=$?
rules="$("$python" -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["rule"], f["file"], f["template"], f["object"])' \
  "$tmp/edge.json" 2>&1)"
"$helm" template demo "$edge" | "$rollcall" render >/dev/null 2>"$tmp/edge.direct.err"
[[ $status == 0 && "$rules" == "unresolved-reference <stdin> edge-gateway/templates/deployment.yaml Deployment default/demo-gateway
unresolved-reference <stdin> edge-gateway/templates/deployment.yaml Deployment default/demo-gateway" ]] &&
  grep -q 'unresolved-reference' "$tmp/edge.direct.err" &&
  ! grep -q 'unresolved' "$tmp/edge.yaml.err"
check $? "helm exited $status; report findings:" "$rules" "helm stderr:" "$(cat "$tmp/edge.yaml.err")" \
  "rollcall stderr when run directly:" "$(cat "$tmp/edge.direct.err")"

# 14: --strict turns those errors into a failed render: nothing reaches Kubernetes.
render "$tmp/strict.yaml" "$edge" --post-renderer-args=--strict \
  --post-renderer-args="--report=$tmp/strict.json"
status=$?
stopped="$("$python" -c 'import json, sys
r = json.load(open(sys.argv[1])); print(r.get("stopped"), len(r["findings"]))' "$tmp/strict.json" 2>&1)"
[[ $status != 0 && ! -s "$tmp/strict.yaml" && "$stopped" == "True 2" ]] &&
  grep -q 'plugin "rollcall" exited with error' "$tmp/strict.yaml.err"
check $? "helm exited $status, stdout $(wc -c <"$tmp/strict.yaml") bytes; report stopped/findings: $stopped" \
  "helm stderr:" "$(cat "$tmp/strict.yaml.err")"

# 15: an input error. A copy of webapp with a Secret whose data is not base64.
cp -r "$webapp" "$tmp/broken"
cat >"$tmp/broken/templates/broken-secret.yaml" <<'EOF'
apiVersion: v1
kind: Secret
metadata:
  name: {{ .Release.Name }}-broken
data:
  token: "this is not base64!"
EOF
render "$tmp/broken.yaml" "$tmp/broken" --post-renderer-args="--report=$tmp/broken.json"
status=$?
error="$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["error"])' "$tmp/broken.json" 2>&1)"
[[ $status != 0 && ! -s "$tmp/broken.yaml" &&
  "$error" == "<stdin> (document 1, line "*", column 10, from webapp/templates/broken-secret.yaml): Secret default/demo-broken: data.token is not valid base64" ]] &&
  grep -q 'plugin "rollcall" exited with error' "$tmp/broken.yaml.err"
check $? "helm exited $status, stdout $(wc -c <"$tmp/broken.yaml") bytes; report error: $error" \
  "helm stderr:" "$(cat "$tmp/broken.yaml.err")"

# 16, 17: Helm 4 does not tell the plugin the namespace; given or not, the hash is the
# same (docs/hashing.md: a pod reads only its own namespace's sources).
render "$tmp/ns-flag-only.yaml" "$webapp" -n prod
ns_only="$(field "$tmp/ns-flag-only.yaml" Deployment/demo-web 2)"
[[ "$ns_only" == "$dep_hash" ]]
check $? "with -n prod: $ns_only; without: $dep_hash"
render "$tmp/ns-args.yaml" "$webapp" -n prod --post-renderer-args=--namespace=prod \
  "--post-renderer-args=--report=$tmp/ns-args.json"
HELM_NAMESPACE=prod ROLLCALL_REPORT="$tmp/ns-env.json" render "$tmp/ns-env.yaml" "$webapp"
ns_args="$(field "$tmp/ns-args.yaml" Deployment/demo-web 2)"
ns_env="$(field "$tmp/ns-env.yaml" Deployment/demo-web 2)"
[[ "$ns_args" == "$dep_hash" && "$ns_env" == "$dep_hash" ]] &&
  grep -q '"object": "Deployment prod/demo-web"' "$tmp/ns-args.json" &&
  grep -q '"object": "Deployment prod/demo-web"' "$tmp/ns-env.json"
check $? "--post-renderer-args=--namespace=prod: $ns_args" "HELM_NAMESPACE=prod: $ns_env" \
  "default: $dep_hash"

# 18: install without a cluster. The release's hooks went through the plugin too.
"$helm" install demo "$webapp" -n prod --dry-run=client -o json --post-renderer rollcall \
  --post-renderer-args=--namespace=prod >"$tmp/install.json" 2>"$tmp/install.err"
status=$?
release_stream "$tmp/install.json" >"$tmp/install-stream.yaml" 2>>"$tmp/install.err"
pod_templates "$tmp/install-stream.yaml" | cut -f1,2 | sort >"$tmp/install.hashes"
pod_templates "$tmp/ns-args.yaml" | cut -f1,2 | sort >"$tmp/template.hashes"
[[ $status == 0 && "$(grep -c sha256 "$tmp/install.hashes")" == 3 ]] &&
  cmp -s "$tmp/install.hashes" "$tmp/template.hashes"
check $? "helm exited $status; install:" "$(cat "$tmp/install.hashes")" "template:" \
  "$(cat "$tmp/template.hashes")" "$(head -c 2000 "$tmp/install.err")"

# 19: a run-once Job (plain, not a hook) is left as rendered: never renamed nor annotated.
render "$tmp/boot.yaml" "$edge" --set bootstrap.tls.token=t0ken-1
"$helm" template demo "$edge" --set bootstrap.tls.token=t0ken-1 >"$tmp/boot.plain.yaml" 2>/dev/null
boot_jobs="$(objects "$tmp/boot.yaml" | grep '^Job/')"
plain_jobs="$(objects "$tmp/boot.plain.yaml" | grep '^Job/')"
boot_hash="$(field "$tmp/boot.yaml" "$boot_jobs" 2)"
[[ "$boot_jobs" =~ ^Job/demo-boot-[0-9a-f]{8}$ && "$boot_jobs" == "$plain_jobs" && "$boot_hash" == "-" ]]
check $? "Jobs through the plugin: $boot_jobs (hash $boot_hash); plain render: $plain_jobs" \
  "$(cat "$tmp/boot.yaml.err")"

# 20: Helm 4 refuses an empty post-renderer output, and an empty output would deploy
# nothing: for input that holds no object rollcall returns the input itself.
direct_ok=0
direct_log=""
for input in '# only a comment\n' '---\n' '---\n---\n' '--- # marker comment\n' \
  '# a\n---\n# b\n'; do
  printf '%b' "$input" >"$tmp/direct.in"
  "$rollcall" render <"$tmp/direct.in" >"$tmp/direct.out" 2>/dev/null
  status=$?
  direct_log+="$(printf '%q' "$(cat "$tmp/direct.in")"): exit $status, $(wc -c <"$tmp/direct.in") bytes in, $(wc -c <"$tmp/direct.out") out"$'\n'
  [[ $status == 0 ]] && cmp -s "$tmp/direct.in" "$tmp/direct.out" || direct_ok=1
done
check $direct_ok "$direct_log"

# 21, 22: the same through Helm 4. Helm drops comment-only documents before the plugin
# runs; a chart with nothing else gives every post-renderer an empty input, which Helm
# then refuses as an empty output (documented in docs/helm.md).
mkdir -p "$tmp/sparse/templates"
printf 'apiVersion: v2\nname: sparse\nversion: 0.1.0\n' >"$tmp/sparse/Chart.yaml"
printf '# Nothing here yet.\n---\n---\n# (placeholder)\n' >"$tmp/sparse/templates/placeholder.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: "on"\n' \
  >"$tmp/sparse/templates/settings.yaml"
PATH="$tmp/rec:$PATH" render "$tmp/sparse.yaml" "$tmp/sparse"
status=$?
[[ $status == 0 && "$(objects "$tmp/sparse.yaml")" == "ConfigMap/settings" ]]
check $? "helm exited $status; objects: $(objects "$tmp/sparse.yaml" | tr '\n' ' ')" \
  "$(cat "$tmp/sparse.yaml.err")"
rm "$tmp/sparse/templates/settings.yaml" "$tmp/rec/in.yaml"
PATH="$tmp/rec:$PATH" render "$tmp/empty.yaml" "$tmp/sparse"
status=$?
[[ $status != 0 && -f "$tmp/rec/in.yaml" && ! -s "$tmp/rec/in.yaml" ]] &&
  grep -q 'post-renderer "rollcall" produced empty output' "$tmp/empty.yaml.err"
check $? "helm exited $status; the plugin got $(wc -c <"$tmp/rec/in.yaml" 2>&1) bytes" \
  "$(cat "$tmp/empty.yaml.err")"

# 23: the README/docs snippet, run as a user runs it: from a checkout (here links to
# this one's charts and plugin folder), with `helm` being Helm 4 and rollcall on PATH.
mkdir -p "$tmp/user/home" "$tmp/user/bin"
ln -s "$root/charts" "$root/integrations" "$tmp/user/"
ln -s "$helm" "$tmp/user/bin/helm"
(
  cd "$tmp/user" &&
    HELM_DATA_HOME="$tmp/user/home/data" HELM_CONFIG_HOME="$tmp/user/home/config" \
      PATH="$tmp/user/bin:$PATH" bash "$root/docs/examples/helm4-plugin.sh"
) >"$tmp/user.out" 2>"$tmp/user.err"
status=$?
# What helm plugin install printed, then the rendered stream.
sed -n '/^---$/,$p' "$tmp/user.out" >"$tmp/user.yaml"
user_dep="$(field "$tmp/user.yaml" Deployment/demo-web 2)"
user_job="$(field "$tmp/user.yaml" Job/demo-migrate 2)"
user_report="$("$python" -c "$report_py" "$tmp/user/rollcall-report.json" 2>&1 | head -1)"
render "$tmp/ns-demo.yaml" "$webapp" -n demo --post-renderer-args=--namespace=demo
demo_hash="$(field "$tmp/ns-demo.yaml" Deployment/demo-web 2)"
[[ $status == 0 && "$user_dep" =~ $hash_re && "$user_dep" == "$demo_hash" &&
  "$user_job" =~ $hash_re && "$user_report" == "references=5 hashed=5 unresolved=0 findings=0" ]]
check $? "snippet exited $status; Deployment hash $user_dep (namespace demo: $demo_hash); Job hash $user_job;" \
  "report: $user_report" "$(head -5 "$tmp/user.out")" "$(cat "$tmp/user.err")"

[[ $failed == 0 ]]
