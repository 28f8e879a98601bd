#!/usr/bin/env bash
# Builds the Argo CD sidecar image (scripts/build-sidecar-image.sh), inspects it, and
# runs the plugin's generate inside it as argocd-cmp-server would, comparing each run
# with the same generate outside the image (tests/e2e/argocd_cmp.sh's way: host bash,
# grep and sort). Prints TAP; .ci/run runs it. As root (buildah).
#
#   bash scripts/sidecar-image-check.sh
#
# Environment: BUILD_DIR (default build-sidecar) and ROLLCALL_BINARY, ROLLCALL_HELM as for
# build-sidecar-image.sh; K8SREAD, Kubernetes' YAML decoder (tests/oracle/k8sread) that
# reads plugin.yaml and the Applications (default: build/tests/oracle/k8sread, else built
# here with Go 1.19 into BUILD_DIR).
#
# The container runs with buildah's chroot isolation (no user namespace, no OCI
# runtime): the image's user, environment and working folder, its own root, /proc, /dev.
# Where buildah cannot run a container the run points are reported as skipped, with
# buildah's message.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root" || exit 1
build="${BUILD_DIR:-build-sidecar}"
# shellcheck source=SCRIPTDIR/../tests/lib/tap.sh
source "$root/tests/lib/tap.sh"
# shellcheck source=SCRIPTDIR/../tests/lib/rendered.sh
source "$root/tests/lib/rendered.sh"
# shellcheck source=SCRIPTDIR/../tests/lib/argocd_application.sh
source "$root/tests/lib/argocd_application.sh"

checks=(
  "the image builds FROM scratch (scripts/build-sidecar-image.sh): one layer; its OCI archive reads back as the same image"
  "image config: user 999:999, entrypoint /var/run/argocd/argocd-cmp-server, working folder /home/argocd, PATH, HOME, helm's homes under /tmp"
  "image files: the rollcall, Helm 3 and kubectl binaries, bash, busybox as grep and sort, plugin.yaml as shipped in /home/argocd/cmp-server/config, user argocd 999, /tmp writable by all"
  "every ELF file in the image is static: no program interpreter, no dynamic section"
  "integrations/argocd/repo-server-sidecar.yaml (both sidecars) and the documented kustomization name the image rollcall-argocd-cmp:VERSION"
  "in the image (buildah run, chroot): runs as 999:999 (argocd); bash, helm and rollcall on PATH"
  "generate in the image, docs/examples/argocd-application.yaml on charts/webapp: exit 0, annotated, stdout and stderr the same as outside the image"
  "generate in the image, a values file with '..': exit 2, nothing on stdout, the same message as outside"
  "generate in the image, helm failing (a missing values file): helm's exit 1 through pipefail, nothing on stdout, as outside"
  "generate in the image, a chart rendering no object: exit 3, nothing on stdout, as outside"
)
echo "1..${#checks[@]}"

if [[ "$(id -u)" != 0 ]]; then
  skip_rest "not root: buildah's store and the image's file owners need root"
  exit 0
fi
if ! command -v buildah >/dev/null 2>&1; then
  skip_rest "buildah is not installed (scripts/install-deps.sh)"
  exit 0
fi

tmp="$(mktemp -d)"
containers=()
buildah=()
store2=()
cleanup() {
  local c
  for c in "${containers[@]}"; do "${buildah[@]}" rm "$c" >/dev/null 2>&1; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# 1: the build, with the same store as build-sidecar-image.sh's.
archive="$build/rollcall-argocd-cmp.oci.tar"
image="$(bash scripts/build-sidecar-image.sh --archive "$archive" 2>"$tmp/build.err" | tail -n 1)"
status=$?
if [[ $status != 0 || -z "$image" ]]; then
  echo "Bail out! scripts/build-sidecar-image.sh failed (exit $status): $(tail -n 20 "$tmp/build.err")"
  exit 1
fi
build_abs="$(cd "$build" && pwd)"
stage="$build_abs/sidecar-rootfs"
store="$build_abs/buildah"
helm="${ROLLCALL_HELM:-$root/.cache/helm/v3/helm}"
export TMPDIR="$store/tmp"
# buildah_in ARRAY STORE: ARRAY becomes buildah as build-sidecar-image.sh runs it: with
# the store in the folder STORE, and in a mount namespace of its own where STORE/var-lib
# is /var/lib (buildah writes its blob-info cache there); the store only where no mount
# namespace can be made.
buildah_in() {
  local -n cmd="$1"
  local dir="$2"
  mkdir -p "$dir/tmp" "$dir/var-lib"
  cmd=(buildah --root "$dir/root" --runroot "$dir/runroot" --storage-driver vfs)
  if unshare --mount --propagation private -- mount -n --bind "$dir/var-lib" /var/lib 2>/dev/null; then
    # shellcheck disable=SC2016  # expanded by that bash
    cmd=(unshare --mount --propagation private -- bash -c 'mount -n --bind "$0" /var/lib && exec "$@"'
      "$dir/var-lib" "${cmd[@]}")
  fi
}
buildah_in buildah "$store"
"${buildah[@]}" inspect --type image "$image" >"$tmp/inspect.json" 2>&1
version="$("$stage/usr/local/bin/rollcall" --version | sed -n 's/^rollcall \([0-9.]*\) .*/\1/p')"
size="$("${buildah[@]}" images --format '{{.Size}}' "$image" | head -n 1)"
echo "# image $image: $size; archive $archive: $(du -h "$archive" | cut -f1)"

# The archive, read back into a store of its own, is the same image.
image_id="$("${buildah[@]}" images --quiet --no-trunc "$image" 2>&1)"
buildah_in store2 "$tmp/store2"
TMPDIR="$tmp/store2/tmp" "${store2[@]}" pull --quiet "oci-archive:$archive" >"$tmp/pull.out" 2>&1
read_back="$(TMPDIR="$tmp/store2/tmp" "${store2[@]}" images --quiet --no-trunc "$image" 2>&1)"
layers="$(python3 - "$tmp/inspect.json" "$archive" "$image" <<'EOF' 2>&1
import json, sys, tarfile
inspect = json.load(open(sys.argv[1]))
oci = inspect["OCIv1"]
print("layers:", len(oci["rootfs"]["diff_ids"]), "history:", len(oci.get("history") or []))
with tarfile.open(sys.argv[2]) as t:
    index = json.load(t.extractfile("index.json"))
print("archive refs:", [m.get("annotations", {}).get("org.opencontainers.image.ref.name") for m in index["manifests"]])
EOF
)"
[[ "$layers" == "layers: 1 history: 1
archive refs: ['$image']" && "$image_id" == sha256:* && "$read_back" == "$image_id" ]]
check $? "$layers" "image ID $image_id; from the archive: $read_back" "$(cat "$tmp/pull.out")"

# 2: the configuration argocd-cmp-server runs with.
config="$(python3 - "$tmp/inspect.json" <<'EOF' 2>&1
import json, sys
c = json.load(open(sys.argv[1]))["OCIv1"]["config"]
print("user:", c.get("User"))
print("entrypoint:", c.get("Entrypoint"), "cmd:", c.get("Cmd"))
print("workdir:", c.get("WorkingDir"))
for e in c.get("Env") or []:
    print("env:", e)
print("version label:", (c.get("Labels") or {}).get("org.opencontainers.image.version"))
EOF
)"
want_config="user: 999:999
entrypoint: ['/var/run/argocd/argocd-cmp-server'] cmd: None
workdir: /home/argocd
env: PATH=/usr/local/bin:/usr/bin:/bin
env: HOME=/home/argocd
env: HELM_CACHE_HOME=/tmp/helm/cache
env: HELM_CONFIG_HOME=/tmp/helm/config
env: HELM_DATA_HOME=/tmp/helm/data
version label: $version"
[[ "$config" == "$want_config" ]]
check $? "got:" "$config" "want:" "$want_config"

# 3, 4: the files, in a container made from the image (not the build's).
mount=""
inspect_ctr="$("${buildah[@]}" from --pull=never --quiet "$image" 2>"$tmp/from.err")" &&
  containers+=("$inspect_ctr") &&
  mount="$("${buildah[@]}" mount "$inspect_ctr" 2>"$tmp/from.err")"
if [[ -z "$mount" || ! -d "$mount" ]]; then
  not_ok "cannot mount the image: $(cat "$tmp/from.err")"
  not_ok "cannot mount the image"
else
  files="$(
    cd "$mount" || exit 1
    for f in usr/local/bin/rollcall usr/local/bin/helm usr/local/bin/kubectl bin/bash bin/busybox bin/grep bin/sort \
      home/argocd home/argocd/cmp-server/config/plugin.yaml home/argocd/cmp-server/plugins \
      var/run/argocd tmp; do
      stat -c '%n %F %a %u:%g' "$f" 2>&1
    done
    cmp -s usr/local/bin/rollcall "$stage/usr/local/bin/rollcall" && echo "rollcall: the build's"
    cmp -s usr/local/bin/helm "$helm" && echo "helm: $helm"
    cmp -s bin/bash /bin/bash-static && echo "bash: bash-static"
    echo "grep -> $(readlink bin/grep), sort -> $(readlink bin/sort)"
    cmp -s home/argocd/cmp-server/config/plugin.yaml "$root/integrations/argocd/plugin.yaml" &&
      echo "plugin.yaml: as shipped"
    grep '^argocd:' etc/passwd
    grep '^argocd:' etc/group
  )"
  want_files="usr/local/bin/rollcall regular file 755 0:0
usr/local/bin/helm regular file 755 0:0
usr/local/bin/kubectl regular file 755 0:0
bin/bash regular file 755 0:0
bin/busybox regular file 755 0:0
bin/grep symbolic link 777 0:0
bin/sort symbolic link 777 0:0
home/argocd directory 755 999:999
home/argocd/cmp-server/config/plugin.yaml regular file 644 0:0
home/argocd/cmp-server/plugins directory 755 999:999
var/run/argocd directory 755 0:0
tmp directory 1777 0:0
rollcall: the build's
helm: $helm
bash: bash-static
grep -> busybox, sort -> busybox
plugin.yaml: as shipped
argocd:x:999:999:argocd:/home/argocd:/bin/bash
argocd:x:999:"
  [[ "$files" == "$want_files" ]]
  check $? "got:" "$files" "want:" "$want_files"

  elf_log=""
  elf_count=0
  elf_bad=0
  while IFS= read -r -d '' f; do
    [[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" == '177ELF' ]] || continue
    elf_count=$((elf_count + 1))
    headers="$(readelf -l -d "$f" 2>&1)"
    if grep -q 'INTERP\|There is dynamic section\|(NEEDED)' <<<"$headers"; then
      elf_bad=$((elf_bad + 1))
      elf_log+="${f#"$mount"}: $(grep 'INTERP\|NEEDED\|dynamic' <<<"$headers" | head -n 3)"$'\n'
    else
      elf_log+="${f#"$mount"}: static"$'\n'
    fi
  done < <(find "$mount" -type f -print0 | sort -z)
  echo "# ELF files in the image: $(printf '%s' "$elf_log" | paste -sd ',' | sed 's/,/, /g')"
  [[ $elf_count -ge 4 && $elf_bad == 0 ]]
  check $? "$elf_count ELF files, $elf_bad not static:" "$elf_log"
fi

# 5: what the manifests tell a cluster to pull.
named="$({ grep -E '^\s+image:' integrations/argocd/repo-server-sidecar.yaml
  sed -n '/^images:/,$p' docs/examples/argocd-kustomization.yaml | tail -n +2; } | sed -E 's/^\s+//; s/ *#.*//')"
# Two sidecar containers (rollcall-helm and rollcall-kustomize), one image.
want_named="image: rollcall-argocd-cmp:$version
image: rollcall-argocd-cmp:$version
- name: rollcall-argocd-cmp
newName: registry.example.com/platform/rollcall-argocd-cmp
newTag: \"$version\""
[[ "$named" == "$want_named" ]]
check $? "got:" "$named" "want:" "$want_named"

# 6-10: in a container made from the image. First: can buildah run one here at all?
run_ctr="$("${buildah[@]}" from --pull=never --quiet "$image" 2>"$tmp/run.err")" && containers+=("$run_ctr")
# in_image [buildah run options...] -- COMMAND...: runs COMMAND in the container.
in_image() { "${buildah[@]}" run --isolation chroot "$@"; }
# buildah adds its own lines to stderr when the command exits non-zero.
buildah_said='^(subprocess exited with status [0-9]+|Error: exit status [0-9]+)$'
if [[ -z "$run_ctr" ]] || ! in_image "$run_ctr" -- /bin/busybox true >/dev/null 2>"$tmp/run.err"; then
  reason="buildah cannot run a container here: $(tr '\n' ' ' <"$tmp/run.err" | head -c 300)"
  skip_rest "$reason"
  [[ $failed == 0 ]]
  exit
fi

# shellcheck disable=SC2016  # expanded by the container's bash
who="$(in_image "$run_ctr" -- /bin/bash -c 'id; command -v helm rollcall; helm version --template "{{ .Version }}"; echo; rollcall --version; echo "bash $BASH_VERSION"' 2>&1)"
status=$?
[[ $status == 0 ]] && grep -qx 'uid=999(argocd) gid=999(argocd) groups=999(argocd)' <<<"$who" &&
  grep -qx /usr/local/bin/helm <<<"$who" && grep -qx /usr/local/bin/rollcall <<<"$who" &&
  grep -qx 'v3\.[0-9.]*' <<<"$who" && grep -q "^rollcall $version " <<<"$who" && grep -q '^bash 5\.' <<<"$who"
check $? "exit $status:" "$who"

# Kubernetes' decoder reads plugin.yaml and the Applications (tests/lib/k8s_json.py).
if [[ -z "${K8SREAD:-}" && -x build/tests/oracle/k8sread ]]; then
  K8SREAD="$root/build/tests/oracle/k8sread"
fi
if [[ -z "${K8SREAD:-}" ]]; then
  go=/usr/lib/go-1.19/bin/go
  if [[ -x "$go" ]] && GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS='' GOPROXY=off CGO_ENABLED=0 \
    GOCACHE="$build_abs/gocache" "$go" build -trimpath -o "$build_abs/k8sread" tests/oracle/k8sread/main.go \
    >"$tmp/go.log" 2>&1; then
    K8SREAD="$build_abs/k8sread"
  else
    skip_rest "no tests/oracle/k8sread to read plugin.yaml with, and Go 1.19 cannot build it: $(head -c 200 "$tmp/go.log" 2>/dev/null)"
    [[ $failed == 0 ]]
    exit
  fi
fi
export K8SREAD
tap_python

# The sidecar's tools outside the image: the image's own helm and rollcall (point 3
# compares them) on PATH, with the host's bash, grep and sort.
mkdir -p "$tmp/bin" "$tmp/scratch/home"
cp "$stage/usr/local/bin/rollcall" "$tmp/bin/"
cp "$helm" "$tmp/bin/helm"

# The plugin's command, and the environment the repo-server sends for an Application,
# as argocd-cmp-server gets them (tests/e2e/argocd_cmp.sh's cmp_generate.py): one
# NUL-terminated argument a line of CMD, one NAME=VALUE of ENV.
cat >"$tmp/cmp_env.py" <<'EOF'
"""usage: cmp_env.py PLUGIN APPLICATION CMD ENV"""
import json, os, re, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import argocd_app_env
import k8s_json

plugin_file, app_file, cmd_file, env_file = sys.argv[1:]
generate = k8s_json.load_one(plugin_file)["spec"]["generate"]
app = k8s_json.load_one(app_file)
sent = argocd_app_env.plugin_environment(app)
with open(cmd_file, "w") as f:
    f.write("".join(a + "\0" for a in generate["command"] + (generate.get("args") or [])))
with open(env_file, "w") as f:
    f.write("".join("%s=%s\0" % (k, v) for k, v in sent.items()))
EOF

# The Applications' source folders: a copy outside, the same copy in the container
# (owned by 999, under /tmp as argocd-cmp-server unpacks them).
mkdir -p "$tmp/apps/sparse/templates"
cp -r charts/webapp "$tmp/apps/webapp"
printf 'apiVersion: v2\nname: sparse\nversion: 0.1.0\n' >"$tmp/apps/sparse/Chart.yaml"
printf '# Nothing here yet.\n---\n# (placeholder)\n' >"$tmp/apps/sparse/templates/placeholder.yaml"
in_apps=/tmp/_cmp_server/apps
"${buildah[@]}" copy --quiet --chown 999:999 "$run_ctr" "$tmp/apps" "$in_apps" >/dev/null

# generate NAME APPLICATION FOLDER: the plugin's generate for APPLICATION in the chart
# FOLDER (under apps/), outside the image then in it; writes NAME.{out,in}{,.err,.status}.
generate() {
  local name="$1" app="$2" folder="$3" cmd env
  if ! "$python" "$tmp/cmp_env.py" integrations/argocd/plugin.yaml "$app" "$tmp/$name.cmd" "$tmp/$name.env" \
    2>"$tmp/$name.py.err"; then
    echo 99 >"$tmp/$name.out.status"
    echo 99 >"$tmp/$name.in.status"
    cp "$tmp/$name.py.err" "$tmp/$name.out.err"
    return
  fi
  mapfile -d '' cmd <"$tmp/$name.cmd"
  mapfile -d '' env <"$tmp/$name.env"
  (cd "$tmp/apps/$folder" && env -i PATH="$tmp/bin:/usr/bin:/bin" HOME="$tmp/scratch/home" \
    HELM_CACHE_HOME="$tmp/scratch/helm/cache" HELM_CONFIG_HOME="$tmp/scratch/helm/config" \
    HELM_DATA_HOME="$tmp/scratch/helm/data" "${env[@]}" "${cmd[@]}") \
    >"$tmp/$name.out" 2>"$tmp/$name.out.err"
  echo $? >"$tmp/$name.out.status"
  local flags=() entry
  for entry in "${env[@]}"; do flags+=(--env "$entry"); done
  in_image --workingdir "$in_apps/$folder" "${flags[@]}" "$run_ctr" -- "${cmd[@]}" \
    >"$tmp/$name.in" 2>"$tmp/$name.in.raw-err"
  echo $? >"$tmp/$name.in.status"
  grep -v -E "$buildah_said" "$tmp/$name.in.raw-err" >"$tmp/$name.in.err"
}

# same NAME: the run in the image gave what the run outside gave (status, stdout, stderr).
same() {
  [[ "$(cat "$tmp/$1.in.status")" == "$(cat "$tmp/$1.out.status")" ]] &&
    cmp -s "$tmp/$1.in" "$tmp/$1.out" && cmp -s "$tmp/$1.in.err" "$tmp/$1.out.err"
}

# evidence NAME: what both runs did, for a failing point.
evidence() {
  echo "in the image: exit $(cat "$tmp/$1.in.status"), stdout $(wc -c <"$tmp/$1.in") bytes; stderr:"
  cat "$tmp/$1.in.err"
  echo "outside: exit $(cat "$tmp/$1.out.status"), stdout $(wc -c <"$tmp/$1.out") bytes; stderr:"
  cat "$tmp/$1.out.err"
  diff "$tmp/$1.out" "$tmp/$1.in" | head -n 20
}

# 7: the documented Application.
generate app docs/examples/argocd-application.yaml webapp
hashes="$(pod_templates "$tmp/app.in" | cut -f1,2)"
[[ "$(cat "$tmp/app.in.status")" == 0 && "$(grep -c $'\tsha256:' <<<"$hashes")" == 3 ]] && same app
check $? "$(evidence app)" "$hashes"
echo "# generate in the image: $(wc -c <"$tmp/app.in") bytes, $(grep -c '^kind:' "$tmp/app.in") objects; $(tr '\t' ' ' <<<"$hashes" | paste -sd ',' | sed 's/,/, /g')"

# 8: a values file outside the chart folder.
application "$tmp/outside.app.yaml" webapp-prod charts/webapp "{name: values-files, array: [values-prod.yaml, ../edge/values.yaml]}"
generate outside "$tmp/outside.app.yaml" webapp
[[ "$(cat "$tmp/outside.in.status")" == 2 && ! -s "$tmp/outside.in" ]] &&
  grep -qxF "rollcall-helm: values file '../edge/values.yaml': give a relative path inside the chart folder" "$tmp/outside.in.err" &&
  same outside
check $? "$(evidence outside)"

# 9: helm fails; rollcall then reads an empty stream and succeeds: pipefail keeps helm's status.
application "$tmp/missing.app.yaml" webapp-prod charts/webapp '{name: values-files, array: [values-missing.yaml]}'
generate missing "$tmp/missing.app.yaml" webapp
[[ "$(cat "$tmp/missing.in.status")" == 1 && ! -s "$tmp/missing.in" ]] &&
  grep -q '^Error: .*values-missing.yaml' "$tmp/missing.in.err" && same missing
check $? "$(evidence missing)"

# 10: nothing to deploy (the no-object guard, busybox's grep in the image).
application "$tmp/sparse.app.yaml" sparse charts/sparse
generate sparse "$tmp/sparse.app.yaml" sparse
[[ "$(cat "$tmp/sparse.in.status")" == 3 && ! -s "$tmp/sparse.in" ]] &&
  grep -q 'rollcall-helm: the chart rendered no object' "$tmp/sparse.in.err" && same sparse
check $? "$(evidence sparse)"

[[ $failed == 0 ]]
