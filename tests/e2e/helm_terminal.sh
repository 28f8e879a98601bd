#!/usr/bin/env bash
# End-to-end test: findings on the terminal when Helm hides them (src/cli/helm_terminal.h).
# Helm 3 shows a post-renderer's stderr only when it fails and Helm 4 never shows a
# plugin's; render run by Helm with no --report writes its lines to the controlling
# terminal too. Each command runs under util-linux `script`, which gives it a terminal
# of its own and keeps what reached it.
#
# Usage: helm_terminal.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. Helm 3 and Helm 4 come from SOURCE_ROOT/.cache/helm (scripts/fetch-helm.sh);
# without them (or without `script`) the points are skipped.
set -uo pipefail

usage="usage: helm_terminal.sh ROLLCALL_BINARY SOURCE_ROOT"
rollcall="${1:?$usage}"
root="${2:?$usage}"
rollcall="$(cd "$(dirname "$rollcall")" && pwd)/$(basename "$rollcall")"
root="$(cd "$root" && pwd)"
# shellcheck source=SCRIPTDIR/../lib/tap.sh
source "$root/tests/lib/tap.sh" || { echo "Bail out! cannot read $root/tests/lib/tap.sh"; exit 1; }
# shellcheck source=SCRIPTDIR/../lib/helm.sh
source "$root/tests/lib/helm.sh" || { echo "Bail out! cannot read $root/tests/lib/helm.sh"; exit 1; }
helm3="${ROLLCALL_HELM3:-$root/.cache/helm/v3/helm}"
helm4="${ROLLCALL_HELM4:-$root/.cache/helm/v4/helm}"

checks=(
  "Helm 3 --post-renderer on charts/hook-sources (its Secret and ConfigMap are hooks Helm 3 keeps from rollcall): exit 0, and the terminal shows both unresolved references, the summary and the note that Helm 3 passes no hooks"
  "Helm 3 --post-renderer on charts/webapp (no finding): nothing from rollcall on the terminal"
  "Helm 3 --post-renderer --fail-on=error on charts/edge-gateway: helm fails showing rollcall's lines once, not twice"
  "Helm 3 --post-renderer with --report FILE: nothing from rollcall on the terminal, the findings in FILE"
  "Helm 4 --post-renderer rollcall (the plugin) with a key the Secret lacks: the missing-key finding and 'nothing written' on the terminal, before Helm's 'exited with error'"
  "Helm 4 plugin with a mistyped option: rollcall's usage error on the terminal"
  "the pipe, helm template | rollcall render 2>/dev/null, in a terminal: nothing from rollcall there (Helm is not its parent)"
  "Helm 3 --post-renderer with no terminal at all (setsid): exit 0, the same manifest, nothing said"
)
echo "1..${#checks[@]}"
if [[ ! -x "$helm3" ]] || ! command -v script >/dev/null 2>&1; then
  skip_rest "Helm 3 ($helm3) or util-linux script not found"
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
helm_sandbox "$tmp"
mkdir -p "$tmp/bin" "$tmp/plugins4"
ln -s "$rollcall" "$tmp/bin/rollcall"
ln -s "$helm3" "$tmp/bin/helm3"
[[ -x "$helm4" ]] && ln -s "$helm4" "$tmp/bin/helm4"
ln -s "$root/integrations/helm-plugin" "$tmp/plugins4/rollcall"
export PATH="$tmp/bin:$PATH"

# on_terminal OUT COMMAND: runs COMMAND (a bash command line) with a terminal of its
# own; what reached the terminal, carriage returns dropped, goes to OUT; returns the
# command's exit status.
on_terminal() {
  local out="$1"
  script -qec "$2" "$tmp/typescript" >/dev/null 2>&1
  local status=$?
  tr -d '\r' <"$tmp/typescript" | sed '/^Script \(started\|done\)/d' >"$out"
  return $status
}

# 1
on_terminal "$tmp/1.txt" "helm3 template demo '$root/charts/hook-sources' --post-renderer rollcall >/dev/null"
status=$?
[[ $status == 0 && "$(grep -c '^rollcall: .*error\[unresolved-reference\]' "$tmp/1.txt")" == 2 ]] &&
  grep -q '^rollcall: references: 2 — hashed 0, waived 0, pending 0, runtime 0, unresolved 2$' "$tmp/1.txt" &&
  grep -q '^rollcall: note: Helm 3 gives a post-renderer no hooks: .*helm3-hook-source)$' "$tmp/1.txt"
check $? "exit $status; the terminal:" "$(cat "$tmp/1.txt")"

# 2
on_terminal "$tmp/2.txt" "helm3 template demo '$root/charts/webapp' --post-renderer rollcall >/dev/null"
status=$?
[[ $status == 0 ]] && ! grep -q 'rollcall' "$tmp/2.txt"
check $? "exit $status; the terminal:" "$(cat "$tmp/2.txt")"

# 3
on_terminal "$tmp/3.txt" "helm3 template demo '$root/charts/edge-gateway' --post-renderer rollcall --post-renderer-args=--fail-on=error >/dev/null"
status=$?
[[ $status != 0 && "$(grep -c 'error\[unresolved-reference\].*tls.crt' "$tmp/3.txt")" == 1 ]] &&
  grep -q 'error while running post render' "$tmp/3.txt"
check $? "exit $status; the terminal:" "$(cat "$tmp/3.txt")"

# 4
on_terminal "$tmp/4.txt" "helm3 template demo '$root/charts/edge-gateway' --post-renderer rollcall --post-renderer-args=--report='$tmp/4.json' >/dev/null"
status=$?
[[ $status == 0 ]] && ! grep -q 'rollcall' "$tmp/4.txt" && grep -q '"rule": "unresolved-reference"' "$tmp/4.json"
check $? "exit $status; the terminal:" "$(cat "$tmp/4.txt")"

# 5, 6
if [[ -x "$helm4" ]]; then
  on_terminal "$tmp/5.txt" "HELM_PLUGINS='$tmp/plugins4' helm4 template demo '$root/charts/hook-sources' --set db.passwordKey=nope --post-renderer rollcall >/dev/null"
  status=$?
  [[ $status != 0 ]] &&
    grep -q '^rollcall: .*error\[missing-key\] Secret default/demo-db has no key "nope"' "$tmp/5.txt" &&
    grep -q '^rollcall: error: findings that would fail the deploy (missing-key); nothing written$' "$tmp/5.txt" &&
    grep -q 'plugin "rollcall" exited with error' "$tmp/5.txt" &&
    [[ "$(grep -n 'nothing written' "$tmp/5.txt" | cut -d: -f1)" -lt "$(grep -n 'exited with error' "$tmp/5.txt" | cut -d: -f1)" ]]
  check $? "exit $status; the terminal:" "$(cat "$tmp/5.txt")"
  on_terminal "$tmp/6.txt" "HELM_PLUGINS='$tmp/plugins4' helm4 template demo '$root/charts/webapp' --post-renderer rollcall --post-renderer-args=--no-such-flag >/dev/null"
  status=$?
  [[ $status != 0 ]] &&
    grep -q '^rollcall: error: unknown option --no-such-flag (see rollcall render --help)$' "$tmp/6.txt"
  check $? "exit $status; the terminal:" "$(cat "$tmp/6.txt")"
else
  skip "Helm 4 not found at $helm4"
  skip "Helm 4 not found at $helm4"
fi

# 7
on_terminal "$tmp/7.txt" "helm3 template demo '$root/charts/edge-gateway' | rollcall render >/dev/null 2>/dev/null"
status=$?
[[ $status == 0 ]] && ! grep -q 'rollcall' "$tmp/7.txt"
check $? "exit $status; the terminal:" "$(cat "$tmp/7.txt")"

# 8
helm3 template demo "$root/charts/edge-gateway" | rollcall render >"$tmp/8-pipe.yaml" 2>/dev/null
setsid -w helm3 template demo "$root/charts/edge-gateway" --post-renderer rollcall \
  >"$tmp/8.yaml" 2>"$tmp/8.err" </dev/null
status=$?
[[ $status == 0 && ! -s "$tmp/8.err" ]] && cmp -s "$tmp/8.yaml" "$tmp/8-pipe.yaml"
check $? "exit $status; stderr:" "$(cat "$tmp/8.err")" "$(diff "$tmp/8-pipe.yaml" "$tmp/8.yaml" | head)"

[[ $failed == 0 ]]
