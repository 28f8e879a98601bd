#!/usr/bin/env bash
# Builds rollcall's Debian package with Debian's own tools: the static binary
# (-Dstatic_binary=true, release, stripped, prefix /usr) built in BUILD_DIR (default
# build-deb), `meson install` into a staging root there, and `dpkg-deb --build`. The
# binary needs no shared library, so the package has no Depends and installs on any
# Debian or Ubuntu of its architecture. Prints the path of the .deb on stdout, the last
# line; progress and errors go to stderr. docs/install.md says what it installs where.
#
#   bash scripts/build-deb.sh          # build-deb/rollcall_0.1.0_amd64.deb
#   sudo apt install ./build-deb/rollcall_0.1.0_amd64.deb
#
# Environment: BUILD_DIR (the build directory, configured here with the options below
# whatever it had), NINJA_JOBS (ninja -j; ninja's default when unset), DEBFULLNAME and
# DEBEMAIL (the Maintainer, as for Debian's dch; both or neither), SOURCE_DATE_EPOCH
# (the date of the changelog entry and of every file; the commit's date when unset, so
# that the same commit packs the same bytes).
set -uo pipefail
umask 022

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root" || exit 1
build="${BUILD_DIR:-build-deb}"

die() { echo "build-deb: $*" >&2; exit 1; }
# run LOG COMMAND...: COMMAND with its output in LOG, shown (the tail) only on failure.
run() {
  local log="$1"
  shift
  "$@" >"$log" 2>&1 && return 0
  echo "build-deb: failed: $*" >&2
  tail -n 30 "$log" >&2
  return 1
}

for tool in meson ninja python3 dpkg dpkg-deb dpkg-query gzip md5sum; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found (scripts/install-deps.sh --build-only installs what building needs; dpkg-deb comes with dpkg)"
done

mkdir -p "$build" || die "cannot create $build"
build="$(cd "$build" && pwd)"
log="$build/build-deb.log"

# The package's build: its own options, whatever the directory had before.
options=(-Dstatic_binary=true -Dtests=disabled -Dbuildtype=release -Dstrip=true
  -Dprefix=/usr -Dwerror=true)
if [[ ! -f "$build/meson-private/coredata.dat" ]]; then
  run "$log" meson setup "$build" "${options[@]}" || exit 1
else
  run "$log" meson configure "$build" "${options[@]}" || exit 1
fi
# Regenerates build.ninja (and the introspection files) after a meson.build changed.
run "$log" ninja -C "$build" build.ninja || exit 1

# What meson install takes from the build directory, and nothing more: not the
# benchmark or the fuzz replay programs, which the default target also builds.
mapfile -t targets < <(meson introspect "$build" --installed | python3 -c '
import json, os, sys
build = sys.argv[1]
for path in sorted(json.load(sys.stdin)):
    if path.startswith(build + os.sep):
        print(os.path.relpath(path, build))
' "$build")
[[ ${#targets[@]} -gt 0 ]] || die "meson introspect --installed names nothing built in $build"
jobs=()
[[ -n "${NINJA_JOBS:-}" ]] && jobs=(-j "$NINJA_JOBS")
echo "build-deb: building ${targets[*]} in $build" >&2
run "$log" ninja -C "$build" "${jobs[@]}" "${targets[@]}" || exit 1

version="$(meson introspect "$build" --projectinfo |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')"
arch="$(dpkg --print-architecture)"
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || die "'$version' is not a Debian version"
commit="$(git -C "$root" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)"
if [[ -z "${SOURCE_DATE_EPOCH:-}" ]]; then
  SOURCE_DATE_EPOCH="$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)"
fi
export SOURCE_DATE_EPOCH
if [[ -n "${DEBFULLNAME:-}" && -n "${DEBEMAIL:-}" ]]; then
  maintainer="$DEBFULLNAME <$DEBEMAIL>"
else
  maintainer="rollcall maintainers <maintainers@users.noreply.a-seed-15fb26e2.example>"
fi

# The staging root: what meson install puts under /usr, then what Debian adds.
pkg="$build/deb/rollcall"
rm -rf "$pkg" || die "cannot remove $pkg"
mkdir -p "$pkg" || die "cannot create $pkg"
run "$log" meson install -C "$build" --no-rebuild --destdir "$pkg" || exit 1
[[ -x "$pkg/usr/bin/rollcall" ]] || die "meson install put no usr/bin/rollcall into $pkg (prefix not /usr?)"
unexpected="$(find "$pkg" -mindepth 1 -maxdepth 1 ! -name usr)"
[[ -z "$unexpected" ]] || die "meson install put files outside /usr: $unexpected"

# Manual pages compressed, as Debian's are (policy 12.1; man reads them as they are).
find "$pkg/usr/share/man" -type f ! -name '*.gz' -exec gzip -9n {} + ||
  die "cannot compress the manual page"

doc="$pkg/usr/share/doc/rollcall"
mkdir -p "$doc/third-party" || die "cannot create $doc"

# The Debian packages the static binary takes code from: their .a files (Built-Using,
# policy 7.8) and the header-only libraries compiled into it. libstdc++ and libgcc come
# from the compiler's own version (gcc-12 on Debian 12).
cxx="$(meson introspect "$build" --targets | python3 -c '
import json, sys
print(next(t["target_sources"][0]["compiler"][0] for t in json.load(sys.stdin) if t["name"] == "rollcall"))
')"
[[ -n "$cxx" ]] || die "meson introspect names no compiler for rollcall"
owner() { # owner FILE: the package that installed FILE
  dpkg-query -S "$(realpath "$1")" 2>/dev/null | head -n 1 | cut -d: -f1
}
static_packages=(libc6-dev libyaml-cpp-dev libyaml-dev libre2-dev libssl-dev)
for archive in libstdc++.a libgcc.a; do
  found="$(owner "$("$cxx" -print-file-name="$archive")")"
  [[ -n "$found" ]] || die "no Debian package owns $cxx's $archive"
  static_packages+=("$found")
done
header_packages=(libcxxopts-dev nlohmann-json3-dev)
source_of() { # source_of PACKAGE: "source (= version)", for this architecture if it has one
  dpkg-query -W -f='${source:Package} (= ${source:Version})\n' "$1:$arch" 2>/dev/null |
    head -n 1 | grep . ||
    dpkg-query -W -f='${source:Package} (= ${source:Version})\n' "$1" 2>/dev/null | head -n 1 | grep .
}
built_using=""
for package in "${static_packages[@]}"; do
  source="$(source_of "$package")" || die "$package is not installed (scripts/install-deps.sh --build-only)"
  case ", $built_using, " in
    *", $source, "*) ;;
    *) built_using="${built_using:+$built_using, }$source" ;;
  esac
done
# Their copyright and license notices travel with the binary that contains them: each
# package's copyright file as Debian ships it, named after its source package.
for package in "${static_packages[@]}" "${header_packages[@]}"; do
  source="$(source_of "$package")" || die "$package is not installed (scripts/install-deps.sh)"
  name="${source%% *}"
  copyright="/usr/share/doc/$package/copyright"
  [[ -r "$copyright" ]] || die "$package has no $copyright"
  cp -L "$copyright" "$doc/third-party/$name.copyright" || die "cannot copy $copyright"
done
notices="$(cd "$doc/third-party" && printf ' %s\n' *.copyright)"

cat >"$doc/copyright" <<EOF || die "cannot write the copyright file"
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: rollcall
Comment: /usr/bin/rollcall is statically linked: it also contains code from glibc,
 libstdc++ and libgcc (GCC), yaml-cpp, libyaml, RE2 and OpenSSL's libcrypto, and from
 the header-only cxxopts and nlohmann/json, as Debian packages them. Their copyright
 and license notices are in /usr/share/doc/rollcall/third-party/:
$notices

Files: *
Copyright: the rollcall authors
License: Apache-2.0

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not use
 this file except in compliance with the License. You may obtain a copy of the
 License at
 .
 http://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software distributed
 under the License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR
 CONDITIONS OF ANY KIND, either express or implied. See the License for the
 specific language governing permissions and limitations under the License.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0 can be
 found in "/usr/share/common-licenses/Apache-2.0".
EOF

# The version has no Debian revision (rollcall is packaged where it is made, a native
# package), so the changelog is changelog.gz (policy 12.7).
changelog_date="$(date -u -R -d "@$SOURCE_DATE_EPOCH")" || die "SOURCE_DATE_EPOCH='$SOURCE_DATE_EPOCH' is not a date"
printf '%s\n' "rollcall ($version) unstable; urgency=medium" "" \
  "  * Built from commit $commit." "" " -- $maintainer  $changelog_date" |
  gzip -9n >"$doc/changelog.gz" || die "cannot write the changelog"

# A static binary is what this package is for: lintian's check for one is overridden.
mkdir -p "$pkg/usr/share/lintian/overrides" || die "cannot create the lintian overrides"
# So are the libraries it embeds (libyaml is the one lintian recognises); their
# notices are in /usr/share/doc/rollcall/third-party.
printf '%s\n' "rollcall: statically-linked-binary" \
  "rollcall: embedded-library libyaml [usr/bin/rollcall]" >"$pkg/usr/share/lintian/overrides/rollcall"

# Modes as Debian wants them whatever the checkout's were; every date SOURCE_DATE_EPOCH.
if ! find "$pkg" -type d -exec chmod 0755 {} + ||
  ! find "$pkg" -type f -exec chmod go-w {} + ||
  ! find "$pkg" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +; then
  die "cannot set the modes and dates in $pkg"
fi

# Installed-Size as dpkg-gencontrol counts it: KiB per file, rounded up, and one per
# directory or link.
installed_size="$(find "$pkg/usr" -printf '%y %s\n' |
  awk '$1 == "f" { kib += int(($2 + 1023) / 1024); next } { kib += 1 } END { print kib }')"

mkdir -p "$pkg/DEBIAN" || die "cannot create $pkg/DEBIAN"
(cd "$pkg" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) \
  >"$pkg/DEBIAN/md5sums" || die "cannot write md5sums"
{
  echo "Package: rollcall"
  echo "Version: $version"
  echo "Architecture: $arch"
  echo "Maintainer: $maintainer"
  echo "Installed-Size: $installed_size"
  echo "Section: admin"
  echo "Priority: optional"
  echo "Built-Using: $built_using"
  echo "Suggests: pre-commit"
  echo "Description: Kubernetes manifest filter that rolls pods when their config changes"
  echo " rollcall reads the manifests a tool is about to apply, computes a hash of"
  echo " exactly the Secret and ConfigMap keys each pod template reads, and writes it"
  echo " into that pod template as an annotation: a changed value rolls the workload,"
  echo " a change to a key nobody reads changes nothing. It works as a Helm 3"
  echo " post-renderer, a Helm 4 post-renderer plugin (/usr/share/rollcall/helm-plugin),"
  echo " a \`helm rollcall\` plugin command for either Helm (/usr/share/rollcall),"
  echo " an Argo CD or kustomize plugin or in any pipe; \`rollcall lint\` checks that"
  echo " every reference is accounted for, also as a pre-commit hook."
  echo " ."
  echo " One statically linked binary: the package depends on no library."
} >"$pkg/DEBIAN/control" || die "cannot write the control file"
chmod 0644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums" || die "cannot set the control files' modes"

deb="$build/rollcall_${version}_${arch}.deb"
rm -f "$deb"
run "$log" dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" || exit 1
echo "build-deb: built $deb ($version, commit $commit)" >&2
echo "$deb"
