#!/usr/bin/env bash
# The immutability preflight against a real API server (scripts/cluster.sh): for every
# case in testdata/preflight/ (an object before and after an upgrade, split at the line
# `#### after`), rollcall's prediction (`rollcall render --previous BEFORE` of AFTER:
# an immutable-field error, or none) must be the API server's answer to the same change
# (the object created with `kubectl apply`, then `kubectl apply --dry-run=server` of the
# new one: refused or accepted). One test point per case.
#
# A case listed in tests/cluster/preflight-disagreements.txt is a known disagreement: its
# point is TODO (it fails without failing the test) until rollcall is fixed, and passes
# the day it agrees. With ROLLCALL_PREFLIGHT_TABLE=FILE the script writes the table of
# docs/cluster.md ("The immutability preflight, case by case") to FILE.
#
# Usage: preflight.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP.
set -uo pipefail

# shellcheck source=SCRIPTDIR/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || { echo "Bail out! cannot read lib.sh"; exit 1; }
cluster_test_init "$@"
cases_dir="$root/testdata/preflight"
known="$root/tests/cluster/preflight-disagreements.txt"
table="${ROLLCALL_PREFLIGHT_TABLE:-}"

cases=()
for file in "$cases_dir"/*.yaml; do cases+=("$(basename "$file" .yaml)"); done
checks=("${cases[@]}")  # what skip_rest names, where the cluster cannot be built
echo "1..${#cases[@]}"

cluster_start
version="$(kc version -o json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])')"
tap_diag "API server $version"

claims_bound() {
  [[ "$(kc -n "$1" get pvc -o 'jsonpath={range .items[*]}{.status.phase}{"\n"}{end}' | sort -u)" == Bound ]]
}

# todo_reason CASE: why CASE is a known disagreement, or nothing.
todo_reason() { sed -n "s/^$1[[:space:]]\{1,\}//p" "$known" 2>/dev/null; }

# words FILE: what the API server said (kubectl's output in FILE) on one line, without
# kubectl's "Error from server" prefix, a long value shown as {…} or […]: the field and
# the verdict are what the table keeps.
words() {
  python3 - "$1" <<'PY'
import re, sys
text = " ".join(open(sys.argv[1], encoding="utf-8").read().split())
text = text.split(" @@ ")[0]  # the diff of the spec some messages add
text = re.sub(r"^Error from server \([A-Za-z]+\): (error when applying patch:.*?to: .*?: )?", "", text)
def shorten(m):
    value = m.group(2)
    return m.group(1) + (value if len(value) <= 40 else value[0] + "…" + value[-1])
text = re.sub(r"(Invalid value: )(\{.*?\}|\[.*?\])(?=: )", shorten, text)
print(text[:240] if ("invalid" in text or "Forbidden" in text) else "")
PY
}

[[ -n "$table" ]] && {
  echo "| case | rollcall | API server $version | the API server's words |"
  echo "|---|---|---|---|"
} >"$table"

for name in "${cases[@]}"; do
  file="$cases_dir/$name.yaml"
  awk '/^#### after$/ {exit} {print}' "$file" >"$tmp/before.yaml"
  awk 'after {print} /^#### after$/ {after=1}' "$file" >"$tmp/after.yaml"
  ns="$name"
  kc create namespace "$ns" >/dev/null 2>&1

  "$rollcall" render --previous "$tmp/before.yaml" --namespace "$ns" <"$tmp/after.yaml" \
    >"$tmp/render.out" 2>"$tmp/render.err"
  rc=$?
  if [[ $rc == 1 ]] && grep -q 'immutable-field' "$tmp/render.err"; then
    predicted=refused
  elif [[ $rc == 0 ]] && ! grep -q 'immutable-field' "$tmp/render.err"; then
    predicted=accepted
  else
    predicted="error (exit $rc)"
  fi

  kc apply -n "$ns" -f "$tmp/before.yaml" >"$tmp/create.out" 2>&1
  created=$?
  # A case that needs its claim bound first (by the controller manager's volume binder)
  # says so on a line of its own.
  if grep -q '^# wait: the claim bound$' "$file"; then
    eventually 60 claims_bound "$ns" || created=1
  fi
  kc apply -n "$ns" --dry-run=server -f "$tmp/after.yaml" >"$tmp/update.out" 2>&1
  sc=$?
  if ((created != 0)); then
    answer="could not create the object"
  elif ((sc == 0)); then
    answer=accepted
  else
    answer=refused
  fi
  said="$(words "$tmp/update.out")"

  reason="$(todo_reason "$name")"
  [[ "$predicted" == "$answer" ]]
  tap_result $? "$name: rollcall $predicted, the API server $answer" "$reason" \
    "$(sed -n '1p' "$file")" "rollcall (exit $rc): $(grep -m3 'immutable-field\|error' "$tmp/render.err")" \
    "kubectl apply: $(cat "$tmp/create.out")" "kubectl apply --dry-run=server (exit $sc): $(cat "$tmp/update.out")"
  if [[ -n "$table" ]]; then
    what="$(awk '/^# / && !/^# wait:/ {sub(/^# /, ""); printf "%s%s", sep, $0; sep=" "; next} !/^#/ {exit}' "$file")"
    echo "| \`$name\`: $what | $predicted | $answer | ${said:+\`\` $said \`\`} |" >>"$table"
  fi
done

[[ $failed == 0 ]]
