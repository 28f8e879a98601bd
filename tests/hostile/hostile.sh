#!/usr/bin/env bash
# Hostile input through the real binary: each case runs `rollcall render` (input on
# stdin) and `rollcall lint FILE`, and checks the exit code, the exact stderr, that
# nothing reached stdout, and the time taken. docs/robustness.md lists the cases and
# what rollcall does with each.
#
# Usage: hostile.sh ROLLCALL_BINARY SOURCE_ROOT
# Prints TAP. Inputs are generated into a temporary directory (the 100 MB ones are
# never committed). Each run must take under 2 s; under the sanitizers
# ($ROLLCALL_SANITIZED, set by tests/meson.build) under 20 s.
set -uo pipefail

rollcall="${1:?usage: hostile.sh ROLLCALL_BINARY SOURCE_ROOT}"
root="${2:?usage: hostile.sh ROLLCALL_BINARY SOURCE_ROOT}"
# shellcheck source=SCRIPTDIR/../lib/tap.sh
source "$root/tests/lib/tap.sh" || { echo "Bail out! cannot read $root/tests/lib/tap.sh"; exit 1; }

max_seconds=2
[[ -n "${ROLLCALL_SANITIZED:-}" ]] && max_seconds=20
# The cases that pipe 256 MiB to the input limit: moving that much is the host's work
# as much as rollcall's (0.85 s alone on a host slow to fault pages in, 2.5 s there
# beside the suite's other tests), and what they bound is that nothing parses it: a
# parse would take minutes, and the endless pipe never ends.
limit_seconds=$((max_seconds * 5))

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset HELM_NAMESPACE ROLLCALL_REPORT

# A Deployment that reads every key of ConfigMap "cm" and Secret "creds": makes the
# sources in the cases below ones that render must read and hash.
consumer='---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  template:
    spec:
      containers:
      - name: app
        envFrom:
        - configMapRef: {name: cm}
        - secretRef: {name: creds}
'

# run_case NAME EXIT STDERR WHAT COMMAND...: one test point, described by NAME and
# WHAT. COMMAND runs with stdin from $NAME.yaml; passes when it exits EXIT, prints
# exactly STDERR (a trailing newline added), nothing on stdout, within $max_seconds.
# With $want_out set, stdout must be exactly that instead (lint's report, which
# holds the input error as a finding among the others).
want_out=""
run_case() {
  local name="$1" want_exit="$2" want_err="$3" what="$4"
  shift 4
  local start end status elapsed problems=()
  start="$EPOCHREALTIME"
  "$@" <"$name.yaml" >"$name.out" 2>"$name.err"
  status=$?
  end="$EPOCHREALTIME"
  elapsed="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')"
  [[ "$status" == "$want_exit" ]] || problems+=("exit $status, expected $want_exit")
  [[ "$(cat "$name.err")" == "$want_err" ]] ||
    problems+=("stderr:" "$(head -c 2000 "$name.err")" "expected:" "$want_err")
  if [[ -n "$want_out" ]]; then
    [[ "$(cat "$name.out")" == "$want_out" ]] ||
      problems+=("stdout:" "$(head -c 2000 "$name.out")" "expected:" "$want_out")
  else
    [[ ! -s "$name.out" ]] || problems+=("stdout has $(wc -c <"$name.out") bytes, expected none")
  fi
  awk -v t="$elapsed" -v max="$max_seconds" 'BEGIN { exit !(t < max) }' ||
    problems+=("more than ${max_seconds}s")
  local on_stdout="nothing on stdout"
  [[ -n "$want_out" ]] && on_stdout="the input-error finding on stdout"
  tap_result "${#problems[@]}" \
    "$name: $what exits $want_exit with its message, $on_stdout, under ${max_seconds}s" \
    "" "${problems[@]}" "(took ${elapsed}s)"
}

# lint_case NAME EXIT LOCATION MESSAGE WHAT COMMAND...: run_case for lint, whose report
# on stdout holds the one input error as a finding at LOCATION (file:line:column).
lint_case() {
  local name="$1" want_exit="$2" location="$3" message="$4" what="$5"
  shift 5
  want_out="$location: error[input-error] $message; the other inputs were analysed without it
references: 0 — hashed 0, waived 0, pending 0, runtime 0, unresolved 0
1 error"
  run_case "$name" "$want_exit" "rollcall: error: $location: $message" "$what" "$@"
  want_out=""
}

# render_and_lint NAME EXIT MESSAGE LINE COLUMN: render and lint of $NAME.yaml both
# refuse it with MESSAGE at LINE:COLUMN of document 1.
render_and_lint() {
  local name="$1" want_exit="$2" message="$3" line="$4" column="$5"
  run_case "$name" "$want_exit" \
    "rollcall: error: <stdin> (document 1, line $line, column $column): $message" \
    render "$rollcall" render
  lint_case "$name" "$want_exit" "$name.yaml:$line:$column" "$message" \
    lint "$rollcall" lint "$name.yaml"
}

echo "1..50"

# --- nesting 100,000 levels deep ---------------------------------------------------
too_deep="nesting deeper than 512 levels; rollcall refuses to parse it"
{
  printf 'a: '
  head -c 100000 /dev/zero | tr '\0' '['
  head -c 100000 /dev/zero | tr '\0' ']'
  echo
} >deep-flow.yaml
render_and_lint deep-flow 2 "$too_deep" 1 515
# Block nesting 100,000 deep ("a:\n a:\n  a:\n…") takes 5 GB of indentation: read from
# a pipe, it is refused at the input size limit before anything parses it. The time
# includes the producer's: it writes 1 MiB at a time, so that most of it is rollcall's.
: >deep-block-stream.yaml
max_seconds="$limit_seconds" run_case deep-block-stream 2 \
  "rollcall: error: <stdin>: input is larger than the limit of 268435456 bytes (--max-input-bytes)" \
  "render from a pipe" bash -c "\"\$1\" -c \"\$2\" 2>/dev/null | \"\$0\" render" \
  "$rollcall" "$(command -v python3)" '
import sys
chunk, size = [], 0
for depth in range(100000):
    chunk.append(b" " * depth + b"a:\n")
    size += depth + 3
    if size >= 1 << 20:
        sys.stdout.buffer.write(b"".join(chunk))
        chunk, size = [], 0
sys.stdout.buffer.write(b"".join(chunk))
'
# … and 1,000 deep it fits, and is refused at level 513.
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "%" i "sa:\n", "" }' >deep-block.yaml
render_and_lint deep-block 2 "$too_deep" 513 513
# "- - - … x": 100,000 block sequences on one line.
{
  for ((i = 0; i < 1000; i++)); do printf -- '- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - '; done
  echo x
} >deep-compact.yaml
render_and_lint deep-compact 2 "$too_deep" 1 1023

# --- a 100 MB single scalar, in a ConfigMap a Deployment reads ----------------------
{
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  big: '
  head -c 104857600 /dev/zero | tr '\0' x
  echo
  printf '%s' "$consumer"
} >big-scalar.yaml
render_and_lint big-scalar 2 "this document is 104857666 bytes, over the limit of 8388608 bytes per document (--max-document-bytes; the Kubernetes API server takes at most 3 MiB per object)" 1 1

# --- one line of 200,000 quoted keys: linear, not quadratic --------------------------
# A JSON document on one line: finding each node's column from its line's start, and
# turning libyaml's character marks into byte offsets by starting over from the
# text's start, each went back over the whole line for every node (minutes). Ended
# by a value Kubernetes refuses, so that the run has a message to check.
python3 -c '
import sys
data = ", ".join("\"k%d\": \"v\"" % i for i in range(200000))
sys.stdout.write("{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"cm\"}, \"data\": {" + data + "}, \"z\": .nan}\n")
' >one-line.yaml
render_and_lint one-line 2 "a value that is .inf or .nan to YAML 1.1, which JSON cannot hold: Kubernetes refuses the document (json: unsupported value); quote it if it is text" 1 \
  "$(($(grep -bo '\.nan' one-line.yaml | cut -d: -f1) + 1))"

# --- input over the size limit -------------------------------------------------------
# An endless stream: read up to the limit, then refused.
: >endless.yaml
# shellcheck disable=SC2016  # $0 is expanded by the inner bash
max_seconds="$limit_seconds" run_case endless 2 \
  "rollcall: error: <stdin>: input is larger than the limit of 268435456 bytes (--max-input-bytes)" \
  "render from an endless pipe" bash -c 'yes "a: b" | "$0" render' "$rollcall"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {a: "%s"}\n' \
  "$(head -c 2000 /dev/zero | tr '\0' x)" >over-limit.yaml
run_case over-limit 2 \
  "rollcall: error: <stdin>: input is larger than the limit of 1000 bytes (--max-input-bytes)" \
  "render --max-input-bytes 1000" "$rollcall" render --max-input-bytes 1000
lint_case over-limit 2 over-limit.yaml \
  "input is larger than the limit of 1000 bytes (--max-input-bytes)" \
  "lint --max-input-bytes 1000" "$rollcall" lint --max-input-bytes 1000 over-limit.yaml

# --- a million and one empty documents: refused at the one past --max-documents -------
yes -- --- | head -n 1000001 >too-many-documents.yaml
render_and_lint_over() {
  local message='more than 1000000 documents (pieces between "---" lines) in one stream: refused, as each costs memory for the whole run; --max-documents raises the limit'
  run_case too-many-documents 2 \
    "rollcall: error: <stdin> (document 1000001, line 1000001, column 1): $message" \
    render "$rollcall" render
  lint_case too-many-documents 2 "too-many-documents.yaml:1000001:1" "$message" \
    lint "$rollcall" lint too-many-documents.yaml
}
render_and_lint_over

# --- NUL bytes and invalid UTF-8 -----------------------------------------------------
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  a: "x\0y"\n' >nul.yaml
render_and_lint nul 2 \
  "invalid YAML: this line holds a control character, which YAML does not allow (only tab, line feed and carriage return)" \
  5 3
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  "k\xa5": v\n%s' \
  "$consumer" >utf8.yaml
render_and_lint utf8 2 \
  "invalid UTF-8: this line holds a byte that is not part of a UTF-8 character" 5 3
# In a Secret's value: the message names no byte, the column is the key's.
printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData:\n  password: "hunter\xa52"\n%s' \
  "$consumer" >utf8-in-secret.yaml
render_and_lint utf8-in-secret 2 \
  "invalid UTF-8: this line holds a byte that is not part of a UTF-8 character" 5 3

# --- unterminated quotes and flow collections ----------------------------------------
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "cm\ndata: {a: b}\n' >open-quote.yaml
render_and_lint open-quote 2 \
  "invalid YAML: a double-quoted scalar opened here is never closed" 4 9
# … also after a tag or an anchor, which yaml-cpp ends at the quote (found by the
# render fuzzer), and flow nesting behind a tag.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  a: !t"x\n  b: c\n' \
  >open-quote-after-tag.yaml
render_and_lint open-quote-after-tag 2 \
  "invalid YAML: a double-quoted scalar opened here is never closed" 5 8
{
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  a: &x !t'
  head -c 100000 /dev/zero | tr '\0' '['
  head -c 100000 /dev/zero | tr '\0' ']'
  echo
} >deep-flow-after-tag.yaml
render_and_lint deep-flow-after-tag 2 "$too_deep" 5 521
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: [a, {b: c}\n' >open-flow.yaml
render_and_lint open-flow 2 "invalid YAML: did not find expected ',' or ']'; Kubernetes' YAML reader (go-yaml) refuses the document" 5 1

# --- tabs used as indentation --------------------------------------------------------
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: cm\n' >tabs.yaml
render_and_lint tabs 2 "invalid YAML: a tab indents this line; YAML indents with spaces only" 4 1

# --- a document that is only "," -----------------------------------------------------
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n---\n,\n' >comma.yaml
run_case comma 2 \
  "rollcall: error: <stdin> (document 2, line 5, column 1): invalid YAML: ',' outside a flow collection cannot start a value" \
  render "$rollcall" render
lint_case comma 2 comma.yaml:5:1 \
  "invalid YAML: ',' outside a flow collection cannot start a value" \
  lint "$rollcall" lint comma.yaml

# --- aliases that expand exponentially, in a ConfigMap a Deployment reads -----------
{
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n'
  printf '    l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n'
  for i in 1 2 3 4 5 6 7 8 9; do
    p="*l$((i - 1))"
    printf '    l%d: &l%d [%s, %s, %s, %s, %s, %s, %s, %s, %s, %s]\n' "$i" "$i" \
      "$p" "$p" "$p" "$p" "$p" "$p" "$p" "$p" "$p" "$p"
  done
  printf 'data: {a: b}\n%s' "$consumer"
} >laughs.yaml
render_and_lint laughs 2 \
  "invalid YAML: document contains excessive aliasing: go-yaml, which Kubernetes reads YAML with, refuses a document decoded mostly from alias expansions (past 99% of over 1,000 nodes, less for large documents)" \
  6 44
# One 600 KB value aliased 2,000 times is 1.2 GB to hash: the API server takes at most
# 1 MiB of values in a ConfigMap, and so does rollcall.
{
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  v0: &v '
  head -c 600000 /dev/zero | tr '\0' x
  echo
  for ((i = 1; i <= 2000; i++)); do printf '  v%d: *v\n' "$i"; done
  printf '%s' "$consumer"
} >amplified.yaml
render_and_lint amplified 2 \
  "ConfigMap default/cm: its values total more than 1048576 bytes, which the API server refuses in a ConfigMap" \
  1 1

# --- aliases that multiply references, document after document -------------------
# aliased_workload N: a Deployment whose 150 containers are aliases of one, whose 200
# env entries are aliases of one secretKeyRef: 30,000 references, within go-yaml's
# rule thanks to 3,000 annotations written out (it bounds each document on its own).
aliased_workload() {
  printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w%d\n  annotations:\n' "$1"
  printf '    a%d: b\n' $(seq 3000)
  printf 'spec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n'
  printf '    spec:\n      containers:\n        - &c\n          name: app\n          image: x\n'
  printf '          env:\n            - &e {name: P, valueFrom: {secretKeyRef: {name: s, key: p}}}\n'
  printf '            - *e\n%.0s' $(seq 199)
  printf '        - *c\n%.0s' $(seq 149)
}
# Twenty such documents were 600,000 references: 18 s and 126 MB of findings from
# render, 38 s and 3.5 GB from lint --format sarif. The stream's expansions are bounded
# together, so the fourth document is refused, the same one whatever the threads do.
for i in 1 2 3 4 5 6; do
  ((i > 1)) && echo ---
  aliased_workload "$i"
done >aliased-stream.yaml
aliased_message="invalid YAML: aliases expand the documents of this stream, up to this one, to more than 1000000 nodes past their text; rollcall bounds a whole stream's expansions (go-yaml, which Kubernetes reads YAML with, bounds each document's)"
run_case aliased-stream 2 \
  "rollcall: error: <stdin> (document 4, line 13111, column 61): $aliased_message" \
  render "$rollcall" render
lint_case aliased-stream 2 aliased-stream.yaml:13111:61 "$aliased_message" \
  lint "$rollcall" lint aliased-stream.yaml
# One of them is read: its 30,000 references are one finding, as they are one place.
aliased_workload 1 >aliased-one.yaml
want_out="aliased-one.yaml:3016:61: error[unresolved-reference] Deployment default/w1 reads secret/s[p] via env in container app, but Secret default/s is not in the input: nothing makes a change to it reach the process
references: 30000 — hashed 0, waived 0, pending 0, runtime 0, unresolved 30000
1 error"
run_case aliased-one 1 "" lint "$rollcall" lint aliased-one.yaml
want_out=""

# --- malformed base64 in a Secret: named, never shown --------------------------------
secret_value='TOPSECRET-hunter2-value!'
printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\ndata:\n  password: "%s"\n%s' \
  "$secret_value" "$consumer" >bad-base64.yaml
render_and_lint bad-base64 2 "Secret default/creds: data.password is not valid base64" 5 13
"$rollcall" render --report bad-base64.json <bad-base64.yaml >/dev/null 2>&1
leaks="$(grep -l -F -- "$secret_value" bad-base64.err bad-base64.out bad-base64.json 2>/dev/null)"
tap_result "$([[ -z "$leaks" && -s bad-base64.json ]]; echo $?)" \
  "bad-base64: the value appears in no message, output or --report file" "" \
  "found in: ${leaks:-(no report written)}"

# --- duplicate keys: rendered as Kubernetes reads them, the last one wins ------------
printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData:\n  password: first\n  password: second\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n%s' \
  "$consumer" >duplicate.yaml
sed -e '/password: first/d' duplicate.yaml >last-only.yaml
"$rollcall" render <duplicate.yaml >duplicate.out 2>duplicate.err
status=$?
"$rollcall" render <last-only.yaml >last-only.out 2>/dev/null
hash_of() { grep -o 'config-hash: "[^"]*"' "$1"; }
tap_result "$([[ $status == 0 && -n "$(hash_of duplicate.out)" &&
  "$(hash_of duplicate.out)" == "$(hash_of last-only.out)" ]]; echo $?)" \
  "duplicate: render exits 0 and hashes the last value, as the API server keeps it" "" \
  "exit $status" "$(hash_of duplicate.out) vs $(hash_of last-only.out)"
want='rollcall: <stdin>:6:3: error[duplicate-key] key "password" appears again in this mapping (first at line 5); Kubernetes applies the last one and silently drops the first'
tap_result "$(grep -qxF -- "$want" duplicate.err; echo $?)" \
  "duplicate: render reports it on stderr as a duplicate-key error" "" "$(cat duplicate.err)"
"$rollcall" lint duplicate.yaml >duplicate-lint.out 2>&1
status=$?
tap_result "$([[ $status == 1 ]] && grep -qF 'duplicate.yaml:6:3: error[duplicate-key] key "password" appears again' duplicate-lint.out; echo $?)" \
  "duplicate: lint exits 1 with the duplicate-key error" "" "exit $status" "$(cat duplicate-lint.out)"

# --- out of memory: a clear error, not an abort -----------------------------------
# A ConfigMap of 590,000 one-line entries (8.3 MB) under a 100 MiB address-space
# limit (`prlimit --as`, as `ulimit -v` sets it): a tree of it does not fit, the
# allocation fails, and rollcall says so. The sanitizers reserve terabytes of
# address space and cannot run under such a limit.
awk 'BEGIN { printf "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n";
  for (i = 0; i < 590000; i++) printf "  k%07d: v\n", i }' >out-of-memory.yaml
oom_error="rollcall: error: out of memory: the input needs more memory than the process may use (its memory or address-space limit); docs/performance.md gives what streams need"
for command in render lint; do
  if [[ -n "${ROLLCALL_SANITIZED:-}" ]]; then
    tap_skip "out-of-memory: $command under a 100 MiB address-space limit exits 2 with its message" \
      "the sanitizers' shadow memory needs more address space"
    continue
  fi
  args=(render)
  [[ $command == lint ]] && args=(lint -)
  run_case out-of-memory 2 "$oom_error" "$command under a 100 MiB address-space limit" \
    prlimit --as=$((100 * 1024 * 1024)) "$rollcall" "${args[@]}"
done

# What fits is read: 590,000 one-line entries again, in an object render neither
# edits nor reads (a custom resource), piped as Helm pipes it, under the same limit.
# Render copies it through without a tree, so it fits; standard input must ask for
# no more address space than it holds (a buffer reserved up to the 256 MiB input
# limit failed every input here).
awk 'BEGIN { printf "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n";
  for (i = 0; i < 590000; i++) printf "  k%07d: v\n", i }' >within-memory.yaml
if [[ -n "${ROLLCALL_SANITIZED:-}" ]]; then
  tap_skip "within-memory: render of 8.3 MB piped under a 100 MiB address-space limit" \
    "the sanitizers' shadow memory needs more address space"
else
  cat within-memory.yaml | prlimit --as=$((100 * 1024 * 1024)) "$rollcall" render \
    >within-memory.out 2>within-memory.err
  status=$?
  tap_result "$([[ $status == 0 ]] && cmp -s within-memory.yaml within-memory.out; echo $?)" \
    "within-memory: render of 8.3 MB piped under a 100 MiB address-space limit exits 0 and copies it through" \
    "" "exit $status" "$(head -c 2000 within-memory.err)"
fi

[[ $failed == 0 ]]
