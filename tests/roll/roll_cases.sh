#!/usr/bin/env bash
# The roll cases: `rollcall roll` on the fixtures in testdata/roll/, with exact stdout,
# stderr, exit code and kubectl calls, against a stand-in kubectl that replays recorded
# API responses (tests/roll/kubectl_standin.py); then the real kubectl checks every
# patch a plan holds, offline.
#
# Usage: roll_cases.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. Runs from SOURCE_ROOT, so the paths in the reports are relative to it.
#
# Each case is a directory testdata/roll/cases/<case>/ holding:
#   case            "key: value" lines: description, exit, arg (one per argument after
#                   `roll`, in order)
#   responses.json  what the stand-in kubectl answers (absent: no kubectl may run)
#   stdout          the exact expected stdout
#   stderr          the exact expected stderr (absent: stderr must be empty)
#   calls           the exact kubectl calls, one JSON argv a line (absent: none)
# and in `case` optionally `fed: FILE`: kubectl was fed FILE's exact bytes on stdin
# (kubectl apply --filename=-, with the manifest roll read and planned with).
#
# ROLLCALL_UPDATE_GOLDEN=1 rewrites stdout, stderr and calls from rollcall's current
# output. Read the diff before committing it.
set -uo pipefail
export LC_ALL=C.UTF-8

rollcall="${1:?usage: roll_cases.sh ROLLCALL_BINARY SOURCE_ROOT}"
root="${2:?usage: roll_cases.sh ROLLCALL_BINARY SOURCE_ROOT}"
rollcall="$(cd "$(dirname "$rollcall")" && pwd)/$(basename "$rollcall")"
cd "$root" || { echo "Bail out! cannot cd to $root"; exit 1; }
# shellcheck source=SCRIPTDIR/../lib/tap.sh
source "$PWD/tests/lib/tap.sh" || { echo "Bail out! cannot read $PWD/tests/lib/tap.sh"; exit 1; }
update="${ROLLCALL_UPDATE_GOLDEN:-}"
kubectl_real="${ROLLCALL_KUBECTL:-$PWD/.cache/kubectl/kubectl}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
unset HELM_NAMESPACE ROLLCALL_HMAC_KEY_FILE

field() { sed -n "s/^$2: //p" "$1/case"; }

cases=()
for dir in testdata/roll/cases/*/; do
  [[ -f "$dir/case" ]] && cases+=("$(basename "$dir")")
done
echo "1..$((${#cases[@]} + 4))"

# compare NAME EXPECTED ACTUAL: "" when equal (or rewritten), else a diff.
compare() {
  local name="$1" expected="$2" actual="$3"
  if [[ -n "$update" ]]; then
    if [[ -s "$actual" || "$name" == stdout ]]; then cp "$actual" "$expected"; else rm -f "$expected"; fi
    return
  fi
  if [[ -f "$expected" ]]; then
    diff -u "$expected" "$actual" | head -60 | sed "s/^/$name: /"
  elif [[ -s "$actual" ]]; then
    echo "$name: expected nothing, got:"
    head -20 "$actual"
  fi
}

for name in "${cases[@]}"; do
  dir="testdata/roll/cases/$name"
  out="$tmp/$name"
  mkdir -p "$out"
  args=()
  while IFS= read -r arg; do args+=("$arg"); done < <(field "$dir" arg)
  : >"$out/calls"
  rm -f "$out/calls.stdin"
  env KUBECTL="$PWD/tests/roll/kubectl_standin.py" ROLL_CALLS="$out/calls" \
    ROLL_RESPONSES="$PWD/$dir/responses.json" \
    "$rollcall" roll "${args[@]}" >"$out/stdout" 2>"$out/stderr" </dev/null
  status=$?
  problems="$(
    [[ "$status" == "$(field "$dir" exit)" ]] || echo "exit $status, expected $(field "$dir" exit)"
    compare stdout "$dir/stdout" "$out/stdout"
    compare stderr "$dir/stderr" "$out/stderr"
    compare calls "$dir/calls" "$out/calls"
    fed="$(field "$dir" fed)"
    if [[ -n "$fed" ]] && ! cmp -s "$fed" "$out/calls.stdin"; then
      echo "kubectl was not fed $fed's bytes"
    fi
  )"
  [[ -z "$problems" ]]
  tap_result $? "$name: $(field "$dir" description)" "" "$problems"
done

# Files roll reads that are not regular files: --apply and --state given a FIFO (no
# writer: a read would block), a symbolic link to one, and a directory. Each is refused,
# exit 2, nothing on stdout, no kubectl run, and nothing hangs.
mkfifo "$tmp/fifo.yaml" && ln -s "$tmp/fifo.yaml" "$tmp/link.yaml" && mkdir "$tmp/dir.yaml"
special=""
for path in "$tmp/fifo.yaml" "$tmp/link.yaml" "$tmp/dir.yaml"; do
  for args in "--apply $path -n shop" "--dry-run --state $path secret/shop-db -n shop"; do
    : >"$tmp/special.calls"
    # shellcheck disable=SC2086  # the words of $args, split on purpose (no space in $tmp's paths)
    timeout 20 env KUBECTL="$PWD/tests/roll/kubectl_standin.py" ROLL_CALLS="$tmp/special.calls" \
      ROLL_RESPONSES=/nonexistent "$rollcall" roll $args >"$tmp/special.out" 2>"$tmp/special.err"
    status=$?
    if [[ $status != 2 || -s "$tmp/special.out" || -s "$tmp/special.calls" ]]; then
      special+="roll $args: exit $status, stdout $(wc -c <"$tmp/special.out") bytes, calls: $(cat "$tmp/special.calls")"$'\n'
    fi
    grep -q "${path##*/}" "$tmp/special.err" || special+="roll $args: the error names no path: $(cat "$tmp/special.err")"$'\n'
  done
done
[[ -z "$special" ]]
tap_result $? "a FIFO, a link to one or a directory as --apply or --state: exit 2, nothing run, no hang" "" "$special"

# No value of any fixture's Secrets shows in any output, plain or base64, nor in a
# kubectl argument (the patches).
leaks="$(/usr/bin/python3 - "$tmp" testdata/roll <<'PY' 2>&1
import base64, glob, os, re, sys
tmp, fixtures = sys.argv[1:3]
values = set()
for path in glob.glob(f"{fixtures}/*/secret-*.yaml"):
    # The data mapping: the indented lines after "data:" (API server output puts it
    # first, a manifest last).
    data = re.search(r"^data:\n((?:  .*\n)*)", open(path).read(), re.M).group(1)
    for encoded in re.findall(r"^  [-._A-Za-z0-9]+: (\S+)$", data, re.M):
        values.update({encoded, base64.b64decode(encoded).decode()})
# Shorter ones ("shop", the username) are also names and words of the reports.
values = {value for value in values if len(value) >= 8}
if len(values) < 10:
    print(f"only {len(values)} values found in the fixtures")
for path in glob.glob(f"{tmp}/*/*"):
    if path.endswith(".stdin"):
        continue  # what kubectl apply is fed is the manifest itself
    text = open(path, errors="replace").read()
    for value in sorted(values):
        if value in text:
            print(f"{os.path.relpath(path, tmp)} holds a Secret value")
PY
)"
[[ -z "$leaks" ]]
tap_result $? "no Secret value in any report, message or kubectl argument" "" "$leaks"

# Real manifests no one here wrote (../shared/corpus/urbalurba, applied with kubectl
# apply, several reading a Secret urbalurba-secrets a separate command writes): given
# that Secret with every key they read, and MYSQL_PASSWORD changed, exactly mysql rolls.
corpus="${ROLLCALL_CORPUS:-$PWD/../shared/corpus}/urbalurba"
if [[ ! -d "$corpus" ]]; then
  tap_skip "urbalurba corpus: one key of the shared Secret changes, exactly its reader rolls" \
    "no corpus at $corpus"
else
  report="$(/usr/bin/python3 - "$tmp" "$rollcall" "$corpus" <<'PY' 2>&1
import base64, glob, json, subprocess, sys
tmp, rollcall, corpus = sys.argv[1:4]
state = []
for path in sorted(glob.glob(f"{corpus}/*.yaml")):
    state += ["--state", path]
uses = json.loads(subprocess.run([rollcall, "consumers", "--format", "json", "-n", "default",
                                  "urbalurba-secrets"] + sorted(glob.glob(f"{corpus}/*.yaml")),
                                 capture_output=True, text=True).stdout)["consumers"]
keys = sorted({use["reads"].split(" ", 1)[1] for use in uses if use["reads"].startswith("env ")})
def secret(path, changed):
    data = "".join(f"  {key}: {base64.b64encode((key.lower() + ('-2' if key == changed else '-1')).encode()).decode()}\n"
                   for key in keys)
    open(path, "w").write("apiVersion: v1\nkind: Secret\nmetadata:\n  name: urbalurba-secrets\n"
                          "  namespace: default\ndata:\n" + data)
secret(f"{tmp}/before.yaml", None)
secret(f"{tmp}/after.yaml", "MYSQL_PASSWORD")
got = subprocess.run([rollcall, "roll", "--dry-run", "--format", "json", "--state", f"{tmp}/before.yaml"]
                     + state + ["--apply", f"{tmp}/after.yaml"], capture_output=True, text=True)
plan = json.loads(got.stdout)
actions = sorted(f"{w['kind']}/{w['name']} {w['status']}" for w in plan["workloads"])
expected = ["Deployment/cloudflare-tunnel unchanged", "Deployment/mysql roll", "StatefulSet/mongodb unchanged"]
if len(keys) < 10 or actions != expected or got.returncode != 0:
    print(f"keys {keys}\nexit {got.returncode}: {got.stderr}\nactions {actions}")
PY
)"
  [[ -z "$report" ]]
  tap_result $? "urbalurba corpus: one key of the shared Secret changes, exactly its reader rolls" "" "$report"
fi

# The real kubectl applies every patch of two plans to its workload, offline: the
# shared-secret one (Deployments, StatefulSets, a DaemonSet: strategic-merge patches)
# and the ledger one (an Argo Rollout too: a merge patch). render of each patched
# workload beside the new Secret computes the hash the patch wrote: the next helm
# upgrade through rollcall rolls nothing again.
if [[ ! -x "$kubectl_real" ]]; then
  tap_skip "the real kubectl accepts every patch, and render agrees with its hash" \
    "no kubectl at $kubectl_real (scripts/fetch-helm.sh)"
else
  report="$(/usr/bin/python3 - "$tmp" "$kubectl_real" "$rollcall" <<'PY' 2>&1
import json, subprocess, sys
tmp, kubectl, rollcall = sys.argv[1:4]
plans = [  # (fixture, state files, namespace, patches expected)
    ("testdata/roll/shared-secret", ["cluster.yaml"], "default", 5),
    ("testdata/roll/ledger", ["cluster.yaml", "rollouts.yaml", "secret-before.yaml"], "ledger", 3),
]
problems = []
for fixture, states, namespace, expected in plans:
    args = [rollcall, "roll", "--dry-run", "--format", "json", "-n", namespace]
    for state in states:
        args += ["--state", f"{fixture}/{state}"]
    plan = json.loads(subprocess.run(args + ["--apply", f"{fixture}/secret-after.yaml"],
                                     capture_output=True, text=True, check=True).stdout)
    docs = []
    for state in states:
        docs += open(f"{fixture}/{state}").read().split("\n---\n")
    patched = 0
    for item in plan["workloads"]:
        if "patch" not in item:
            continue
        doc = next(d for d in docs if f"kind: {item['kind']}\n" in d and f"  name: {item['name']}\n" in d)
        path = f"{tmp}/{item['name']}.yaml"
        open(path, "w").write(doc)
        got = subprocess.run([kubectl, "patch", "--local", "-f", path, "--type", item["patch_type"],
                              "-p", json.dumps(item["patch"]), "-o", "yaml"], capture_output=True, text=True)
        if got.returncode != 0:
            problems.append(f"{item['name']}: kubectl patch --local failed: {got.stderr}")
            continue
        stream = open(f"{fixture}/secret-after.yaml").read() + "---\n" + got.stdout
        rendered = subprocess.run([rollcall, "render"], input=stream, capture_output=True, text=True)
        hashes = [l.split(": ", 1)[1].strip('"') for l in rendered.stdout.splitlines()
                  if "rollcall.dev/config-hash:" in l]
        if hashes != [item["hash_after"]]:
            problems.append(f"{item['name']}: render wrote {hashes}, the patch {item['hash_after']}")
        patched += 1
    if patched != expected:
        problems.append(f"{fixture}: {patched} patches checked, expected {expected}")
print("\n".join(problems))
PY
)"
  [[ -z "$report" ]]
  tap_result $? "the real kubectl accepts every patch, and render agrees with its hash" "" "$report"
fi
[[ $failed == 0 ]]
