#!/usr/bin/env bash
# Builds the Debian package (scripts/build-deb.sh, in BUILD_DIR, default build-deb) and
# checks it as a user gets it: what it holds, then installed for real by dpkg into a
# private root (its own database, nothing of this machine's touched), the installed
# binary, manual page, completion, Helm 4 plugin and pre-commit hooks, the Helm 3
# end-to-end test (tests/e2e/helm3_render.sh) run with the installed binary, its points
# folded into these, and the removal. Prints TAP, the plan last; .ci/run runs it.
#
#   bash scripts/deb-check.sh
#
# Environment: BUILD_DIR, NINJA_JOBS (passed to scripts/build-deb.sh); K8SREAD
# (Kubernetes' YAML decoder the e2e test reads the output with, tests/oracle/k8sread;
# built here with Debian's Go into BUILD_DIR when unset); ROLLCALL_HELM3 and
# ROLLCALL_HELM4 (default .cache/helm/v3/helm and v4/helm, scripts/fetch-helm.sh).
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root" || exit 1
# shellcheck source=SCRIPTDIR/../tests/lib/tap.sh
source "$root/tests/lib/tap.sh"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
droot="$work/root"
admindir="$droot/var/lib/dpkg"

version="$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" meson.build | head -n 1)"
arch="$(dpkg --print-architecture)"
commit="$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)"

# dpkg_root ARGS...: dpkg on the private root, with its own database and no log. Not
# as root, --force-not-root: dpkg then installs the files as the user's own.
dpkg_root() {
  local force=()
  [[ $(id -u) -ne 0 ]] && force=(--force-not-root)
  # dpkg wants ldconfig and start-stop-daemon on PATH, even for a package with no
  # library and no service.
  PATH="$PATH:/usr/sbin:/sbin" dpkg --root="$droot" --admindir="$admindir" \
    --log=/dev/null "${force[@]}" "$@"
}

# 1: the package.
deb="$(bash scripts/build-deb.sh 2>"$work/build.err" | tail -n 1)"
if [[ ${PIPESTATUS[0]} != 0 || ! -f "$deb" ]]; then
  tap_result 1 "scripts/build-deb.sh builds the package" "" "$(tail -n 40 "$work/build.err")"
  echo "1..$n"
  exit 1
fi
tap_result 0 "scripts/build-deb.sh builds the package: $(basename "$deb")" ""

# 2: its control file.
fields="$(dpkg-deb --field "$deb" 2>&1)"
field() { dpkg-deb --field "$deb" "$1" 2>/dev/null; }
[[ "$(basename "$deb")" == "rollcall_${version}_${arch}.deb" &&
  "$(field Package)" == rollcall && "$(field Version)" == "$version" &&
  "$(field Architecture)" == "$arch" && "$(field Installed-Size)" =~ ^[1-9][0-9]*$ &&
  -n "$(field Maintainer)" && -n "$(field Description)" && -n "$(field Built-Using)" &&
  -z "$(field Depends)$(field Pre-Depends)" ]]
tap_result $? "the control file: rollcall $version for $arch, no Depends" "" "$fields"

# 3: what it holds. Each Helm plugin is its source folder, whatever it holds.
listing="$(dpkg-deb --contents "$deb" 2>&1)"
files="$(awk '$1 !~ /^d/ { print $6 }' <<<"$listing" | sort)"
expected=(./usr/bin/rollcall ./usr/share/man/man1/rollcall.1.gz
  ./usr/share/bash-completion/completions/rollcall ./usr/share/zsh/vendor-completions/_rollcall
  ./usr/share/fish/vendor_completions.d/rollcall.fish ./usr/share/rollcall/pre-commit-hooks.yaml
  ./usr/share/doc/rollcall/copyright ./usr/share/doc/rollcall/changelog.gz)
plugin_folders=(helm3-plugin helm-plugin helm4-cli-plugin)
for folder in "${plugin_folders[@]}"; do
  while IFS= read -r -d '' plugin_file; do
    expected+=("./usr/share/rollcall/$folder/${plugin_file#integrations/"$folder"/}")
  done < <(find "integrations/$folder" \( -type f -o -type l \) -print0)
done
missing=()
for path in "${expected[@]}"; do
  grep -qxF -- "$path" <<<"$files" || missing+=("$path")
done
not_root="$(awk '$2 != "root/root"' <<<"$listing")"
outside="$(awk '{ print $6 }' <<<"$listing" | grep -v '^\./$' | grep -v '^\./usr/')"
binary_mode="$(awk '$6 == "./usr/bin/rollcall" { print $1 }' <<<"$listing")"
[[ ${#missing[@]} == 0 && -z "$not_root" && -z "$outside" && "$binary_mode" == -rwxr-xr-x ]]
tap_result $? "the package holds the binary, manual page, completions, Helm 4 plugin, pre-commit hooks and copyright, root's, under /usr" "" \
  "missing: ${missing[*]}" "not owned by root: $not_root" "outside /usr: $outside" \
  "usr/bin/rollcall: $binary_mode" "$listing"

# 4: lintian, when it is installed (scripts/install-deps.sh installs it for the tests).
if command -v lintian >/dev/null 2>&1; then
  lintian_says="$(lintian --fail-on error "$deb" 2>&1)"
  tap_result $? "lintian finds no error" "" "$lintian_says"
else
  tap_skip "lintian finds no error" "lintian is not installed"
fi

# 5: installed by dpkg into the private root, every file where the package says.
mkdir -p "$admindir/info" "$admindir/updates" "$droot/tmp" && : >"$admindir/status"
install_says="$(dpkg_root --install "$deb" 2>&1)"
status=$?
state="$(dpkg-query --admindir="$admindir" -W -f='${db:Status-Abbrev}${Version}' rollcall 2>&1)"
absent=()
while IFS= read -r path; do
  [[ -e "$droot$path" ]] || absent+=("$path")
done < <(dpkg-query --admindir="$admindir" -L rollcall 2>/dev/null)
[[ $status == 0 && "$state" == "ii $version" && ${#absent[@]} == 0 ]]
tap_result $? "dpkg installs it into a private root" "" "dpkg exited $status: $install_says" \
  "dpkg-query: $state" "listed but absent: ${absent[*]}"

installed="$droot/usr/bin/rollcall"
if [[ ! -x "$installed" ]]; then
  echo "Bail out! dpkg installed no $installed"
  exit 1
fi

# 6: needs no library: the package has no Depends for that reason.
headers="$(readelf -l -d "$installed" 2>&1)"
! grep -q 'INTERP\|There is dynamic section\|(NEEDED)' <<<"$headers"
tap_result $? "the installed binary is statically linked (readelf)" "" \
  "$(grep 'INTERP\|NEEDED\|dynamic' <<<"$headers")"

# 7: the version and the commit of this checkout.
version_says="$("$installed" --version 2>&1)"
[[ "$version_says" == "rollcall $version (commit $commit)" ]]
tap_result $? "the installed rollcall --version: rollcall $version (commit $commit)" "" \
  "it says: $version_says"

# 8: man renders the installed page, compressed as it is, without a warning.
page="$droot/usr/share/man/man1/rollcall.1.gz"
man_warnings="$(MANWIDTH=80 MANPAGER=cat PAGER=cat man --warnings -l "$page" 2>&1 >"$work/man.txt")"
status=$?
[[ $status == 0 && -z "$man_warnings" ]] && grep -q 'rollcall' "$work/man.txt"
tap_result $? "man -l renders the installed manual page" "" "man exited $status: $man_warnings" \
  "$(head -n 5 "$work/man.txt")"

# 9: bash loads the installed completion and completes a command with it.
completion="$droot/usr/share/bash-completion/completions/rollcall"
completes="$(bash --norc --noprofile -c 'source "$1" && complete -p rollcall &&
  COMP_WORDS=(rollcall li) && COMP_CWORD=1 && _rollcall && echo "${COMPREPLY[*]}"' \
  bash "$completion" 2>&1)"
[[ "$completes" == *"-F _rollcall rollcall"$'\n'"lint" ]]
tap_result $? "bash loads the installed completion: complete -p rollcall" "" "$completes"

# 10: the Helm plugin folders (a link's target compared as a file) and the pre-commit
# hooks as in the source tree.
share="$droot/usr/share/rollcall"
differs="$(for folder in "${plugin_folders[@]}"; do
    diff -r "integrations/$folder" "$share/$folder" 2>&1
  done
  diff .pre-commit-hooks.yaml "$share/pre-commit-hooks.yaml" 2>&1)"
[[ -z "$differs" ]]
tap_result $? "the installed Helm plugins and pre-commit hooks are the source tree's" "" "$differs"

# 11: `helm plugin install /usr/share/rollcall/helm-plugin`, as docs/install.md says.
helm4="${ROLLCALL_HELM4:-$root/.cache/helm/v4/helm}"
if [[ -x "$helm4" ]]; then
  plugin_says="$(HELM_DATA_HOME="$work/helm4/data" HELM_CONFIG_HOME="$work/helm4/config" \
    HELM_CACHE_HOME="$work/helm4/cache" "$helm4" plugin install "$share/helm-plugin" 2>&1 &&
    HELM_DATA_HOME="$work/helm4/data" HELM_CONFIG_HOME="$work/helm4/config" \
      HELM_CACHE_HOME="$work/helm4/cache" "$helm4" plugin list 2>&1)"
  status=$?
  [[ $status == 0 ]] && grep -qE "^rollcall[[:space:]]+${version}[[:space:]]" <<<"$plugin_says"
  tap_result $? "Helm 4 installs the installed plugin folder" "" "helm exited $status:" "$plugin_says"
else
  tap_skip "Helm 4 installs the installed plugin folder" "no Helm 4 at $helm4 (scripts/fetch-helm.sh)"
fi

# 12: the docs' `apt install ./build-deb/rollcall_VERSION_amd64.deb` names this version's
# package where build-deb.sh writes it (on amd64; the architecture is the machine's).
named="$(grep -ohE '[./a-z-]*rollcall_[^ `_]*_[a-z0-9]+\.deb' README.md docs/install.md 2>&1 |
  sed 's|^\./||' | sort -u)"
[[ "$named" == "build-deb/rollcall_${version}_amd64.deb" ]]
tap_result $? "README.md and docs/install.md name build-deb/rollcall_${version}_amd64.deb" "" \
  "they name: $named"

# 13...: the Helm 3 end-to-end test with the installed binary, its points as ours.
k8sread="${K8SREAD:-}"
if [[ -z "$k8sread" ]]; then
  k8sread="$(dirname "$deb")/k8sread"
  go="$(command -v /usr/lib/go-1.19/bin/go go1.19 2>/dev/null | head -n 1)"
  # As tests/oracle/meson.build builds it: GOPATH mode, Debian's packages only.
  if [[ -z "$go" ]] || ! GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS='' GOPROXY=off \
    CGO_ENABLED=0 GOCACHE="$(dirname "$deb")/gocache" \
    "$go" build -trimpath -o "$k8sread" tests/oracle/k8sread/main.go >"$work/go.log" 2>&1; then
    echo "# cannot build tests/oracle/k8sread (Go 1.19: scripts/install-deps.sh): $(tail -n 5 "$work/go.log" 2>/dev/null)"
    k8sread=""
  fi
fi
[[ -z "$k8sread" || "$k8sread" == /* ]] || k8sread="$root/$k8sread"
K8SREAD="$k8sread" bash tests/e2e/helm3_render.sh "$installed" "$root" >"$work/helm3.tap" 2>&1
e2e_status=$?
plan="" points=0 bailed="" e2e_failed=0
while IFS= read -r line; do
  if [[ "$line" =~ ^1\.\.([0-9]+) ]]; then
    plan="${BASH_REMATCH[1]}"
  elif [[ "$line" =~ ^(not )?ok\ [0-9]+(\ -)?\ ?(.*)$ ]]; then
    points=$((points + 1))
    point_status=0
    [[ -n "${BASH_REMATCH[1]}" ]] && point_status=1
    description="${BASH_REMATCH[3]}"
    if [[ "$description" =~ ^(.*)\ \#\ [Ss][Kk][Ii][Pp](\ (.*))?$ ]]; then
      tap_skip "helm3 e2e, installed binary: ${BASH_REMATCH[1]}" "${BASH_REMATCH[3]}"
    elif [[ "$description" =~ ^(.*)\ \#\ [Tt][Oo][Dd][Oo](\ (.*))?$ ]]; then
      tap_result "$point_status" "helm3 e2e, installed binary: ${BASH_REMATCH[1]}" "${BASH_REMATCH[3]:-TODO}"
    else
      [[ $point_status != 0 ]] && e2e_failed=$((e2e_failed + 1))
      tap_result "$point_status" "helm3 e2e, installed binary: $description" ""
    fi
  elif [[ "$line" == "Bail out!"* ]]; then
    bailed="$line"
    echo "# helm3 e2e: $line"
  elif [[ "$line" == "#"* ]]; then
    echo "$line"
  elif [[ -n "$line" ]]; then
    echo "# helm3 e2e: $line"
  fi
done <"$work/helm3.tap"
# The test ran to its end: its whole plan, and its exit status is its points'.
[[ -z "$bailed" && -n "$plan" && "$points" == "$plan" &&
  ($e2e_status == 0 || $e2e_failed -gt 0) ]]
tap_result $? "helm3 e2e, installed binary: ran its whole plan" "" \
  "exit $e2e_status, $points of ${plan:-no plan} points${bailed:+, $bailed}"

# The README's install snippets as written (docs/examples, which the docs-snippets test
# keeps equal to the README's blocks). meson install with DESTDIR, as its comment says,
# from the tests' build (BUILD_DIR of scripts/test.sh, "build").
if [[ -f build/meson-private/coredata.dat ]]; then
  meson_says="$(DESTDIR="$work/stage" bash docs/examples/meson-install.sh 2>&1)"
  status=$?
  prefix="$(meson introspect build --buildoptions |
    python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')"
  staged="$work/stage$prefix"
  [[ $status == 0 && -x "$staged/bin/rollcall" && -f "$staged/share/man/man1/rollcall.1" &&
    -f "$staged/share/rollcall/helm3-plugin/plugin.yaml" &&
    -f "$staged/share/bash-completion/completions/rollcall" ]]
  tap_result $? "docs/examples/meson-install.sh as written, DESTDIR=stage: binary, manual, completions, Helm plugins under $prefix" \
    "" "exit $status: $(tail -n 5 <<<"$meson_says")"
else
  tap_skip "docs/examples/meson-install.sh as written, DESTDIR=stage" "no build/ here (scripts/test.sh makes it)"
fi
# The package installed into this machine by apt, as the README says, only where that
# is wanted (ROLLCALL_SYSTEM_INSTALL=1: .ci/run on its throwaway machine) and rollcall
# is not installed already; apt's question is answered yes on its standard input (sudo
# would not pass it a configuration in the environment), the snippet unchanged.
if [[ "${ROLLCALL_SYSTEM_INSTALL:-}" == 1 && $(id -u) == 0 ]] && command -v sudo >/dev/null &&
  ! dpkg-query -W rollcall >/dev/null 2>&1; then
  apt_says="$(DEBIAN_FRONTEND=noninteractive bash docs/examples/install-deb.sh 2>&1 <<<y)"
  status=$?
  installed_version="$(/usr/bin/rollcall --version 2>&1)"
  [[ $status == 0 && "$installed_version" == "rollcall $version"* ]] && man -w rollcall >/dev/null 2>&1
  tap_result $? "docs/examples/install-deb.sh as written installs rollcall with apt: /usr/bin/rollcall --version, man rollcall" \
    "" "exit $status: $(tail -n 8 <<<"$apt_says")" "--version: $installed_version"
  apt_says="$(DEBIAN_FRONTEND=noninteractive sudo apt remove rollcall 2>&1 <<<y)"
  status=$?
  [[ $status == 0 && ! -e /usr/bin/rollcall ]]
  tap_result $? "sudo apt remove rollcall, as the README says, removes it" "" \
    "exit $status: $(tail -n 5 <<<"$apt_says")"
else
  why="ROLLCALL_SYSTEM_INSTALL=1 (as .ci/run sets), root, sudo and no rollcall package installed are needed"
  tap_skip "docs/examples/install-deb.sh as written installs rollcall with apt" "$why"
  tap_skip "sudo apt remove rollcall, as the README says, removes it" "$why"
fi

# Last: dpkg removes the package and leaves nothing of it.
remove_says="$(dpkg_root --purge rollcall 2>&1)"
status=$?
left="$(find "$droot" -mindepth 1 -path "$droot/var" -prune -o -path "$droot/tmp" -prune -o -print)"
[[ $status == 0 && -z "$left" ]]
tap_result $? "dpkg --purge removes every file it installed" "" "dpkg exited $status: $remove_says" \
  "left: $left"

echo "1..$n"
[[ $failed == 0 ]]
