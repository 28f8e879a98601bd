#!/usr/bin/env bash
# End-to-end test: rollcall as a real Helm 3 post-renderer on charts/webapp.
#
# Usage: helm3_render.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. Helm comes from SOURCE_ROOT/.cache/helm/v3/helm (scripts/fetch-helm.sh) or
# $ROLLCALL_HELM3; when it is missing every check is reported as skipped.
#
# Facts about Helm 3 (v3.17.2) that the checks below rely on, seen with a stub renderer:
# - Helm passes the rendered non-hook manifests, each after a `# Source:` line, to the
#   post-renderer in one stream, and calls it with only --post-renderer-args.
# - Hooks (here the migrate Job) never go through the post-renderer: `helm template`
#   appends them to the output afterwards, untouched.
# - --show-only filters after post-rendering: the post-renderer still sees the whole
#   stream, so the Deployment's hash is the same as in a full render.
# - A post-renderer that exits non-zero makes helm exit 1 with "error while running post
#   render on files" and the renderer's stderr in its own stderr.
# - A post-renderer given without a slash is looked up on PATH.
# - `helm install --dry-run=client` still asks the cluster for its version first and
#   fails without one (helm/helm#30514, #13144); `helm template` runs the same
#   post-render step without a cluster.
set -uo pipefail

rollcall="${1:?usage: helm3_render.sh ROLLCALL_BINARY SOURCE_ROOT}"
root="${2:?usage: helm3_render.sh ROLLCALL_BINARY SOURCE_ROOT}"
rollcall="$(cd "$(dirname "$rollcall")" && pwd)/$(basename "$rollcall")"
root="$(cd "$root" && pwd)"
# shellcheck source=SCRIPTDIR/../lib/tap.sh
source "$root/tests/lib/tap.sh" || { echo "Bail out! cannot read $root/tests/lib/tap.sh"; exit 1; }
# shellcheck source=SCRIPTDIR/../lib/rendered.sh
source "$root/tests/lib/rendered.sh" || { echo "Bail out! cannot read $root/tests/lib/rendered.sh"; exit 1; }
# shellcheck source=SCRIPTDIR/../lib/helm.sh
source "$root/tests/lib/helm.sh" || { echo "Bail out! cannot read $root/tests/lib/helm.sh"; exit 1; }
helm="${ROLLCALL_HELM3:-$root/.cache/helm/v3/helm}"
chart="$root/charts/webapp"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
helm_sandbox "$tmp"
# Never a real cluster: install --dry-run=client gets a kubeconfig naming none.
export KUBECONFIG="$tmp/no-cluster.kubeconfig"

checks=(
  "helm template with rollcall as post-renderer exits 0"
  "Deployment pod template has rollcall.dev/config-hash sha256"
  "CronJob pod template (spec.jobTemplate.spec.template) has rollcall.dev/config-hash sha256"
  "config-sources name exactly what each pod template reads"
  "output is the plain render plus annotation lines only"
  "Source comment lines preserved, in order"
  "Helm 3 does not post-render hooks: migrate Job has no rollcall annotation"
  "same render twice is byte-identical"
  "changing db.password changes the Deployment and CronJob hashes"
  "changing db.username (not read by the Deployment) keeps the Deployment hash, changes the CronJob hash"
  "changing the unused ConfigMap key changes the Deployment hash (envFrom) but not the CronJob hash"
  "--post-renderer-args --namespace reaches rollcall (its report names prod) and leaves the hash as it is without it"
  "--show-only templates/deployment.yaml shows only the Deployment, with the full-render hash"
  "a post-renderer failure fails helm with rollcall's message and no output"
  "--post-renderer rollcall found on PATH renders the same bytes as by path"
  "Helm 3 hands the post-renderer no hook: its input has no migrate Job, every other object"
  "helm install --dry-run=client --post-renderer: manifest annotated, hook not"
  "docs/examples/helm3-post-renderer.sh runs as documented"
)

echo "1..${#checks[@]}"

if [[ ! -x "$helm" ]]; then
  skip_rest "Helm 3 not found at $helm (run scripts/fetch-helm.sh)"
  exit 0
fi

# Reads the output as Kubernetes does ($K8SREAD), independently of yaml-cpp.
tap_python

render() { # render OUT [helm args...]: helm template with rollcall; stderr to OUT.err
  local out="$1"
  shift
  "$helm" template demo "$chart" --post-renderer "$rollcall" "$@" >"$out" 2>"$out.err"
}

# 1: the render itself.
render "$tmp/out.yaml"
status=$?
check "$status" "helm exited $status" "$(cat "$tmp/out.yaml.err")"
"$helm" template demo "$chart" >"$tmp/plain.yaml" 2>"$tmp/plain.err" ||
  echo "# warning: plain helm template failed: $(cat "$tmp/plain.err")"

dep_hash="$(field "$tmp/out.yaml" Deployment/demo-web 2)"
cron_hash="$(field "$tmp/out.yaml" CronJob/demo-cleanup 2)"

# 2, 3: hashes on both pod templates.
[[ "$dep_hash" =~ $hash_re ]]
check $? "Deployment/demo-web config-hash: $dep_hash"
[[ "$cron_hash" =~ $hash_re ]]
check $? "CronJob/demo-cleanup config-hash: $cron_hash"

# 4: sources. The Deployment reads one key of the Secret (secretKeyRef) and the whole
# ConfigMap (envFrom, volume); the CronJob reads the whole Secret (envFrom).
dep_sources="$(field "$tmp/out.yaml" Deployment/demo-web 3)"
cron_sources="$(field "$tmp/out.yaml" CronJob/demo-cleanup 3)"
[[ "$dep_sources" == "configmap/demo-config, secret/demo-db[password]" &&
  "$cron_sources" == "secret/demo-db" ]]
check $? "Deployment/demo-web config-sources: $dep_sources" \
  "CronJob/demo-cleanup config-sources: $cron_sources"

# 5: every other byte unchanged: diff against the plain render may only add lines, and
# only rollcall's annotations (plus metadata: and annotations: where the template had none).
diff "$tmp/plain.yaml" "$tmp/out.yaml" >"$tmp/diff.txt"
bad="$(grep -E '^[<>]' "$tmp/diff.txt" |
  grep -vE '^> +((metadata|annotations):|rollcall\.dev/config-(hash|sources): "[^"]*")$')"
added="$(grep -cE '^> +rollcall\.dev/' "$tmp/diff.txt")"
[[ -z "$bad" && "$added" == 4 ]]
check $? "expected 4 added rollcall.dev lines, got $added; unexpected diff lines:" "$bad"

# 6: # Source: lines.
[[ "$(grep '^# Source: ' "$tmp/plain.yaml")" == "$(grep '^# Source: ' "$tmp/out.yaml")" ]]
check $? "plain: $(grep -c '^# Source: ' "$tmp/plain.yaml") Source lines," \
  "rendered: $(grep -c '^# Source: ' "$tmp/out.yaml")"

# 7: the hook Job is appended by helm after post-rendering.
job="$(field "$tmp/out.yaml" Job/demo-migrate 2)"
[[ "$job" == "-" ]]
check $? "Job/demo-migrate config-hash: $job (Helm 3 is expected to keep hooks from the post-renderer)"

# 8: determinism.
render "$tmp/again.yaml"
cmp -s "$tmp/out.yaml" "$tmp/again.yaml"
check $? "$(diff "$tmp/out.yaml" "$tmp/again.yaml" | head -20)"

# 9-11: what changes a hash.
render "$tmp/password.yaml" --set db.password=rotated
render "$tmp/username.yaml" --set db.username=someone-else
render "$tmp/banner.yaml" --set config.legacyBanner=on

h() { field "$tmp/$1.yaml" "$2" 2; }
[[ "$(h password Deployment/demo-web)" =~ $hash_re && "$(h password Deployment/demo-web)" != "$dep_hash" &&
  "$(h password CronJob/demo-cleanup)" =~ $hash_re && "$(h password CronJob/demo-cleanup)" != "$cron_hash" ]]
check $? "Deployment: $dep_hash -> $(h password Deployment/demo-web)" \
  "CronJob: $cron_hash -> $(h password CronJob/demo-cleanup)"
[[ "$(h username Deployment/demo-web)" == "$dep_hash" &&
  "$(h username CronJob/demo-cleanup)" =~ $hash_re && "$(h username CronJob/demo-cleanup)" != "$cron_hash" ]]
check $? "Deployment: $dep_hash -> $(h username Deployment/demo-web)" \
  "CronJob: $cron_hash -> $(h username CronJob/demo-cleanup)"
[[ "$(h banner Deployment/demo-web)" =~ $hash_re && "$(h banner Deployment/demo-web)" != "$dep_hash" &&
  "$(h banner CronJob/demo-cleanup)" == "$cron_hash" ]]
check $? "Deployment: $dep_hash -> $(h banner Deployment/demo-web)" \
  "CronJob: $cron_hash -> $(h banner CronJob/demo-cleanup)"

# 12: Helm 3 passes --post-renderer-args to rollcall one by one; the namespace names
# the objects (the report's rollout) but is not part of the hash (docs/hashing.md): a
# pod reads only its own namespace's sources.
render "$tmp/prod.yaml" -n prod --post-renderer-args=--namespace --post-renderer-args=prod \
  "--post-renderer-args=--report=$tmp/prod.json"
status=$?
prod_hash="$(field "$tmp/prod.yaml" Deployment/demo-web 2)"
[[ $status == 0 && "$prod_hash" == "$dep_hash" ]] &&
  grep -q '"object": "Deployment prod/demo-web"' "$tmp/prod.json"
check $? "helm exited $status; Deployment hash in prod: $prod_hash, in default: $dep_hash" \
  "$(cat "$tmp/prod.yaml.err")" "report: $(cat "$tmp/prod.json" 2>/dev/null)"

# 13: --show-only.
render "$tmp/show.yaml" --show-only templates/deployment.yaml
status=$?
show_kinds="$(grep -E '^kind: ' "$tmp/show.yaml" | tr '\n' ' ')"
show_hash="$(field "$tmp/show.yaml" Deployment/demo-web 2)"
[[ $status == 0 && "$show_kinds" == "kind: Deployment " && "$show_hash" == "$dep_hash" ]]
check $? "helm exited $status; kinds: $show_kinds; hash $show_hash (full render: $dep_hash)" \
  "$(cat "$tmp/show.yaml.err")"

# 14: a failing post-renderer fails the whole command.
render "$tmp/fail.yaml" --post-renderer-args=--no-such-flag
status=$?
[[ $status != 0 && ! -s "$tmp/fail.yaml" ]] &&
  grep -q 'error while running post render' "$tmp/fail.yaml.err" &&
  grep -q -- 'no-such-flag' "$tmp/fail.yaml.err"
check $? "helm exited $status, stdout $(wc -c <"$tmp/fail.yaml") bytes; stderr:" \
  "$(cat "$tmp/fail.yaml.err")"

# 15: the binary by name, as a user who installed it on PATH writes it.
mkdir -p "$tmp/bin"
ln -s "$rollcall" "$tmp/bin/rollcall"
PATH="$tmp/bin:$PATH" "$helm" template demo "$chart" --post-renderer rollcall \
  >"$tmp/on-path.yaml" 2>"$tmp/on-path.err"
status=$?
[[ $status == 0 ]] && cmp -s "$tmp/on-path.yaml" "$tmp/out.yaml"
check $? "helm exited $status;" "$(cat "$tmp/on-path.err")" \
  "$(diff "$tmp/out.yaml" "$tmp/on-path.yaml" | head -20)"

# 16: what Helm 3 hands a post-renderer, seen by a recording `rollcall` that runs the
# built one: the Job policy never sees a Helm 3 hook (docs/helm.md).
recording_rollcall "$tmp/rec" "$rollcall"
"$helm" template demo "$chart" --post-renderer "$tmp/rec/rollcall" >"$tmp/rec.yaml" 2>"$tmp/rec.err"
status=$?
handed="$(objects "$tmp/rec/in.yaml" 2>&1 | sort | tr '\n' ' ')"
printed="$(objects "$tmp/rec.yaml" 2>&1 | sort | tr '\n' ' ')"
[[ $status == 0 && "$handed" == "ConfigMap/demo-config CronJob/demo-cleanup Deployment/demo-web Secret/demo-db Service/demo-web " &&
  "$printed" == "ConfigMap/demo-config CronJob/demo-cleanup Deployment/demo-web Job/demo-migrate Secret/demo-db Service/demo-web " ]]
check $? "helm exited $status; handed to the post-renderer: $handed" "printed by helm: $printed" \
  "$(cat "$tmp/rec.err")"

# 17: install without a cluster, where Helm allows it. Helm 3.17.2 does not (it asks
# the cluster for its version even with --dry-run=client): then the point is skipped
# with Helm's message, and helm template above stands for it.
"$helm" install demo "$chart" -n demo --dry-run=client -o json --post-renderer "$rollcall" \
  --post-renderer-args=--namespace=demo >"$tmp/install.json" 2>"$tmp/install.err"
status=$?
if [[ $status != 0 ]] && grep -q 'Kubernetes cluster unreachable' "$tmp/install.err"; then
  skip "Helm $("$helm" version --template '{{.Version}}') needs a cluster for install --dry-run=client: $(head -1 "$tmp/install.err")"
else
  release_stream "$tmp/install.json" >"$tmp/install-stream.yaml" 2>>"$tmp/install.err"
  [[ $status == 0 && "$(field "$tmp/install-stream.yaml" Deployment/demo-web 2)" =~ $hash_re &&
    "$(field "$tmp/install-stream.yaml" Job/demo-migrate 2)" == "-" ]]
  check $? "helm exited $status; pod templates:" "$(pod_templates "$tmp/install-stream.yaml" 2>&1)" \
    "$(head -c 2000 "$tmp/install.err")"
fi

# 18: the README/docs snippet, run from a checkout (here a link to this one's charts)
# with `helm` being Helm 3 and rollcall on PATH.
mkdir -p "$tmp/user/bin"
ln -s "$root/charts" "$tmp/user/charts"
ln -s "$helm" "$tmp/user/bin/helm"
(cd "$tmp/user" && PATH="$tmp/user/bin:$tmp/bin:$PATH" bash "$root/docs/examples/helm3-post-renderer.sh") \
  >"$tmp/user.yaml" 2>"$tmp/user.err"
status=$?
render "$tmp/demo-ns.yaml" -n demo --post-renderer-args=--namespace=demo
[[ $status == 0 ]] && cmp -s "$tmp/user.yaml" "$tmp/demo-ns.yaml"
check $? "snippet exited $status;" "$(cat "$tmp/user.err")" \
  "$(diff "$tmp/demo-ns.yaml" "$tmp/user.yaml" | head -20)"

[[ $failed == 0 ]]
