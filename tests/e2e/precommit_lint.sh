#!/usr/bin/env bash
# End-to-end test: rollcall's pre-commit hooks (.pre-commit-hooks.yaml) run by Debian's
# pre-commit (3.0.4, `apt-get install pre-commit`) on a fixture git repository.
#
# Usage: precommit_lint.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. Without pre-commit on PATH every check is reported as skipped.
#
# Facts about pre-commit 3.0.4 that the checks below rely on:
# - `try-repo REPO HOOK` reads REPO's .pre-commit-hooks.yaml at REPO's HEAD. When REPO
#   has uncommitted changes to tracked files it first commits them to a throwaway clone
#   ("Creating temporary repo with uncommitted changes..."); an untracked hooks file is
#   not seen at all. A fresh clone (CI) has the file committed, so SOURCE_ROOT is used
#   as it is; a source tree where the file is not tracked (a tarball, or before the
#   file's first commit) gets a one-commit copy of the hooks file instead.
# - A hook with language: system runs `entry` from PATH and installs nothing: no
#   download, no virtualenv. pre-commit still clones the hook repository (here a local
#   path) into PRE_COMMIT_HOME.
# - Hooks run from the repository's top directory with the file names relative to it.
set -uo pipefail

rollcall="${1:?usage: precommit_lint.sh ROLLCALL_BINARY SOURCE_ROOT}"
root="${2:?usage: precommit_lint.sh ROLLCALL_BINARY SOURCE_ROOT}"
rollcall="$(cd "$(dirname "$rollcall")" && pwd)/$(basename "$rollcall")"
root="$(cd "$root" && pwd)"
# shellcheck source=SCRIPTDIR/../lib/tap.sh
source "$root/tests/lib/tap.sh" || { echo "Bail out! cannot read $root/tests/lib/tap.sh"; exit 1; }

checks=(
  "try-repo rollcall-lint --all-files fails on a pending marker, showing rollcall's finding"
  "try-repo rollcall-lint --all-files passes once the marker says static: <reason>"
  "the README snippet as printed (repo: local, the hooks file's entry field for field), installed as the git hook, refuses a commit adding a pending marker"
  "the same hook lets the commit through once the marker is resolved"
  "rollcall-lint on one changed file resolves the Secret of an unchanged file (the repository's sources), so the checksum marker holds"
  "rollcall-lint-all lints the whole repository, so the Secret resolves the checksum marker"
  "rendered manifests committed: rollcall-lint-all fails when the Secret changed without rendering again"
  "rendered again with rollcall render, the same commit passes"
  "a chart whose only change is templates/deployment.yaml is rendered and linted: its unresolved reference fails rollcall-lint"
  "a changed values.yaml lints its chart too, once when the template changed beside it"
  "the installed git hook refuses a commit changing only the template, and lets it through once the reference is accounted for"
  "rollcall lint without --chart-of-file still lints the template file alone (markers only), as before"
  "a committed file named --write-baseline=ok.yaml is linted as a file, not read as the option: the hook fails on its finding and writes nothing"
  "args of the user's own without the closing -- are refused (exit 2, saying so), not run with file names read as options"
  "split files: a commit changing only the image tag of k8s/deploy.yaml passes, its Secret in the unchanged k8s/secret.yaml read from the repository"
  "split files: the same Deployment reading a Secret no file of the repository holds still fails, unresolved-reference"
  "a chart whose dependencies are not committed (no charts/*.tgz): the hook warns once with the command to run and passes, linting the rest"
)
echo "1..${#checks[@]}"

if ! command -v pre-commit >/dev/null 2>&1; then
  skip_rest "no pre-commit (apt-get install pre-commit, or scripts/install-deps.sh)"
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Nothing from the user's environment: git and pre-commit configuration, caches and
# any git repository this test happens to run inside of.
export HOME="$tmp/home" PRE_COMMIT_HOME="$tmp/pre-commit" XDG_CACHE_HOME="$tmp/cache"
export XDG_CONFIG_HOME="$tmp/config" GIT_CONFIG_NOSYSTEM=1 PRE_COMMIT_COLOR=never
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_CONFIG_GLOBAL SKIP
unset PRE_COMMIT_ALLOW_NO_CONFIG HELM_BIN HELM_NAMESPACE
mkdir -p "$HOME"
git config --global user.name "rollcall test"
git config --global user.email "test@rollcall.invalid"
git config --global init.defaultBranch main
git config --global commit.gpgSign false
# Helm 3 for the chart checks (9 to 12): the hooks find it through HELM_BIN.
helm="${ROLLCALL_HELM3:-$root/.cache/helm/v3/helm}"
# SOURCE_ROOT may belong to another user (a CI checkout in a container).
git config --global --add safe.directory '*'

# rollcall as the hooks run it: the one just built, first on PATH.
export PATH="$(dirname "$rollcall"):$PATH"

# The hook repository for try-repo: SOURCE_ROOT itself when its hooks file is tracked.
hook_repo="$root"
if ! git -C "$root" ls-files --error-unmatch .pre-commit-hooks.yaml >/dev/null 2>&1; then
  echo "# $root/.pre-commit-hooks.yaml is not tracked by git there: try-repo uses a copy"
  hook_repo=""
fi
# A repository holding the hooks file as it is in SOURCE_ROOT now, at a known commit:
# what the snippet's repo/rev point at (and try-repo, when SOURCE_ROOT cannot serve).
copy_repo="$tmp/rollcall-hooks"
mkdir -p "$copy_repo"
cp "$root/.pre-commit-hooks.yaml" "$copy_repo/"
git -C "$copy_repo" init -q &&
  git -C "$copy_repo" add .pre-commit-hooks.yaml &&
  git -C "$copy_repo" commit -q -m "rollcall hooks" ||
  { echo "Bail out! cannot make a git repository in $copy_repo"; exit 1; }
copy_rev="$(git -C "$copy_repo" rev-parse HEAD)"
[[ -n "$hook_repo" ]] || hook_repo="$copy_repo"

# The fixture: an application repository with one manifest.
app="$tmp/app"
mkdir -p "$app/deploy"
git -C "$app" init -q
write_api() { # write_api MARKER-VALUE
  cat >"$app/deploy/api.yaml" <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
spec:
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      containers:
        - name: api
          image: registry.example.com/shop/api:1.0.0
          env:
            - name: DB_PASSWORD
              valueFrom:
                secretKeyRef:
                  # SECRET-VERSION: $1
                  name: shop-db
                  key: password
EOF
}
commit() { git -C "$app" add -A && git -C "$app" commit -q --no-verify -m "$1"; }
finding='deploy/api.yaml:23:25: error[pending-marker] Deployment shop/api reads secret/shop-db[password] via env in container api'

try_repo() { # try_repo HOOK [pre-commit run options...]: output in $tmp/out, exit in $status
  local hook="$1"
  shift
  (cd "$app" && pre-commit try-repo "$hook_repo" "$hook" "$@") >"$tmp/out" 2>&1
  status=$?
}

# 1, 2: try-repo, as the issue asks.
write_api pending
commit "api with a pending marker"
try_repo rollcall-lint --all-files
[[ $status == 1 ]] && grep -qF "$finding" "$tmp/out" && grep -q '^rollcall lint\.*Failed$' "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"

write_api "static: shop-db changes only with a maintenance window that restarts the api"
commit "resolve the marker"
try_repo rollcall-lint --all-files
[[ $status == 0 ]] && grep -q '^rollcall lint\.*Passed$' "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"

# 3, 4: the snippet users paste (README.md and docs/lint.md show this file, which
# tests/docs/snippets.py checks), as printed.
snippet="$(cat "$root/docs/examples/pre-commit-config.yaml")"
if [[ -z "$snippet" ]]; then
  not_ok "docs/examples/pre-commit-config.yaml is missing or empty"
  not_ok "(needs the snippet)"
else
  # As printed: the snippet is copied, not edited (a user pastes it). Its hook must be
  # the hooks file's rollcall-lint entry written out, field for field (what pre-commit
  # runs from a hook repository), but for the description the snippet leaves out.
  cp "$root/docs/examples/pre-commit-config.yaml" "$app/.pre-commit-config.yaml"
  fields() { # fields FILE: the rollcall-lint entry's "key: value" lines, sorted
    awk '/^ *- id: / { on = ($3 == "rollcall-lint") } on { sub(/^ *(- )?/, ""); print }' "$1" |
      grep -v -e '^#' -e '^$' -e '^description: ' | sort
  }
  drift="$(diff <(fields "$root/.pre-commit-hooks.yaml") <(fields "$app/.pre-commit-config.yaml"))"
  commit "pre-commit configuration"
  (cd "$app" && pre-commit install) >"$tmp/install.out" 2>&1
  head_before="$(git -C "$app" rev-parse HEAD)"
  write_api pending
  git -C "$app" add -A
  (cd "$app" && git commit -m "back to pending") >"$tmp/out" 2>&1
  status=$?
  [[ -z "$drift" && $status != 0 && "$(git -C "$app" rev-parse HEAD)" == "$head_before" ]] &&
    grep -qF "$finding" "$tmp/out"
  check $? "the snippet's hook against .pre-commit-hooks.yaml's rollcall-lint:" "${drift:-the same}" \
    "git commit exited $status; configuration:" "$(cat "$app/.pre-commit-config.yaml")" \
    "pre-commit install:" "$(cat "$tmp/install.out")" "git commit:" "$(cat "$tmp/out")"

  # Another reason than the committed one, so that there is something to commit.
  write_api "static: the api reads shop-db at start-up only, and a rotation restarts it"
  git -C "$app" add -A
  (cd "$app" && git commit -m "resolved again") >"$tmp/out" 2>&1
  status=$?
  [[ $status == 0 && "$(git -C "$app" rev-parse HEAD)" != "$head_before" ]] &&
    grep -q '^rollcall lint\.*Passed$' "$tmp/out"
  check $? "git commit exited $status; output:" "$(cat "$tmp/out")"
fi

# 5, 6: a checksum marker whose Secret is in another, unchanged file.
cat >"$app/deploy/shop-db.yaml" <<'EOF'
apiVersion: v1
kind: Secret
metadata:
  name: shop-db
  namespace: shop
stringData:
  password: example-password
EOF
write_api checksum
commit "hash shop-db"
try_repo rollcall-lint --files deploy/api.yaml
[[ $status == 0 ]] && grep -q '^rollcall lint\.*Passed$' "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"

try_repo rollcall-lint-all --files deploy/api.yaml
[[ $status == 0 ]] && grep -q '^rollcall lint (whole repository)\.*Passed$' "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"

# 7, 8: the rendered-manifests layout (Argo CD or Flux applying committed YAML): the
# manifests carry rollcall's hash; editing the Secret without rendering again is caught.
render_deploy() { # render_deploy: deploy/ rendered in place, as one stream
  cat "$app/deploy/shop-db.yaml" <(echo "---") "$app/deploy/api.yaml" |
    rollcall render >"$tmp/rendered.yaml" &&
    python3 - "$tmp/rendered.yaml" "$app/deploy" <<'PY'
import sys
secret, api = open(sys.argv[1]).read().split("---\n", 1)
open(sys.argv[2] + "/shop-db.yaml", "w").write(secret)
open(sys.argv[2] + "/api.yaml", "w").write(api)
PY
}
write_api "static: rendered by rollcall, the hash rolls the api"
render_deploy
commit "rendered manifests"
sed -i 's/password: example-password/password: rotated-password/' "$app/deploy/shop-db.yaml"
git -C "$app" add -A
try_repo rollcall-lint-all --files deploy/shop-db.yaml
[[ $status == 1 ]] &&
  grep -q '^deploy/api.yaml:[0-9]*:[0-9]*: error\[stale-config-hash\] Deployment shop/api carries the config hash of older content of secret/shop-db\[password\]' "$tmp/out" &&
  ! grep -q 'rotated-password' "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"

render_deploy
git -C "$app" add -A
try_repo rollcall-lint-all --files deploy/shop-db.yaml
[[ $status == 0 ]] && grep -q '^rollcall lint (whole repository)\.*Passed$' "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"

# 9 to 12: a chart in the repository whose template reads a Secret nobody accounted
# for. As a file the template is not YAML (template-not-analysed: markers only), so
# without --chart-of-file a commit changing only the template got through.
if [[ ! -x "$helm" ]]; then
  skip_rest "no helm (Helm 3 not found at $helm; run scripts/fetch-helm.sh)"
  [[ $failed == 0 ]]
  exit
fi
export HELM_BIN="$helm"
chart="$app/charts/shop"
mkdir -p "$chart/templates"
printf '%s\n' 'apiVersion: v2' 'name: shop' 'version: 0.1.0' >"$chart/Chart.yaml"
printf '%s\n' 'image: registry.example.com/shop/cart:1.0.0' 'paymentsSecret: shop-payments' \
  >"$chart/values.yaml"
write_template() { # write_template COMMENT: the comment above the Secret's name
  cat >"$chart/templates/deployment.yaml" <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-cart
spec:
  selector:
    matchLabels:
      app: cart
  template:
    metadata:
      labels:
        app: cart
    spec:
      containers:
        - name: cart
          image: {{ .Values.image }}
          env:
            - name: PAYMENTS_KEY
              valueFrom:
                secretKeyRef:
                  # $1
                  name: {{ .Values.paymentsSecret }}
                  key: api-key
EOF
}
write_template "the payments key"
commit "the shop chart"
chart_finding='^charts/shop/templates/deployment\.yaml:[0-9][0-9]*\(:[0-9][0-9]*\)\{0,1\}: error\[unresolved-reference\] Deployment default/shop-cart reads secret/shop-payments\[api-key\]'

# 9: only the template changed.
write_template "the payments key, from the provider"
git -C "$app" add -A
try_repo rollcall-lint --files charts/shop/templates/deployment.yaml
[[ $status == 1 ]] && grep -q "$chart_finding" "$tmp/out" &&
  ! grep -q 'template-not-analysed' "$tmp/out" && grep -q '^rollcall lint\.*Failed$' "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"

# 10: only values.yaml; then three files of the chart: one chart, one finding.
sed -i 's|^image: .*|image: registry.example.com/shop/cart:1.0.1|' "$chart/values.yaml"
git -C "$app" add -A
try_repo rollcall-lint --files charts/shop/values.yaml
first=$status
cp "$tmp/out" "$tmp/values.out"
try_repo rollcall-lint --files charts/shop/values.yaml charts/shop/templates/deployment.yaml \
  charts/shop/Chart.yaml
[[ $first == 1 && $status == 1 ]] && grep -q "$chart_finding" "$tmp/values.out" &&
  [[ "$(grep -c "$chart_finding" "$tmp/out")" == 1 ]]
check $? "pre-commit exited $first, then $status; output:" "$(cat "$tmp/values.out" "$tmp/out")"

# 11: the git hook installed in 3 (the snippet's configuration, the hooks file as it is
# in SOURCE_ROOT now). The staged change touches the chart only.
if [[ -f "$app/.pre-commit-config.yaml" ]]; then
  git -C "$app" reset -q -- charts/shop/values.yaml && git -C "$app" checkout -q -- charts/shop/values.yaml
  head_before="$(git -C "$app" rev-parse HEAD)"
  (cd "$app" && git commit -m "the payments key comes from the provider") >"$tmp/refused.out" 2>&1
  refused=$?
  write_template "SECRET-VERSION: static: the provider rotates the key once a year, and the cart is restarted then"
  git -C "$app" add -A
  (cd "$app" && git commit -m "the payments key, accounted for") >"$tmp/out" 2>&1
  status=$?
  [[ $refused != 0 && $status == 0 && "$(git -C "$app" rev-parse HEAD~1)" == "$head_before" ]] &&
    grep -q "$chart_finding" "$tmp/refused.out" && grep -q '^rollcall lint\.*Passed$' "$tmp/out"
  check $? "git commit exited $refused, then $status; output:" "$(cat "$tmp/refused.out")" \
    "$(cat "$tmp/out")"
else
  not_ok "(needs the configuration check 3 installs)"
fi

# 12: the flag is what the hook's entry adds; rollcall lint FILE is unchanged.
write_template "the payments key"
(cd "$app" && rollcall lint charts/shop/templates/deployment.yaml) >"$tmp/out" 2>&1
status=$?
[[ $status == 0 ]] &&
  grep -q '^charts/shop/templates/deployment\.yaml: info\[template-not-analysed\]' "$tmp/out"
check $? "rollcall lint exited $status; output:" "$(cat "$tmp/out")"

# 13: pre-commit appends file names with no "--" of its own; the hook's args are "--".
sed -e 's/SECRET-VERSION: .*/SECRET-VERSION: pending/' "$app/deploy/api.yaml" >"$app/--write-baseline=ok.yaml"
git -C "$app" add -A
try_repo rollcall-lint --all-files
[[ $status == 1 && ! -e "$app/ok.yaml" ]] &&
  grep -q -- '^--write-baseline=ok\.yaml:[0-9]*:25: error\[pending-marker\] Deployment shop/api' "$tmp/out"
check $? "pre-commit exited $status; ok.yaml: $(ls "$app/ok.yaml" 2>&1); output:" "$(cat "$tmp/out")"

# 14: args that replace the default [--] and forget it.
cat >"$tmp/own-args.yaml" <<EOF
repos:
  - repo: $copy_repo
    rev: $copy_rev
    hooks:
      - id: rollcall-lint
        args: [--quiet]
EOF
(cd "$app" && pre-commit run --config "$tmp/own-args.yaml" --all-files) >"$tmp/out" 2>&1
status=$?
[[ $status != 0 && ! -e "$app/ok.yaml" ]] && grep -q 'exit code: 2' "$tmp/out" &&
  grep -qF -- "--hook: no '--' before the file names pre-commit appends" "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"

# 15, 16: Secrets and their readers in separate files, only the reader changed: the
# hook reads the repository's manifests for sources (lint --hook), and reports only what
# the changed files hold.
mkdir -p "$app/k8s"
cat >"$app/k8s/secret.yaml" <<'EOF'
apiVersion: v1
kind: Secret
metadata:
  name: api-db
  namespace: prod
stringData:
  password: example-password
EOF
write_k8s_deploy() { # write_k8s_deploy IMAGE-TAG SECRET-NAME
  cat >"$app/k8s/deploy.yaml" <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: prod
spec:
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
        - name: api
          image: registry.example.com/prod/api:$1
          env:
            - name: DB_PASSWORD
              valueFrom:
                secretKeyRef: {name: $2, key: password}
EOF
}
write_k8s_deploy 1.4.0 api-db
commit "split manifests"
write_k8s_deploy 1.4.1 api-db
git -C "$app" add -A
try_repo rollcall-lint --files k8s/deploy.yaml
[[ $status == 0 ]] && grep -q '^rollcall lint\.*Passed$' "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"

write_k8s_deploy 1.4.1 api-db-replica
git -C "$app" add -A
try_repo rollcall-lint --files k8s/deploy.yaml
[[ $status == 1 ]] &&
  grep -q '^k8s/deploy.yaml:[0-9]*:[0-9]*: error\[unresolved-reference\] Deployment prod/api reads secret/api-db-replica\[password\]' "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"
write_k8s_deploy 1.4.1 api-db
commit "api 1.4.1"

# 17: a chart that names a dependency its charts/ directory does not hold (Chart.lock
# committed, the .tgz not): helm template refuses it, and a hook failing on that would
# block every commit touching the chart.
mkdir -p "$app/charts/cache/templates"
cat >"$app/charts/cache/Chart.yaml" <<'EOF'
apiVersion: v2
name: cache
version: 0.1.0
dependencies:
  - name: redis
    version: 18.19.4
    repository: https://charts.example.com/bitnami
EOF
cat >"$app/charts/cache/templates/configmap.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-settings
data:
  maxmemory: 256mb
EOF
git -C "$app" add -A
# pre-commit shows a passing hook's output only with --verbose (or verbose: true).
try_repo rollcall-lint --verbose --files charts/cache/templates/configmap.yaml k8s/deploy.yaml
[[ $status == 0 ]] && grep -q '^rollcall lint\.*Passed$' "$tmp/out" &&
  [[ "$(grep -c 'warning\[chart-dependencies-missing\]' "$tmp/out")" == 1 ]] &&
  grep -qF 'charts/cache: warning[chart-dependencies-missing] not linted: the dependencies of its Chart.yaml are not in its charts/ directory (redis); run `helm dependency build charts/cache` first' "$tmp/out"
check $? "pre-commit exited $status; output:" "$(cat "$tmp/out")"

[[ $failed == 0 ]]
