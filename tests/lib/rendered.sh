# Readers of a rendered YAML stream, shared by the tests that drive rollcall through
# the real clients (tests/e2e/helm3_render.sh, helm4_render.sh, argocd_cmp.sh).
#
# Sourced after tests/lib/tap.sh and after `tap_python`, which sets $python and
# $TESTS_LIB: the stream is read by Kubernetes' own decoder ($K8SREAD, through
# tests/lib/k8s_json.py) as kubectl and Helm read it, independently of the yaml-cpp
# that rollcall uses.
# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # python is set by tap_python; hash_re is read by the tests

# The value of rollcall.dev/config-hash: a SHA-256 in lowercase hex.
hash_re='^sha256:[0-9a-f]{64}$'

# pod_templates FILE: one line per pod template in a rendered stream:
#   Kind/name <TAB> config-hash <TAB> config-sources   ("-" where absent)
pod_templates() {
  "$python" - "$1" <<'EOF'
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json

paths = {"CronJob": ("spec", "jobTemplate", "spec", "template"), "PodTemplate": ("template",)}
for doc in k8s_json.load_all(sys.argv[1]):
    if not isinstance(doc, dict) or "kind" not in doc:
        continue
    node = doc
    for key in paths.get(doc["kind"], ("spec", "template")):
        node = node.get(key) if isinstance(node, dict) else None
    if not isinstance(node, dict) or "spec" not in node:
        continue
    ann = (node.get("metadata") or {}).get("annotations") or {}
    print("%s/%s\t%s\t%s" % (doc["kind"], doc["metadata"]["name"],
                             ann.get("rollcall.dev/config-hash", "-"),
                             ann.get("rollcall.dev/config-sources", "-")))
EOF
}

# field FILE KIND/NAME COLUMN: the hash (2) or sources (3) of one pod template.
field() {
  pod_templates "$1" | awk -F '\t' -v w="$2" -v c="$3" '$1 == w { print $c; found = 1 }
    END { if (!found) print "(no pod template " w ")" }'
}

# objects FILE: the Kind/name of every object in a rendered stream, one a line, in order.
objects() {
  "$python" - "$1" <<'EOF'
import os, sys
sys.path.insert(0, os.environ["TESTS_LIB"])
import k8s_json

for doc in k8s_json.load_all(sys.argv[1]):
    if isinstance(doc, dict) and "kind" in doc:
        print("%s/%s" % (doc["kind"], doc["metadata"]["name"]))
EOF
}

# release_stream FILE: the objects of a release that `helm install|upgrade -o json`
# printed (with --dry-run), as one stream: the manifest, then each hook's manifest.
release_stream() {
  "$python" - "$1" <<'EOF'
import json, sys

with open(sys.argv[1], encoding="utf-8") as f:
    release = json.load(f)
parts = [release.get("manifest") or ""]
parts += [hook.get("manifest") or "" for hook in release.get("hooks") or []]
print("\n---\n".join(part.strip("\n") for part in parts))
EOF
}
