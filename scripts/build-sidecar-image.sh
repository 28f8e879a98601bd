#!/usr/bin/env bash
# Builds the image of rollcall's Argo CD sidecar (integrations/argocd, docs/argocd.md):
# an OCI image made FROM scratch with buildah, no base image pulled. Every program in it
# is a static binary, so it holds no C library and no package manager:
#
#   /usr/local/bin/rollcall   this checkout, -Dstatic_binary=true, release, stripped
#   /usr/local/bin/helm       Helm 3 (.cache/helm/v3/helm, scripts/fetch-helm.sh)
#   /usr/local/bin/kubectl    kubectl (.cache/kubectl/kubectl, scripts/fetch-helm.sh): the
#                             rollcall-kustomize plugin's `kubectl kustomize`
#   /bin/bash                 Debian's bash-static: the plugin's generate is `bash -c`
#   /bin/busybox              Debian's busybox-static; grep, sort, sh and a few more
#                             commands are symlinks to it
#   /home/argocd/cmp-server/config/plugin.yaml   integrations/argocd/plugin.yaml
#   /etc/passwd, /etc/group   user and group argocd, 999 (Argo CD's)
#   /tmp                      writable by all (mode 1777); helm's homes are under it
#
# User 999:999, entrypoint /var/run/argocd/argocd-cmp-server (Argo CD's, which the
# repo-server's copyutil init container puts into the shared var-files volume), working
# folder /home/argocd, PATH, HOME=/home/argocd and HELM_{CACHE,CONFIG,DATA}_HOME under /tmp.
#
# Usage (as root: buildah keeps the image in BUILD_DIR/buildah, a store of its own, with
# the vfs driver, and the image's files need their owners):
#
#   bash scripts/build-sidecar-image.sh [--archive FILE] [--push DESTINATION]
#
#   --archive FILE        also write the image to FILE as an OCI archive (a tar file
#                         skopeo, podman and containerd import)
#   --push DESTINATION    also push it: a containers-transports name, e.g.
#                         docker://registry.example.com/platform/rollcall-argocd-cmp:0.1.0
#                         (credentials: buildah login, or REGISTRY_AUTH_FILE)
#
# Environment:
#   BUILD_DIR        build directory (default build-sidecar, relative to the repository
#                    root): the rollcall build
#                    (meson setup --buildtype=release -Dstrip=true -Dstatic_binary=true),
#                    the staged files and buildah's store
#   NINJA_JOBS       ninja's -j for that build (default 1)
#   ROLLCALL_BINARY  a static rollcall to put in instead of building one
#   ROLLCALL_HELM    the static helm to put in (default .cache/helm/v3/helm, fetched if missing)
#   ROLLCALL_KUBECTL the static kubectl to put in (default .cache/kubectl/kubectl, fetched
#                    if missing)
#   ROLLCALL_IMAGE   the image's name (default rollcall-argocd-cmp:VERSION, VERSION being
#                    what the rollcall binary reports)
#
# Prints the image's name on the last line of stdout; progress goes to stderr.
set -euo pipefail

start="$(pwd)"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${BUILD_DIR:-build-sidecar}"

die() {
  echo "build-sidecar-image: $*" >&2
  exit 1
}
say() { echo "build-sidecar-image: $*" >&2; }

archive=""
push=""
while (($# > 0)); do
  case "$1" in
    --archive) [[ $# -ge 2 && -n "$2" ]] || die "--archive needs a file name"; archive="$2"; shift 2 ;;
    --push) [[ $# -ge 2 && -n "$2" ]] || die "--push needs a destination"; push="$2"; shift 2 ;;
    *) die "unknown argument '$1' (usage: build-sidecar-image.sh [--archive FILE] [--push DESTINATION])" ;;
  esac
done
# Paths given relative to where the script was started.
absolute() { if [[ "$1" == /* ]]; then echo "$1"; else echo "$start/$1"; fi; }
[[ -z "$archive" ]] || archive="$(absolute "$archive")"
[[ -z "${ROLLCALL_BINARY:-}" ]] || ROLLCALL_BINARY="$(absolute "$ROLLCALL_BINARY")"
[[ -z "${ROLLCALL_HELM:-}" ]] || ROLLCALL_HELM="$(absolute "$ROLLCALL_HELM")"
[[ -z "${ROLLCALL_KUBECTL:-}" ]] || ROLLCALL_KUBECTL="$(absolute "$ROLLCALL_KUBECTL")"
# containers-transports reads oci-archive:PATH[:REFERENCE], so a ':' would split the path.
[[ "$archive" != *:* ]] || die "--archive '$archive': the file name may not contain ':'"

[[ "$(id -u)" == 0 ]] || die "run as root: buildah's store and the image's file owners (999) need it"
command -v buildah >/dev/null 2>&1 || die "buildah is needed (apt-get install buildah; scripts/install-deps.sh)"
command -v readelf >/dev/null 2>&1 || die "readelf is needed (binutils)"
bash_static=/bin/bash-static
busybox_static=/bin/busybox
[[ -x "$bash_static" ]] || die "$bash_static is missing (apt-get install bash-static)"
[[ -x "$busybox_static" ]] || die "$busybox_static is missing (apt-get install busybox-static)"

# static FILE: FILE is an ELF executable that needs no program interpreter and no shared
# library: no INTERP program header, no dynamic section (as scripts/static-check.sh).
static() {
  local headers
  headers="$(readelf -l -d "$1" 2>&1)" || return 1
  ! grep -q 'INTERP\|There is dynamic section\|(NEEDED)' <<<"$headers"
}

# 1. rollcall, built static and stripped (meson's strip applies at install time), unless given.
mkdir -p "$build"
stage="$build/sidecar-rootfs"
if [[ -z "${ROLLCALL_BINARY:-}" ]]; then
  log="$build/sidecar-build.log"
  if [[ ! -f "$build/meson-private/coredata.dat" ]]; then
    say "configuring $build (release, stripped, static)"
    meson setup "$build" --werror --buildtype=release -Dstrip=true -Dstatic_binary=true \
      -Dtests=disabled --prefix=/usr/local >"$log" 2>&1 ||
      die "meson setup failed: $(tail -n 20 "$log")"
  fi
  say "building rollcall in $build"
  ninja -C "$build" -j "${NINJA_JOBS:-1}" rollcall >"$log" 2>&1 ||
    die "the static build failed: $(tail -n 30 "$log")"
  # Only the binary (tag runtime), stripped, under the prefix /usr/local.
  rm -rf "$build/sidecar-install"
  meson install -C "$build" --no-rebuild --tags runtime --destdir "$(cd "$build" && pwd)/sidecar-install" \
    >>"$log" 2>&1 || die "meson install failed: $(tail -n 20 "$log")"
fi
rm -rf "$stage"
mkdir -p "$stage/usr/local/bin"
cp "${ROLLCALL_BINARY:-$build/sidecar-install/usr/local/bin/rollcall}" "$stage/usr/local/bin/rollcall"
chmod 0755 "$stage/usr/local/bin/rollcall"
version_line="$("$stage/usr/local/bin/rollcall" --version)" || die "the rollcall binary does not run"
# "rollcall 0.1.0 (commit 0123456789ab)"
version="$(sed -n 's/^rollcall \([0-9][0-9.]*\) .*/\1/p' <<<"$version_line")"
commit="$(sed -n 's/.*(commit \([^)]*\)).*/\1/p' <<<"$version_line")"
[[ -n "$version" ]] || die "cannot read a version from '$version_line'"
image="${ROLLCALL_IMAGE:-rollcall-argocd-cmp:$version}"

# 2. helm and kubectl.
# stage_tool NAME GIVEN CACHED FETCH: GIVEN (the user's path) or else CACHED, fetched with
# `scripts/fetch-helm.sh FETCH` when missing, copied to /usr/local/bin/NAME.
stage_tool() {
  local name="$1" given="$2" cached="$3" fetch="$4"
  local binary="${given:-$cached}"
  if [[ ! -x "$binary" && -z "$given" ]]; then
    bash "$root/scripts/fetch-helm.sh" "$fetch" || die "cannot fetch $name (scripts/fetch-helm.sh $fetch)"
  fi
  [[ -x "$binary" ]] || die "no $name at $binary"
  cp "$binary" "$stage/usr/local/bin/$name"
  chmod 0755 "$stage/usr/local/bin/$name"
}
stage_tool helm "${ROLLCALL_HELM:-}" "$root/.cache/helm/v3/helm" v3
stage_tool kubectl "${ROLLCALL_KUBECTL:-}" "$root/.cache/kubectl/kubectl" kubectl

# 3. bash, busybox and the commands the plugin's generate runs (grep, sort), plus a few
# for a shell in the container (kubectl exec) and for plugins of your own.
mkdir -p "$stage/bin" "$stage/usr/bin"
cp "$bash_static" "$stage/bin/bash"
cp "$busybox_static" "$stage/bin/busybox"
chmod 0755 "$stage/bin/bash" "$stage/bin/busybox"
applets=(sh basename cat cp cut date dirname echo env false find grep head id ln ls mkdir
  mktemp mv printf pwd readlink rm rmdir sed sleep sort tail tee test touch tr true uname
  wc xargs)
known="$("$stage/bin/busybox" --list)"
for applet in "${applets[@]}"; do
  grep -qx -- "$applet" <<<"$known" || die "$busybox_static has no applet $applet"
  ln -s busybox "$stage/bin/$applet"
done
ln -s ../../bin/busybox "$stage/usr/bin/env"

for binary in bin/bash bin/busybox usr/local/bin/rollcall usr/local/bin/helm usr/local/bin/kubectl; do
  static "$stage/$binary" || die "$binary is not a static binary: $(readelf -l -d "$stage/$binary" 2>&1 | grep 'INTERP\|NEEDED' | head -n 5)"
done

# 4. Argo CD's layout: the user, its home, plugin.yaml where argocd-cmp-server reads it,
# the mount points of the var-files and plugins volumes, /tmp.
mkdir -p "$stage/etc" "$stage/home/argocd/cmp-server/config" "$stage/home/argocd/cmp-server/plugins" \
  "$stage/var/run/argocd" "$stage/tmp"
printf 'root:x:0:0:root:/root:/bin/sh\nargocd:x:999:999:argocd:/home/argocd:/bin/bash\n' >"$stage/etc/passwd"
printf 'root:x:0:\nargocd:x:999:\n' >"$stage/etc/group"
cp integrations/argocd/plugin.yaml "$stage/home/argocd/cmp-server/config/plugin.yaml"
chmod 0644 "$stage/etc/passwd" "$stage/etc/group" "$stage/home/argocd/cmp-server/config/plugin.yaml"
chmod 1777 "$stage/tmp"
chown -R 999:999 "$stage/home/argocd"
chown 0:0 "$stage/home/argocd/cmp-server/config" "$stage/home/argocd/cmp-server/config/plugin.yaml"

# The store, the container runtime's state and buildah's temporary files, all in the
# build directory: nothing under /var/lib/containers, /run/containers or /var/tmp.
# buildah (containers/image) also keeps a blob-info cache, for root always in
# /var/lib/containers/cache: buildah runs in a mount namespace of its own, where the
# build directory's var-lib is /var/lib. (scripts/sidecar-image-check.sh does the same.)
mkdir -p "$build/buildah/tmp" "$build/buildah/var-lib"
store="$(cd "$build/buildah" && pwd)"
export TMPDIR="$store/tmp"
buildah=(buildah --root "$store/root" --runroot "$store/runroot" --storage-driver vfs)
if unshare --mount --propagation private -- mount -n --bind "$store/var-lib" /var/lib 2>/dev/null; then
  # shellcheck disable=SC2016  # expanded by that bash
  buildah=(unshare --mount --propagation private -- bash -c 'mount -n --bind "$0" /var/lib && exec "$@"'
    "$store/var-lib" "${buildah[@]}")
else
  say "no mount namespace here: buildah's blob-info cache goes to /var/lib/containers/cache"
fi

# One layer, from a tar file: `buildah add` keeps the owners and modes written in it
# (`buildah copy` would make everything root's). The commit's date is the checkout's,
# so the same checkout gives the same image.
epoch="$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)"
tar -C "$stage" --sort=name --numeric-owner --mtime="@$epoch" -cf "$build/sidecar-rootfs.tar" .

say "building $image"
container="$("${buildah[@]}" from --name "rollcall-argocd-cmp-build-$$" scratch)"
trap '"${buildah[@]}" rm "$container" >/dev/null 2>&1 || true' EXIT
"${buildah[@]}" add --quiet "$container" "$build/sidecar-rootfs.tar" / >/dev/null
"${buildah[@]}" config \
  --os linux --arch amd64 \
  --created-by "scripts/build-sidecar-image.sh: one layer, FROM scratch" \
  --user 999:999 \
  --workingdir /home/argocd \
  --entrypoint '["/var/run/argocd/argocd-cmp-server"]' \
  --env PATH=/usr/local/bin:/usr/bin:/bin \
  --env HOME=/home/argocd \
  --env HELM_CACHE_HOME=/tmp/helm/cache \
  --env HELM_CONFIG_HOME=/tmp/helm/config \
  --env HELM_DATA_HOME=/tmp/helm/data \
  --label org.opencontainers.image.title=rollcall-argocd-cmp \
  --label "org.opencontainers.image.description=Argo CD config-management plugin sidecar: helm template | rollcall render" \
  --label "org.opencontainers.image.version=$version" \
  --label "org.opencontainers.image.revision=${commit:-unknown}" \
  --label org.opencontainers.image.licenses=Apache-2.0 \
  "$container"
"${buildah[@]}" commit --quiet --rm --timestamp "$epoch" "$container" "$image" >/dev/null
trap - EXIT
# The name moved to the new image: drop the images no name points to any more.
"${buildah[@]}" rmi --prune >/dev/null 2>&1 || true

if [[ -n "$archive" ]]; then
  mkdir -p "$(dirname "$archive")"
  rm -f "$archive"
  "${buildah[@]}" push --quiet "$image" "oci-archive:$archive:$image" >&2
  say "wrote $archive"
fi
if [[ -n "$push" ]]; then
  "${buildah[@]}" push "$image" "$push" >&2
  say "pushed $image to $push"
fi
say "built $image ($("${buildah[@]}" images --format '{{.Size}}' "$image" 2>/dev/null | head -n 1))"
echo "$image"
