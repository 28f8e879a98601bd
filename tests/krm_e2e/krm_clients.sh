#!/usr/bin/env bash
# End-to-end test: `rollcall krm` run by the real clients, on the files the docs show.
#
# Usage: krm_clients.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. kubectl comes from PATH (or $KUBECTL), kpt from PATH, $KPT or the Google
# Cloud SDK's /usr/lib/google-cloud-sdk/bin/kpt; a missing client skips its checks.
#
# What the checks rely on, seen with kubectl v1.32 (kustomize v5.5.0) and kpt
# 1.0.0-beta.56 with stub functions:
# - kubectl kustomize has no --enable-exec (kubernetes/kubectl#1498), so it runs no KRM
#   function; with --enable-alpha-plugins it runs kustomize's exec plugins: the
#   executable $KUSTOMIZE_PLUGIN_HOME/<group>/<version>/<lowercase kind>/<Kind>, with
#   the path of a copy of the transformer config as argument and the resources as a
#   plain stream on stdin, each carrying a kustomize.config.k8s.io/id annotation (v5.5.0
#   matches the output back by each resource's own id and drops the annotation; earlier
#   versions matched by the annotation). The kustomization's namespace: is set on
#   the resources before the transformer runs. A plugin's stderr shows only when it
#   fails, inside kubectl's error.
# - kpt fn eval DIR --exec "CMD ARGS" sends a ResourceList (config.kubernetes.io/v1)
#   with internal.config.kubernetes.io/* annotations; `-- k=v` becomes a ConfigMap
#   functionConfig, --fn-config FILE the object in FILE. It writes the items back to
#   their files only when the function exits 0, and shows the results either way.
set -uo pipefail
# shellcheck disable=SC2154  # python and failed are set by tap.sh

rollcall="${1:?usage: krm_clients.sh ROLLCALL_BINARY SOURCE_ROOT}"
root="${2:?usage: krm_clients.sh ROLLCALL_BINARY SOURCE_ROOT}"
# shellcheck source=SCRIPTDIR/../lib/tap.sh
source "$root/tests/lib/tap.sh" || { echo "Bail out! cannot read $root/tests/lib/tap.sh"; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The docs' snippets call `rollcall` from PATH: put the binary under test there.
mkdir -p "$tmp/bin"
ln -s "$rollcall" "$tmp/bin/rollcall"
export PATH="$tmp/bin:$PATH"
unset HELM_NAMESPACE ROLLCALL KUSTOMIZE_PLUGIN_HOME

kubectl="${KUBECTL:-$(command -v kubectl)}"
kpt="${KPT:-$(command -v kpt || echo /usr/lib/google-cloud-sdk/bin/kpt)}"
example="$root/docs/examples/kustomize"

kustomize_checks=(
  "kubectl kustomize --enable-alpha-plugins runs the shipped plugin on docs/examples/kustomize"
  "the Deployment's pod template carries config-hash and config-sources"
  "nothing but the two annotations differs from a build without the transformer"
  "every kustomize id annotation comes back from rollcall unchanged"
  "a new Secret password changes the hash, a new username (not read) keeps it"
  "an unresolved reference: silent in a build that passes; with strict: true it fails with rollcall's message"
  "an unknown option fails the build naming the option"
  "a plain Job comes out renamed after its pod template, its old name recorded"
  "a secretGenerator Secret reaches rollcall before its name suffix, and is hashed"
)
kpt_checks=(
  "kpt fn eval --exec 'rollcall krm' -- namespace=shop (docs/examples/kpt-eval.sh) passes"
  "the annotation is written into deployment.yaml, with the hash kustomize gave"
  "kpt writes back to the same files, comments kept, no internal annotation left"
  "the internal.config.kubernetes.io annotations reach rollcall and come back unchanged"
  "a second run changes nothing; a new password changes the hash"
  "results (docs/examples/kpt-fn-config.sh): unresolved reference and pending marker, with resourceRef, field and file"
  "strict: true fails kpt with the results shown and leaves the files as they were"
  "an unknown option fails kpt naming it and leaves the files as they were"
)
checks=("${kustomize_checks[@]}" "${kpt_checks[@]}")
echo "1..${#checks[@]}"

tap_python

# template_annotation FILE KEY: the annotation KEY on the pod template of the
# Deployment `shop` in a YAML stream (or "-" when absent).
template_annotation() {
  "$python" - "$1" "$2" <<'PY'
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
for doc in k8s_json.load_all(sys.argv[1]):
    if isinstance(doc, dict) and doc.get("kind") == "Deployment" and doc["metadata"]["name"] == "shop":
        ann = (doc["spec"]["template"].get("metadata") or {}).get("annotations") or {}
        print(ann.get(sys.argv[2], "-"))
PY
}

hash_re='^sha256:[0-9a-f]{64}$'
kustomize_hash=""

# ---------------------------------------------------------------------- kustomize
if [[ -z "$kubectl" || ! -x "$kubectl" ]]; then
  for _ in "${kustomize_checks[@]}"; do skip "kubectl not found"; done
else
  PATH="$(dirname "$kubectl"):$PATH"  # the docs' script runs kubectl from PATH
  build() { # build DIR OUT: the docs' build script, stdout to OUT, stderr to OUT.err
    (cd "$root" && docs/examples/kustomize/build.sh "$1") >"$2" 2>"$2.err"
  }
  kz="$tmp/kustomize"
  cp -r "$example" "$kz"

  # 1, 2
  build "$kz" "$tmp/k.yaml"
  status=$?
  check "$status" "build exited $status" "$(cat "$tmp/k.yaml.err")"
  kustomize_hash="$(template_annotation "$tmp/k.yaml" rollcall.dev/config-hash)"
  sources="$(template_annotation "$tmp/k.yaml" rollcall.dev/config-sources)"
  [[ "$kustomize_hash" =~ $hash_re && "$sources" == "configmap/shop-config, secret/shop-db[password]" ]]
  check $? "config-hash: $kustomize_hash" "config-sources: $sources"

  # 3: the same kustomization without the transformer, compared line by line.
  cp -r "$example" "$tmp/plain"
  sed -i '/^transformers:/,$d' "$tmp/plain/kustomization.yaml"
  "$kubectl" kustomize "$tmp/plain" >"$tmp/plain.yaml" 2>"$tmp/plain.err"
  diff "$tmp/plain.yaml" "$tmp/k.yaml" >"$tmp/k.diff"
  unexpected="$(grep -E '^[<>]' "$tmp/k.diff" |
    grep -vE '^> +(annotations:|rollcall\.dev/config-(hash|sources): .*)$')"
  [[ -s "$tmp/plain.yaml" && -z "$unexpected" && "$(grep -c '^> ' "$tmp/k.diff")" == 3 ]]
  check $? "unexpected differences:" "$(cat "$tmp/k.diff")" "$(cat "$tmp/plain.err")"

  # 4: a plugin home whose Rollcall keeps what kustomize sent and what rollcall returned,
  # around the shipped wrapper.
  mkdir -p "$tmp/home/rollcall.dev/v1/rollcall"
  cat >"$tmp/home/rollcall.dev/v1/rollcall/Rollcall" <<SH
#!/bin/sh
tee "$tmp/plugin.in" | "$root/integrations/kustomize/plugin/rollcall.dev/v1/rollcall/Rollcall" "\$@" | tee "$tmp/plugin.out"
SH
  chmod +x "$tmp/home/rollcall.dev/v1/rollcall/Rollcall"
  KUSTOMIZE_PLUGIN_HOME="$tmp/home" "$kubectl" kustomize --enable-alpha-plugins "$kz" >"$tmp/tee.yaml" 2>"$tmp/tee.err"
  ids() { "$python" -c '
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
for doc in k8s_json.load_all(sys.argv[1]):
    if doc: print(repr(doc["metadata"]["annotations"]["kustomize.config.k8s.io/id"]))' "$1" 2>&1; }
  in_ids="$(ids "$tmp/plugin.in")"
  out_ids="$(ids "$tmp/plugin.out")"
  [[ -n "$in_ids" && "$(wc -l <<<"$in_ids")" == 3 && "$in_ids" == "$out_ids" ]] &&
    cmp -s "$tmp/tee.yaml" "$tmp/k.yaml"
  check $? "ids sent:" "$in_ids" "ids returned:" "$out_ids" "$(cat "$tmp/tee.err")"

  # 5
  sed 's/correct-horse-battery-staple/tr0ub4dor-and-3/' "$example/secret.yaml" >"$kz/secret.yaml"
  build "$kz" "$tmp/password.yaml"
  password_hash="$(template_annotation "$tmp/password.yaml" rollcall.dev/config-hash)"
  sed 's/username: shop/username: shop-v2/' "$example/secret.yaml" >"$kz/secret.yaml"
  build "$kz" "$tmp/username.yaml"
  username_hash="$(template_annotation "$tmp/username.yaml" rollcall.dev/config-hash)"
  cp "$example/secret.yaml" "$kz/secret.yaml"
  [[ "$password_hash" =~ $hash_re && "$password_hash" != "$kustomize_hash" &&
    "$username_hash" == "$kustomize_hash" ]]
  check $? "first: $kustomize_hash" "password changed: $password_hash" "username changed: $username_hash"

  # 6: a reference to a Secret nobody gives rollcall; kubectl drops a plugin's stderr
  # when it succeeds.
  cp -r "$example" "$tmp/strict"
  sed -i 's/name: shop-db, key: password/name: shop-dbx, key: password/' "$tmp/strict/deployment.yaml"
  build "$tmp/strict" "$tmp/lenient.yaml"
  lenient=$?
  echo "strict: true" >>"$tmp/strict/rollcall.yaml"
  build "$tmp/strict" "$tmp/strict.yaml"
  status=$?
  [[ $lenient == 0 && ! -s "$tmp/lenient.yaml.err" && $status != 0 && ! -s "$tmp/strict.yaml" ]] &&
    grep -q 'error\[unresolved-reference\] Deployment shop/shop reads secret/shop-dbx\[password\]' "$tmp/strict.yaml.err" &&
    grep -q 'rollcall: error: strict: findings at error or warning severity; nothing written' "$tmp/strict.yaml.err"
  check $? "without strict: exit $lenient, stderr: $(cat "$tmp/lenient.yaml.err")" \
    "with strict: exit $status; stdout $(wc -c <"$tmp/strict.yaml") bytes; stderr:" "$(cat "$tmp/strict.yaml.err")"

  # 7
  cp -r "$example" "$tmp/typo"
  echo "namespase: shop" >>"$tmp/typo/rollcall.yaml"
  build "$tmp/typo" "$tmp/typo.yaml"
  status=$?
  [[ $status != 0 && ! -s "$tmp/typo.yaml" ]] &&
    grep -q "unknown option 'namespase' in rollcall's function config" "$tmp/typo.yaml.err"
  check $? "build exited $status; stderr:" "$(cat "$tmp/typo.yaml.err")"

  # 8: kustomize takes a resource back under a new name (a new resource to it).
  cp -r "$example" "$tmp/job"
  cat >"$tmp/job/job.yaml" <<'Y'
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: migrate
          image: registry.example/shop-migrate:1.4.2
          envFrom:
            - configMapRef: {name: shop-config}
Y
  sed -i 's/^  - deployment.yaml$/  - deployment.yaml\n  - job.yaml/' "$tmp/job/kustomization.yaml"
  build "$tmp/job" "$tmp/job.yaml"
  status=$?
  jobs="$("$python" -c '
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
for doc in k8s_json.load_all(sys.argv[1]):
    if doc and doc["kind"] == "Job":
        print(doc["metadata"]["name"], doc["metadata"]["annotations"]["rollcall.dev/job-name"],
              doc["spec"]["template"]["metadata"]["annotations"]["rollcall.dev/config-sources"])' "$tmp/job.yaml" 2>&1)"
  [[ $status == 0 && "$jobs" =~ ^migrate-[0-9a-f]{8}\ migrate\ configmap/shop-config$ ]]
  check $? "build exited $status; Jobs: $jobs" "$(cat "$tmp/job.yaml.err")"

  # 9
  cp -r "$example" "$tmp/gen"
  rm "$tmp/gen/secret.yaml"
  sed -i 's/^  - secret.yaml$//' "$tmp/gen/kustomization.yaml"
  printf 'secretGenerator:\n  - name: shop-db\n    literals: [password=correct-horse-battery-staple]\n' \
    >>"$tmp/gen/kustomization.yaml"
  build "$tmp/gen" "$tmp/gen.yaml"
  status=$?
  gen_hash="$(template_annotation "$tmp/gen.yaml" rollcall.dev/config-hash)"
  gen_sources="$(template_annotation "$tmp/gen.yaml" rollcall.dev/config-sources)"
  [[ $status == 0 && "$gen_hash" =~ $hash_re &&
    "$gen_sources" == "configmap/shop-config, secret/shop-db[password]" ]] &&
    grep -qE '^  name: shop-db-[a-z0-9]{10}$' "$tmp/gen.yaml"
  check $? "build exited $status; hash $gen_hash; sources $gen_sources" "$(cat "$tmp/gen.yaml.err")"
fi

# ---------------------------------------------------------------------------- kpt
if [[ ! -x "$kpt" ]]; then
  for _ in "${kpt_checks[@]}"; do skip "kpt not found (PATH, \$KPT, /usr/lib/google-cloud-sdk/bin/kpt)"; done
else
  PATH="$tmp/bin:$(dirname "$kpt"):$PATH"
  # package DIR: the example's manifests as a kpt package (kpt needs no Kptfile for eval).
  package() {
    rm -rf "$1"
    mkdir -p "$1"
    cp "$example/secret.yaml" "$example/configmap.yaml" "$example/deployment.yaml" "$1/"
    sed -i 's|^  template:$|  template:  # the pod template|' "$1/deployment.yaml"
  }
  eval_pkg() { # eval_pkg OUT SCRIPT ARGS...: a docs script from the repository root
    local out="$1"
    shift
    (cd "$root" && "$@") >"$out" 2>&1
  }
  pkg="$tmp/pkg"
  package "$pkg"

  # 8
  eval_pkg "$tmp/kpt.out" docs/examples/kpt-eval.sh "$pkg"
  status=$?
  [[ $status == 0 ]] && grep -q '\[PASS\] "rollcall krm"' "$tmp/kpt.out"
  check $? "kpt exited $status:" "$(cat "$tmp/kpt.out")"

  # 9: the same content and namespace as the kustomize build: the same hash.
  kpt_hash="$(template_annotation "$pkg/deployment.yaml" rollcall.dev/config-hash)"
  [[ "$kpt_hash" =~ $hash_re && ( -z "$kustomize_hash" || "$kpt_hash" == "$kustomize_hash" ) ]]
  check $? "kpt: $kpt_hash; kustomize: ${kustomize_hash:-(not run)}"

  # 10
  files="$(cd "$pkg" && printf '%s ' *)"
  [[ "$files" == "configmap.yaml deployment.yaml secret.yaml " ]] &&
    grep -q '^  template: # the pod template$' "$pkg/deployment.yaml" &&
    ! grep -rq 'config.kubernetes.io' "$pkg"
  check $? "files: $files" "$(cat "$pkg/deployment.yaml")"

  # 11: a stand-in function that keeps what kpt sent and what rollcall answered.
  cat >"$tmp/bin/rollcall-tee" <<SH
#!/bin/sh
tee "$tmp/rl.in" | rollcall krm | tee "$tmp/rl.out"
SH
  chmod +x "$tmp/bin/rollcall-tee"
  package "$tmp/pkg-tee"
  "$kpt" fn eval "$tmp/pkg-tee" --exec rollcall-tee -- namespace=shop >"$tmp/tee.out" 2>&1
  internal() { grep -o 'internal\.config\.kubernetes\.io/[a-z-]*: [^,}]*' "$1" | sort; }
  [[ -n "$(internal "$tmp/rl.in")" && "$(internal "$tmp/rl.in")" == "$(internal "$tmp/rl.out")" ]]
  check $? "sent:" "$(internal "$tmp/rl.in")" "returned:" "$(internal "$tmp/rl.out")" "$(cat "$tmp/tee.out")"

  # 12
  cp "$pkg/deployment.yaml" "$tmp/after-first.yaml"
  eval_pkg "$tmp/kpt2.out" docs/examples/kpt-eval.sh "$pkg"
  same=$?
  cmp -s "$pkg/deployment.yaml" "$tmp/after-first.yaml"
  unchanged=$?
  sed -i 's/correct-horse-battery-staple/tr0ub4dor-and-3/' "$pkg/secret.yaml"
  eval_pkg "$tmp/kpt3.out" docs/examples/kpt-eval.sh "$pkg"
  rotated_hash="$(template_annotation "$pkg/deployment.yaml" rollcall.dev/config-hash)"
  [[ $same == 0 && $unchanged == 0 && "$rotated_hash" =~ $hash_re && "$rotated_hash" != "$kpt_hash" ]]
  check $? "second run exit $same, file unchanged: $unchanged" "hash $kpt_hash -> $rotated_hash" \
    "$(diff "$tmp/after-first.yaml" "$pkg/deployment.yaml")"

  # 13: findings as structured results, through --fn-config and --results-dir.
  package "$tmp/pkg-findings"
  cat >>"$tmp/pkg-findings/deployment.yaml" <<'Y'
            - name: API_TOKEN  # SECRET-VERSION: pending
              valueFrom:
                secretKeyRef: {name: api-token, key: token}
            - name: CACHE_URL
              valueFrom:
                secretKeyRef: {name: cache, key: url}
Y
  eval_pkg "$tmp/kpt4.out" docs/examples/kpt-fn-config.sh "$tmp/pkg-findings" \
    docs/examples/kustomize/rollcall.yaml "$tmp/results"
  status=$?
  "$python" - "$tmp/results/results.yaml" >"$tmp/results.txt" 2>&1 <<'PY'
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
doc = k8s_json.load_one(sys.argv[1])
for r in doc["items"][0].get("results", []):
    ref = r.get("resourceRef", {})
    print("|".join([r["severity"], r["tags"]["rule"], ref.get("apiVersion", ""), ref.get("kind", ""),
                    ref.get("name", ""), r.get("field", {}).get("path", ""),
                    r.get("file", {}).get("path", ""), str(r.get("file", {}).get("index", 0))]))
PY
  expected="error|pending-marker|apps/v1|Deployment|shop|spec.template.spec.containers[0].env[1].valueFrom.secretKeyRef.name|deployment.yaml|0
error|unresolved-reference|apps/v1|Deployment|shop|spec.template.spec.containers[0].env[2].valueFrom.secretKeyRef.name|deployment.yaml|0"
  [[ $status == 0 && "$(cat "$tmp/results.txt")" == "$expected" ]] &&
    grep -q 'pending' "$tmp/kpt4.out"
  check $? "kpt exited $status; results:" "$(cat "$tmp/results.txt")" "expected:" "$expected" \
    "$(cat "$tmp/kpt4.out")"

  # 14
  cp "$tmp/pkg-findings/deployment.yaml" "$tmp/before-strict.yaml"
  (cd "$root" && kpt fn eval "$tmp/pkg-findings" --exec "rollcall krm" -- strict=true) >"$tmp/kpt5.out" 2>&1
  status=$?
  [[ $status != 0 ]] && cmp -s "$tmp/before-strict.yaml" "$tmp/pkg-findings/deployment.yaml" &&
    grep -q '\[FAIL\] "rollcall krm"' "$tmp/kpt5.out" &&
    grep -q '\[error\] apps/v1/Deployment/shop spec.template.spec.containers\[0\].env\[2\].valueFrom.secretKeyRef.name: Deployment default/shop reads secret/cache\[url\]' "$tmp/kpt5.out" &&
    grep -q 'rollcall: error: strict: findings at error or warning severity' "$tmp/kpt5.out"
  check $? "kpt exited $status:" "$(cat "$tmp/kpt5.out")"

  # 15
  (cd "$root" && kpt fn eval "$tmp/pkg-findings" --exec "rollcall krm" -- namespase=shop) >"$tmp/kpt6.out" 2>&1
  status=$?
  [[ $status != 0 ]] && cmp -s "$tmp/before-strict.yaml" "$tmp/pkg-findings/deployment.yaml" &&
    grep -q "unknown option 'namespase' in rollcall's function config" "$tmp/kpt6.out"
  check $? "kpt exited $status:" "$(cat "$tmp/kpt6.out")"
fi

[[ $failed == 0 ]]
