#!/usr/bin/env bash
# End-to-end test of run-once Jobs, stale one-time tokens, the immutability preflight and
# the rollout report (issue 4), with real Helm 3 and Helm 4 on charts/edge-gateway and
# with plain manifests from testdata/jobs.
#
# Usage: edge_gateway.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. Helm comes from SOURCE_ROOT/.cache/helm/v{3,4}/helm (scripts/fetch-helm.sh),
# or $ROLLCALL_HELM3 / $ROLLCALL_HELM4; the checks of a missing Helm are reported as
# skipped. The other checks need only rollcall, bash and python3.
#
# No cluster exists here, so `helm upgrade --reuse-values` and `helm get manifest` cannot
# run. The script reproduces them, honestly:
# - The previous release is the post-rendered output of the earlier step, saved to a
#   file: that is what Helm stores as the release manifest and what `helm get manifest`
#   returns (non-hook objects only; this chart has no hook).
# - "--reuse-values keeps the token" is reproduced by passing the same token again
#   (--set bootstrap.tls.token=T1); clearing it is `--set-string bootstrap.tls.token=""`,
#   the one form that clears a reused value.
# - `rollcall render --previous-release` is run against a fake `helm` on PATH that plays
#   the three answers of `helm get manifest`: not found, another failure, a manifest.
#
# How each Helm drives rollcall:
# - Helm 3: `helm template … --post-renderer WRAPPER --post-renderer-args=…`. Helm 3 calls
#   the post-renderer with only those arguments and without HELM_NAMESPACE (so the
#   wrapper is given --namespace=edge explicitly), and discards its stderr when it
#   succeeds; the wrapper keeps that stderr and rollcall's exit status in files.
# - Helm 4: `helm template … | rollcall render …` (rollcall's Helm 4 plugin comes later).
set -uo pipefail

rollcall="${1:?usage: edge_gateway.sh ROLLCALL_BINARY SOURCE_ROOT}"
root="${2:?usage: edge_gateway.sh ROLLCALL_BINARY SOURCE_ROOT}"
# shellcheck source=SCRIPTDIR/../lib/tap.sh
source "$root/tests/lib/tap.sh" || { echo "Bail out! cannot read $root/tests/lib/tap.sh"; exit 1; }
helm3="${ROLLCALL_HELM3:-$root/.cache/helm/v3/helm}"
helm4="${ROLLCALL_HELM4:-$root/.cache/helm/v4/helm}"
chart="$root/charts/edge-gateway"
data="$root/testdata/jobs"
pem="$data/edge-gateway.pem"
rotated_pem="$data/edge-gateway-rotated.pem"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Keep Helm away from the user's config, cache and repositories, and rollcall away from
# settings of the environment that would change what it does.
export HELM_CONFIG_HOME="$tmp/helm/config" HELM_CACHE_HOME="$tmp/helm/cache"
export HELM_DATA_HOME="$tmp/helm/data"
unset HELM_NAMESPACE HELM_BIN ROLLCALL_REPORT
# No .rollcall.yaml above the temporary directory may add run-once patterns or rules.
cd "$tmp" || exit 1

# The bootstrap Job's name for token T1, as the chart computes it (sha256sum | trunc 8).
t1_hash="$(printf '%s' T1 | sha256sum | cut -c1-8)"
job="edge-boot-$t1_hash"

helm_checks=(
  "helm lint is clean with default, stage and promote values"
  "stage (revision 1, token T1, stageSecret=true): exit 0, output byte-identical to the plain render: the run-once Job keeps its name $job and writes edge-client-next"
  "stage: every consumer is reported new (stderr and --report)"
  "stage: the only findings are unresolved-reference for the env vars reading edge-client-tls, which the release does not render yet"
  "promote keeping the token (as --reuse-values keeps it): exit 0, Job $job written back exactly as revision 1 had it (not as rendered now), every other object present"
  "promote keeping the token: run-once-already-ran info and stale-one-time-token warning on $job, no immutable-field finding"
  "promote keeping the token: rollout says the gateway rolled (both TLS Secrets changed) and the Job kept (already ran)"
  "promote keeping the token with --strict: exit 1, nothing on stdout, the stale-one-time-token warning on stderr"
  "promote with --set-string bootstrap.tls.token=\"\": exit 0, no Job rendered, no finding at warning or error"
  "promote with the token cleared: gateway rolled (changed: secret/edge-client-tls, secret/edge-server-tls), Job removed (stderr and --report)"
  "second identical promote (previous: the first promote's output): gateway unchanged, output byte-identical, no finding"
  "promote of a rotated certificate: gateway rolled, both TLS Secrets named as changed"
  "the upgrade after that one, token still kept (previous: that upgrade's manifest): the Job that already ran is still written back as it ran, never reported new"
)

plain_checks=(
  "plain Job, --job-policy keep, first render: output byte-identical, plain-job-unchanged warning, rollout new"
  "plain Job kept, image changed, --previous: immutable-field error on spec.template, exit 1, nothing on stdout"
  "plain Job kept, image changed, --allow-immutable: immutable-field is a warning, exit 0, output byte-identical to the input"
  "plain Job kept, image changed, --allow-immutable --strict: exit 1, nothing on stdout"
  "plain Job, default rename policy, image changed, --previous: a new name, no immutable-field, rollout renamed (was <old name>)"
  "plain Job, rename policy, same template again, --previous: same name, output byte-identical, rollout unchanged"
)

previous_release_checks=(
  "--previous-release, fake helm answers 'Error: release: not found': a first install, every consumer new, exit 0"
  "--previous-release, fake helm fails otherwise: exit 2, nothing on stdout, helm's message on stderr"
  "--previous-release, fake helm prints a manifest: used as the previous release (rollout unchanged)"
  "--previous-release runs exactly: helm get manifest --namespace=shop -- shop"
  "--previous-release takes the helm binary from \$HELM_BIN before PATH"
)

# Every point, in the order they run: the Helm checks with Helm 3, then with Helm 4, the
# plain Jobs, --previous-release. check and skip describe point N by ${checks[N-1]}.
checks=("${helm_checks[@]/#/Helm 3: }" "${helm_checks[@]/#/Helm 4: }" "${plain_checks[@]}"
  "${previous_release_checks[@]}")
echo "1..${#checks[@]}"

# Python reads the YAML output as Kubernetes does ($K8SREAD), independently of
# yaml-cpp, and the JSON report.
tap_python

# objects FILE: "Kind name" of each object in a YAML stream, in order.
objects() {
  "$python" - "$1" <<'EOF'
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
for doc in k8s_json.load_all(sys.argv[1]):
    if isinstance(doc, dict) and "kind" in doc:
        print(doc["kind"], doc["metadata"]["name"])
EOF
}

# job_env FILE NAME VAR: the value of env var VAR of Job NAME's first container.
job_env() {
  "$python" - "$@" <<'EOF'
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
path, name, var = sys.argv[1:]
for doc in k8s_json.load_all(path):
    if isinstance(doc, dict) and doc.get("kind") == "Job" and doc["metadata"]["name"] == name:
        for env in doc["spec"]["template"]["spec"]["containers"][0].get("env", []):
            if env["name"] == var:
                print(env.get("value"))
EOF
}

# job_doc FILE NAME: the Job NAME of a rendered FILE as canonical JSON, or nothing.
job_doc() {
  "$python" - "$1" "$2" <<'EOF'
import json, os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json
for doc in k8s_json.load_all(sys.argv[1]):
    if isinstance(doc, dict) and doc.get("kind") == "Job" and doc["metadata"]["name"] == sys.argv[2]:
        print(json.dumps(doc, sort_keys=True))
EOF
}

# json_rollout FILE: the "rollout" of a --report file, one entry a line, written as the
# text report writes it; "(no report)" / "(no rollout)" when absent.
json_rollout() {
  "$python" - "$1" <<'EOF'
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        report = json.load(f)
except (OSError, ValueError) as e:
    print("(no report: %s)" % e)
    sys.exit()
if "rollout" not in report:
    print("(no rollout in the report; keys: %s)" % ", ".join(sorted(report)))
    sys.exit()
for entry in report["rollout"]:
    line = "%s: %s" % (entry["object"], entry["status"])
    if entry["status"] == "kept":
        line += " (already ran: written back as the previous release has it)"
    detail = []
    if entry["status"] == "renamed":
        detail.append("was " + entry.get("previous", ""))
    if entry.get("changed"):
        detail.append("changed: " + ", ".join(entry["changed"]))
    if detail:
        line += " (" + "; ".join(detail) + ")"
    print(line)
EOF
}

# rollout ERRFILE: the rollout's lines of rollcall's stderr that name an object, without
# the prefix, sorted: render names each one that is neither new nor unchanged.
rollout() { sed -n 's/^rollcall: rollout: \([^0-9]\)/\1/p' "$1" | LC_ALL=C sort; }
# counted ERRFILE: its line counting the rollout's entries by status ("1 rolled, 2 new").
counted() { sed -n 's/^rollcall: rollout: \([0-9]\)/\1/p' "$1"; }
# findings ERRFILE: "severity[rule] message" of each finding on rollcall's stderr
# ("rollcall: <stdin>:L:C: severity[rule] message (template …)").
findings() {
  sed -nE 's/^rollcall: <stdin>:[0-9]+(:[0-9]+)?: ((error|warning|info)\[[a-z-]+\] .*)$/\2/p' "$1"
}
sorted() { printf '%s\n' "$@" | LC_ALL=C sort; }

# The Helm 3 post-renderer: rollcall render with the --post-renderer-args. Helm 3 drops a
# successful post-renderer's stderr, so it is kept in $ROLLCALL_STDERR, and rollcall's
# own exit status (helm turns any failure into 1) in $ROLLCALL_STATUS.
wrapper="$tmp/rollcall-post-renderer"
cat >"$wrapper" <<EOF
#!/usr/bin/env bash
"$rollcall" render "\$@" 2>"\$ROLLCALL_STDERR"
status=\$?
cat "\$ROLLCALL_STDERR" >&2
echo "\$status" >"\$ROLLCALL_STATUS"
exit "\$status"
EOF
chmod +x "$wrapper"

# step MAJOR OUT [rollcall render args…] -- [helm template args…]
# Renders release "edge" in namespace "edge" with Helm MAJOR and rollcall. Leaves:
#   OUT        what reaches the cluster (rollcall's stdout, through helm for Helm 3)
#   OUT.err    rollcall's stderr        OUT.json   its --report
#   OUT.plain  helm template alone      OUT.helm.err  helm's stderr
# and sets rc (rollcall's exit status), hrc (helm's) and cmd (for diagnostics).
step() {
  local major="$1" out="$2"
  shift 2
  local rargs=() hargs=() pargs=() arg
  while [[ $# -gt 0 && "$1" != "--" ]]; do rargs+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  hargs=(-n edge "$@")
  rargs+=(--namespace=edge "--report=$out.json")
  rm -f "$out" "$out".*
  local helm_bin="$helm3"
  [[ "$major" == 4 ]] && helm_bin="$helm4"
  "$helm_bin" template edge "$chart" "${hargs[@]}" >"$out.plain" 2>"$out.plain.err"
  if [[ "$major" == 3 ]]; then
    for arg in "${rargs[@]}"; do pargs+=("--post-renderer-args=$arg"); done
    ROLLCALL_STDERR="$out.err" ROLLCALL_STATUS="$out.status" \
      "$helm3" template edge "$chart" "${hargs[@]}" --post-renderer "$wrapper" "${pargs[@]}" \
      >"$out" 2>"$out.helm.err"
    hrc=$?
    rc="$(cat "$out.status" 2>/dev/null || echo "(rollcall did not run)")"
    cmd="helm template edge charts/edge-gateway ${hargs[*]} --post-renderer rollcall-render ${pargs[*]}"
  else
    hrc=0
    "$helm4" template edge "$chart" "${hargs[@]}" >"$out.helm" 2>"$out.helm.err" || hrc=$?
    "$rollcall" render "${rargs[@]}" <"$out.helm" >"$out" 2>"$out.err"
    rc=$?
    cmd="helm template edge charts/edge-gateway ${hargs[*]} | rollcall render ${rargs[*]}"
  fi
}

# diag OUT: what to print when a check on a step fails.
diag() {
  printf '%s\n' "command: $cmd" "helm exit $hrc, rollcall exit $rc, stdout $(wc -c <"$1") bytes" \
    "rollcall stderr:" "$(cat "$1.err" 2>/dev/null)"
  [[ -s "$1.helm.err" ]] && printf '%s\n' "helm stderr:" "$(cat "$1.helm.err")"
  return 0
}

stage_args=(--set bootstrap.tls.token=T1 --set bootstrap.stageSecret=true)
# --reuse-values would keep token T1 from revision 1: passed again here.
keep_args=(--set bootstrap.tls.token=T1 --set bootstrap.stageSecret=false
  --set rotation.promote=true --set-file "rotation.certificatePem=$pem")
# The form that clears a reused value (--set …=null does not survive --reuse-values).
clear_args=(--set-string 'bootstrap.tls.token=' --set bootstrap.stageSecret=false
  --set rotation.promote=true --set-file "rotation.certificatePem=$pem")
rotate_args=(--set-string 'bootstrap.tls.token=' --set bootstrap.stageSecret=false
  --set rotation.promote=true --set-file "rotation.certificatePem=$rotated_pem")

# Every object of a promote, but the bootstrap Job.
promote_objects_without_job="$(sorted "Deployment edge-gateway" "Role edge-bootstrap" \
  "RoleBinding edge-bootstrap" "Secret edge-boot-token" "Secret edge-client-tls" \
  "Secret edge-server-tls" "Service edge-gateway" "ServiceAccount edge-bootstrap")"
rolled_both="Deployment edge/edge-gateway: rolled (changed: secret/edge-client-tls, secret/edge-server-tls)"

chart_checks() { # chart_checks MAJOR HELM_BINARY
  local major="$1" helm_bin="$2"
  local d="$tmp/helm$major"
  mkdir -p "$d"

  if [[ ! -x "$helm_bin" ]]; then
    for _ in "${helm_checks[@]}"; do
      skip "Helm $major not found at $helm_bin (run scripts/fetch-helm.sh)"
    done
    return
  fi

  # a: lint.
  local lint_out="" lint_status=0
  lint_out+="$("$helm_bin" lint "$chart" 2>&1)"$'\n' || lint_status=1
  lint_out+="$("$helm_bin" lint "$chart" "${stage_args[@]}" 2>&1)"$'\n' || lint_status=1
  lint_out+="$("$helm_bin" lint "$chart" "${keep_args[@]}" 2>&1)"$'\n' || lint_status=1
  [[ $lint_status == 0 ]] && ! grep -qE '\[(WARNING|ERROR)\]' <<<"$lint_out"
  check $? "$lint_out"

  # b: stage, revision 1.
  step "$major" "$d/rev1" -- "${stage_args[@]}"
  local target
  target="$(job_env "$d/rev1" "$job" TARGET_SECRET)"
  [[ $hrc == 0 && $rc == 0 && -s "$d/rev1" && "$target" == "edge-client-next" ]] &&
    cmp -s "$d/rev1.plain" "$d/rev1"
  check $? "$(diag "$d/rev1")" "Job $job TARGET_SECRET: ${target:-(no such Job)}" \
    "diff plain output:" "$(diff "$d/rev1.plain" "$d/rev1" | head -20)"

  # c: every consumer new.
  local want
  want="$(sorted "Deployment edge/edge-gateway: new" "Job edge/$job: new")"
  [[ "$(rollout "$d/rev1.err")" == "" && "$(counted "$d/rev1.err")" == "2 new" &&
    "$(json_rollout "$d/rev1.json" | LC_ALL=C sort)" == "$want" ]]
  check $? "expected:" "$want" "stderr rollout:" "$(rollout "$d/rev1.err")" \
    "--report rollout:" "$(json_rollout "$d/rev1.json")"

  # d: findings of the stage.
  local f
  f="$(findings "$d/rev1.err")"
  [[ "$(grep -c . <<<"$f")" == 2 ]] &&
    grep -qF 'error[unresolved-reference] Deployment edge/edge-gateway reads secret/edge-client-tls[tls.crt] via env' <<<"$f" &&
    grep -qF 'error[unresolved-reference] Deployment edge/edge-gateway reads secret/edge-client-tls[tls.key] via env' <<<"$f"
  check $? "findings:" "$f"

  # e: promote keeping the token: the Job that ran is written back as it ran.
  step "$major" "$d/keep" --previous="$d/rev1" -- "${keep_args[@]}"
  local objs want_objs
  objs="$(objects "$d/keep" | LC_ALL=C sort)"
  want_objs="$(printf '%s\n%s\n' "$promote_objects_without_job" "Job $job" | LC_ALL=C sort)"
  [[ $hrc == 0 && $rc == 0 && "$objs" == "$want_objs" &&
    -n "$(job_doc "$d/rev1" "$job")" &&
    "$(job_doc "$d/keep" "$job")" == "$(job_doc "$d/rev1" "$job")" ]]
  check $? "$(diag "$d/keep")" "objects in the output:" "$objs" "expected:" "$want_objs" \
    "Job in the output:" "$(job_doc "$d/keep" "$job")" "Job in revision 1:" "$(job_doc "$d/rev1" "$job")"

  # f: the findings that explain it.
  f="$(findings "$d/keep.err")"
  grep -qE "^info\[run-once-already-ran\] Job edge/$job " <<<"$f" &&
    grep -qE "^warning\[stale-one-time-token\] Job edge/$job .*--set-string" <<<"$f" &&
    ! grep -q 'immutable-field' <<<"$f"
  check $? "findings:" "$f"

  # g: rollout of the promote keeping the token.
  want="$(sorted "$rolled_both" "Job edge/$job: kept (already ran: written back as the previous release has it)")"
  [[ "$(rollout "$d/keep.err")" == "$want" && "$(counted "$d/keep.err")" == "1 rolled, 1 kept" &&
    "$(json_rollout "$d/keep.json" | LC_ALL=C sort)" == "$want" ]]
  check $? "expected:" "$want" "stderr rollout:" "$(rollout "$d/keep.err")" \
    "--report rollout:" "$(json_rollout "$d/keep.json")"

  # h: --strict turns the stale-token warning into a refusal.
  step "$major" "$d/strict" --strict --previous="$d/rev1" -- "${keep_args[@]}"
  local helm_says=0
  if [[ $major == 3 ]]; then
    # Helm 3 fails the whole command, with rollcall's stderr in its own.
    [[ $hrc == 1 ]] && grep -q 'error while running post render' "$d/strict.helm.err" &&
      grep -q 'stale-one-time-token' "$d/strict.helm.err" || helm_says=1
  fi
  [[ $rc == 1 && ! -s "$d/strict" && $helm_says == 0 ]] &&
    grep -qE "warning\[stale-one-time-token\] Job edge/$job " "$d/strict.err"
  check $? "$(diag "$d/strict")"

  # i: promote with the token cleared.
  step "$major" "$d/clear" --previous="$d/rev1" -- "${clear_args[@]}"
  objs="$(objects "$d/clear" | LC_ALL=C sort)"
  want="$(sorted "Deployment edge-gateway" "Secret edge-client-tls" "Secret edge-server-tls" \
    "Service edge-gateway")"
  f="$(findings "$d/clear.err")"
  [[ $hrc == 0 && $rc == 0 && "$objs" == "$want" ]] && ! grep -qE '^(error|warning)' <<<"$f"
  check $? "$(diag "$d/clear")" "objects in the output:" "$objs" "expected:" "$want"

  # j: its rollout.
  want="$(sorted "$rolled_both" "Job edge/$job: removed")"
  [[ "$(rollout "$d/clear.err")" == "$want" && "$(counted "$d/clear.err")" == "1 rolled, 1 removed" &&
    "$(json_rollout "$d/clear.json" | LC_ALL=C sort)" == "$want" ]]
  check $? "expected:" "$want" "stderr rollout:" "$(rollout "$d/clear.err")" \
    "--report rollout:" "$(json_rollout "$d/clear.json")"

  # k: the same promote again.
  step "$major" "$d/again" --previous="$d/clear" -- "${clear_args[@]}"
  want="Deployment edge/edge-gateway: unchanged"
  f="$(findings "$d/again.err")"
  [[ $hrc == 0 && $rc == 0 && -z "$f" && "$(rollout "$d/again.err")" == "" &&
    "$(counted "$d/again.err")" == "1 unchanged" &&
    "$(json_rollout "$d/again.json")" == "$want" ]] && cmp -s "$d/clear" "$d/again"
  check $? "$(diag "$d/again")" "expected rollout: $want" \
    "--report rollout:" "$(json_rollout "$d/again.json")" \
    "diff against the first promote:" "$(diff "$d/clear" "$d/again" | head -20)"

  # l: a new certificate: both sides of the comparison hold the Secrets.
  step "$major" "$d/rotate" --previous="$d/clear" -- "${rotate_args[@]}"
  [[ $hrc == 0 && $rc == 0 && "$(rollout "$d/rotate.err")" == "$rolled_both" &&
    "$(counted "$d/rotate.err")" == "1 rolled" &&
    "$(json_rollout "$d/rotate.json")" == "$rolled_both" ]]
  check $? "$(diag "$d/rotate")" "expected rollout: $rolled_both" \
    "--report rollout:" "$(json_rollout "$d/rotate.json")"

  # m: the revision after that one. Helm stored its manifest (the Job written back as
  # it ran), so the Job stays in the release: never deleted, never created again.
  step "$major" "$d/after" --previous="$d/keep" -- "${keep_args[@]}"
  [[ -n "$(job_doc "$d/rev1" "$job")" && $hrc == 0 && $rc == 0 &&
    "$(job_doc "$d/after" "$job")" == "$(job_doc "$d/rev1" "$job")" ]] &&
    grep -qF "Job edge/$job: kept (already ran" "$d/after.err" &&
    ! grep -qF "Job edge/$job: new" "$d/after.err"
  check $? "$(diag "$d/after")" \
    "Job $job in the output: $(grep -c "name: $job" "$d/after") time(s); it ran in revision 1 and its token is spent"
}

chart_checks 3 "$helm3"
chart_checks 4 "$helm4"

# Plain Jobs: no Helm needed, the fixtures are manifests.
p="$tmp/plain"
mkdir -p "$p"
# plain OUT INPUT [rollcall render args…]: sets rc and cmd.
plain() {
  local out="$1" input="$2"
  shift 2
  "$rollcall" render "$@" <"$input" >"$out" 2>"$out.err"
  rc=$?
  hrc="-"
  cmd="rollcall render $* < ${input#"$root"/}"
}

plain "$p/keep1" "$data/plain-job-v1.yaml" --job-policy keep
f="$(findings "$p/keep1.err")"
[[ $rc == 0 && "$(rollout "$p/keep1.err")" == "" && "$(counted "$p/keep1.err")" == "1 new" ]] &&
  cmp -s "$data/plain-job-v1.yaml" "$p/keep1" &&
  grep -qE '^warning\[plain-job-unchanged\] Job shop/shop-migrate ' <<<"$f"
check $? "$(diag "$p/keep1")"

plain "$p/keep2" "$data/plain-job-v2.yaml" --job-policy keep --previous="$p/keep1"
f="$(findings "$p/keep2.err")"
[[ $rc == 1 && ! -s "$p/keep2" ]] &&
  grep -qE '^error\[immutable-field\] Job shop/shop-migrate: spec\.template: .*field is immutable' <<<"$f"
check $? "$(diag "$p/keep2")"

plain "$p/keep2-allowed" "$data/plain-job-v2.yaml" --job-policy keep --allow-immutable \
  --previous="$p/keep1"
f="$(findings "$p/keep2-allowed.err")"
[[ $rc == 0 ]] && cmp -s "$data/plain-job-v2.yaml" "$p/keep2-allowed" &&
  grep -qE '^warning\[immutable-field\] Job shop/shop-migrate: spec\.template: ' <<<"$f" &&
  ! grep -q '^error\[immutable-field\]' <<<"$f"
check $? "$(diag "$p/keep2-allowed")"

plain "$p/keep2-strict" "$data/plain-job-v2.yaml" --job-policy keep --allow-immutable --strict \
  --previous="$p/keep1"
[[ $rc == 1 && ! -s "$p/keep2-strict" ]]
check $? "$(diag "$p/keep2-strict")"

plain "$p/rename1" "$data/plain-job-v1.yaml"
plain "$p/rename2" "$data/plain-job-v2.yaml" --previous="$p/rename1"
name1="$(objects "$p/rename1" | sed -n 's/^Job //p')"
name2="$(objects "$p/rename2" | sed -n 's/^Job //p')"
f="$(findings "$p/rename2.err")"
want="Job shop/$name2: renamed (was $name1)"
[[ $rc == 0 && "$name1" =~ ^shop-migrate-[0-9a-f]{8}$ && "$name2" =~ ^shop-migrate-[0-9a-f]{8}$ &&
  "$name1" != "$name2" && "$(rollout "$p/rename2.err")" == "$want" &&
  "$(counted "$p/rename2.err")" == "1 renamed" ]] &&
  ! grep -q 'immutable-field' <<<"$f"
check $? "$(diag "$p/rename2")" "Job names: $name1 -> $name2" "expected rollout: $want"

plain "$p/rename1-again" "$data/plain-job-v1.yaml" --previous="$p/rename1"
want="Job shop/$name1: unchanged"
[[ $rc == 0 && "$(rollout "$p/rename1-again.err")" == "" && "$(counted "$p/rename1-again.err")" == "1 unchanged" &&
  -z "$(findings "$p/rename1-again.err")" ]] &&
  cmp -s "$p/rename1" "$p/rename1-again"
check $? "$(diag "$p/rename1-again")" "expected rollout: $want"

# --previous-release with a fake helm. It records its arguments, one a line, and plays
# the answer chosen by $FAKE_HELM_ANSWER.
fake="$tmp/fake"
mkdir -p "$fake/bin" "$fake/other"
cat >"$fake/bin/helm" <<EOF
#!/usr/bin/env bash
printf '%s\n' "\$@" >"$fake/args"
echo "\$0" >"$fake/which"
case "\$FAKE_HELM_ANSWER" in
  not-found) echo 'Error: release: not found' >&2; exit 1 ;;
  unreachable)
    echo 'Error: Kubernetes cluster unreachable: Get "https://10.96.0.1:443/version": dial tcp 10.96.0.1:443: i/o timeout' >&2
    exit 1 ;;
  manifest) cat "$p/rename1" ;;
esac
EOF
chmod +x "$fake/bin/helm"
cp "$fake/bin/helm" "$fake/other/helm"
# previous_release OUT [rollcall render args…]: renders plain-job-v1 in namespace shop.
previous_release() {
  local out="$1"
  shift
  rm -f "$fake/args" "$fake/which"
  PATH="$fake/bin:$PATH" "$rollcall" render -n shop --previous-release shop "$@" \
    <"$data/plain-job-v1.yaml" >"$out" 2>"$out.err"
  rc=$?
  hrc="-"
  cmd="FAKE_HELM_ANSWER=$FAKE_HELM_ANSWER rollcall render -n shop --previous-release shop $*"
}

FAKE_HELM_ANSWER=not-found
export FAKE_HELM_ANSWER
previous_release "$fake/first"
[[ $rc == 0 && "$(rollout "$fake/first.err")" == "" && "$(counted "$fake/first.err")" == "1 new" ]] &&
  cmp -s "$p/rename1" "$fake/first"
check $? "$(diag "$fake/first")"
args_not_found="$(cat "$fake/args" 2>/dev/null)"

FAKE_HELM_ANSWER=unreachable
previous_release "$fake/fail"
[[ $rc == 2 && ! -s "$fake/fail" ]] &&
  grep -qF 'Kubernetes cluster unreachable: Get "https://10.96.0.1:443/version"' "$fake/fail.err"
check $? "$(diag "$fake/fail")"
args_fail="$(cat "$fake/args" 2>/dev/null)"

FAKE_HELM_ANSWER=manifest
previous_release "$fake/prev"
[[ $rc == 0 && "$(rollout "$fake/prev.err")" == "" && "$(counted "$fake/prev.err")" == "1 unchanged" ]]
check $? "$(diag "$fake/prev")"
args_manifest="$(cat "$fake/args" 2>/dev/null)"

want="$(printf '%s\n' get manifest --namespace=shop -- shop)"
[[ "$args_not_found" == "$want" && "$args_fail" == "$want" && "$args_manifest" == "$want" ]]
check $? "expected arguments (one a line):" "$want" "not found:" "$args_not_found" \
  "failure:" "$args_fail" "manifest:" "$args_manifest"

HELM_BIN="$fake/other/helm" previous_release "$fake/helm-bin"
which_helm="$(cat "$fake/which" 2>/dev/null)"
[[ $rc == 0 && "$which_helm" == "$fake/other/helm" ]]
check $? "$(diag "$fake/helm-bin")" "helm run: ${which_helm:-(none)}"

[[ $failed == 0 ]]
