#!/usr/bin/env python3
"""Run `rollcall render` over every file of a corpus of real manifests; print TAP.

usage: corpus_check.py ROLLCALL CORPUS_DIR [--namespace NS] [--k8sread K8SREAD]

For each file, five test points:
  1. render exits 0 and writes a non-empty stream (warnings on stderr are fine);
  2. the output, read by Kubernetes' own decoder (tests/oracle/k8sread -documents,
     through tests/lib/k8s_json.py: YAML 1.1, as kubectl and Helm read it), equals the
     input read the same way once rollcall's two annotations are taken off the pod
     templates (and an `annotations`/`metadata` map they alone make up is dropped when
     the input did not have it);
  3. every consumer that reads a Secret or ConfigMap of the same file and namespace
     carries both annotations, with the sources that Python works out independently,
     and nothing else carries them (plain Jobs and bare Pods are never edited);
  4. the text diff from input to output only adds lines, and only annotation lines;
  5. rendering the output again gives the same bytes.

The point is a second opinion: nothing here shares code or a YAML parser with rollcall.
k8sread is --k8sread K8SREAD, else $K8SREAD (meson sets it).
"""

import concurrent.futures
import difflib
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import k8s_json  # noqa: E402  (tests/lib)

HASH = "rollcall.dev/config-hash"
SOURCES = "rollcall.dev/config-sources"
ROLLCALL_KEYS = (HASH, SOURCES)
HOOK_ANNOTATIONS = ("helm.sh/hook", "argocd.argoproj.io/hook")
HASH_RE = re.compile(r"sha256:[0-9a-f]{64}\Z")
# A line rollcall may add: an annotation, or the maps that hold them.
ADDED_LINE_RE = re.compile(
    r"\s*(metadata:|annotations:|"
    r"rollcall\.dev/config-(hash|sources): \"[^\"]*\")\s*\Z")

# (api group, kind) -> path from the object root to the pod template.
POD_TEMPLATE_PATHS = {
    ("apps", "Deployment"): ("spec", "template"),
    ("apps", "StatefulSet"): ("spec", "template"),
    ("apps", "DaemonSet"): ("spec", "template"),
    ("apps", "ReplicaSet"): ("spec", "template"),
    ("", "ReplicationController"): ("spec", "template"),
    ("batch", "Job"): ("spec", "template"),
    ("batch", "CronJob"): ("spec", "jobTemplate", "spec", "template"),
    ("", "PodTemplate"): ("template",),
    ("argoproj.io", "Rollout"): ("spec", "template"),
    ("", "Pod"): (),  # a bare Pod is its own template
}
CONTAINER_LISTS = ("initContainers", "containers", "ephemeralContainers")


def load_all(data, k8sread, name):
    """The documents of a stream held in memory, as Kubernetes reads them."""
    return k8s_json.load_all_bytes(data, k8sread, name)


def as_map(value):
    return value if isinstance(value, dict) else {}


def as_list(value):
    return value if isinstance(value, list) else []


def group_of(api_version):
    api_version = api_version if isinstance(api_version, str) else ""
    return api_version.split("/", 1)[0] if "/" in api_version else ""


class Obj:
    """What this check needs to know about one top-level document."""

    def __init__(self, index, doc, default_namespace):
        self.index = index
        self.doc = doc
        doc = as_map(doc)
        self.kind = doc.get("kind") if isinstance(doc.get("kind"), str) else ""
        self.group = group_of(doc.get("apiVersion"))
        meta = as_map(doc.get("metadata"))
        self.name = str(meta.get("name", ""))
        self.namespace = str(meta.get("namespace") or default_namespace)
        self.template_path = POD_TEMPLATE_PATHS.get((self.group, self.kind))

    def describe(self):
        return "document %d (%s %s/%s)" % (self.index + 1, self.kind, self.namespace, self.name)

    def pod_template(self):
        """The pod template map, or None for anything that is not a consumer."""
        if self.template_path is None:
            return None
        node = self.doc
        for key in self.template_path:
            node = node.get(key) if isinstance(node, dict) else None
        return node if isinstance(node, dict) else None

    def role(self):
        if self.kind == "Pod":
            return "pod"
        if self.kind == "Job":
            annotations = as_map(as_map(as_map(self.doc).get("metadata")).get("annotations"))
            return "hook-job" if any(h in annotations for h in HOOK_ANNOTATIONS) else "plain-job"
        return "workload"


def references(pod_template):
    """Yields (kind, name, keys) for each read of a Secret or ConfigMap; keys is None
    when the reference reads every key."""
    spec = as_map(pod_template.get("spec"))
    for list_name in CONTAINER_LISTS:
        for container in as_list(spec.get(list_name)):
            container = as_map(container)
            for env in as_list(container.get("env")):
                value_from = as_map(as_map(env).get("valueFrom"))
                for field, kind in (("secretKeyRef", "secret"), ("configMapKeyRef", "configmap")):
                    ref = value_from.get(field)
                    if isinstance(ref, dict) and ref.get("name"):
                        yield kind, str(ref["name"]), {str(ref.get("key", ""))}
            for env_from in as_list(container.get("envFrom")):
                env_from = as_map(env_from)
                for field, kind in (("secretRef", "secret"), ("configMapRef", "configmap")):
                    ref = env_from.get(field)
                    if isinstance(ref, dict) and ref.get("name"):
                        yield kind, str(ref["name"]), None

    def item_keys(source):
        items = source.get("items")
        if not isinstance(items, list):
            return None
        return {str(as_map(item).get("key", "")) for item in items}

    for volume in as_list(spec.get("volumes")):
        volume = as_map(volume)
        secret = volume.get("secret")
        if isinstance(secret, dict) and secret.get("secretName"):
            yield "secret", str(secret["secretName"]), item_keys(secret)
        config_map = volume.get("configMap")
        if isinstance(config_map, dict) and config_map.get("name"):
            yield "configmap", str(config_map["name"]), item_keys(config_map)
        for source in as_list(as_map(volume.get("projected")).get("sources")):
            source = as_map(source)
            for field, kind in (("secret", "secret"), ("configMap", "configmap")):
                ref = source.get(field)
                if isinstance(ref, dict) and ref.get("name"):
                    yield kind, str(ref["name"]), item_keys(ref)


def expected_sources(obj, present):
    """The config-sources text rollcall should write, or None when nothing resolves."""
    read = {}  # (kind, name) -> set of keys, or None for all keys
    for kind, name, keys in references(obj.pod_template()):
        if (kind, obj.namespace, name) not in present:
            continue
        slot = (kind, name)
        if slot in read and read[slot] is None:
            continue
        read[slot] = None if keys is None else read.get(slot, set()) | keys
    if not read:
        return None
    parts = []
    for (kind, name), keys in sorted(read.items()):
        parts.append("%s/%s" % (kind, name) + ("" if keys is None else "[%s]" % ",".join(sorted(keys))))
    return ", ".join(parts)


def present_sources(objs):
    present = set()
    for obj in objs:
        if obj.group == "" and obj.kind in ("Secret", "ConfigMap"):
            present.add((obj.kind.lower(), obj.namespace, obj.name))
    return present


def strip_rollcall(out_obj, in_obj):
    """Takes rollcall's annotations off out_obj's pod template (in place); drops an
    `annotations` or `metadata` map left empty if the input did not have one."""
    template = out_obj.pod_template()
    if template is None:
        return
    in_template = as_map(in_obj.pod_template()) if in_obj is not None else {}
    meta = template.get("metadata")
    if not isinstance(meta, dict):
        return
    annotations = meta.get("annotations")
    if not isinstance(annotations, dict):
        return
    for key in ROLLCALL_KEYS:
        annotations.pop(key, None)
    in_meta = in_template.get("metadata")
    if not annotations:
        in_annotations = as_map(in_meta).get("annotations", KeyError) if isinstance(in_meta, dict) else KeyError
        if in_annotations is KeyError:
            del meta["annotations"]
        elif in_annotations is None:
            meta["annotations"] = None
    if not meta and "metadata" not in in_template:
        del template["metadata"]
    elif not meta and in_meta is None:
        template["metadata"] = None


def strip_input(in_obj):
    """An input may carry annotations from an earlier run: they are not compared."""
    template = in_obj.pod_template()
    annotations = as_map(as_map(template).get("metadata")).get("annotations") if template else None
    if isinstance(annotations, dict):
        for key in ROLLCALL_KEYS:
            annotations.pop(key, None)


def run(rollcall, data, namespace):
    env = dict(os.environ)
    env.pop("HELM_NAMESPACE", None)
    args = [rollcall, "render"] + (["--namespace", namespace] if namespace else [])
    proc = subprocess.run(args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=env, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace")


def added_lines_only(before, after):
    """Problems in the line diff from before to after: removed or changed lines, and
    added lines that are not annotation lines."""
    a = before.splitlines(keepends=True)
    b = after.splitlines(keepends=True)
    problems = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag in ("replace", "delete"):
            for k in range(i1, i2):
                problems.append("line %d removed or changed: %r" % (k + 1, a[k].rstrip("\r\n")))
            for k in range(j1, j2):
                problems.append("  output line %d: %r" % (k + 1, b[k].rstrip("\r\n")))
            continue
        for k in range(j1, j2):
            if not ADDED_LINE_RE.match(b[k].rstrip("\r\n")):
                problems.append("output line %d added but not an annotation: %r"
                                % (k + 1, b[k].rstrip("\r\n")))
    return problems


def check_file(rollcall, k8sread, path, namespace):
    """Returns (list of (ok, description, diagnostics)), consumers annotated."""
    name = os.path.basename(path)
    default_namespace = namespace or "default"
    with open(path, "rb") as f:
        data = f.read()
    points = []

    code, out, err = run(rollcall, data, namespace)
    rendered = code == 0 and (len(out) > 0 or len(data.strip()) == 0)
    diag = [] if rendered else ["exit %d, %d bytes on stdout" % (code, len(out))] + err.splitlines()[:20]
    points.append((rendered, "%s: render exits 0" % name, diag))
    if not rendered:
        for what in ("same objects apart from the annotations", "every consumer annotated",
                     "diff only adds annotation lines", "render of the output changes nothing"):
            points.append((False, "%s: %s" % (name, what), ["render failed"]))
        return points, 0

    # 2. Objects: the output minus rollcall's annotations is the input.
    diag = []
    try:
        in_docs = load_all(data, k8sread, "the input")
        out_docs = load_all(out, k8sread, "the output")
    except k8s_json.K8sReadError as e:
        in_docs = out_docs = None
        diag.append("Kubernetes cannot read %s" % e)
    annotated = 0
    sources_diag = []
    if in_docs is not None:
        in_objs = [Obj(i, d, default_namespace) for i, d in enumerate(in_docs)]
        out_objs = [Obj(i, d, default_namespace) for i, d in enumerate(out_docs)]
        if len(in_objs) != len(out_objs):
            diag.append("%d documents in, %d out" % (len(in_objs), len(out_objs)))
        present = present_sources(in_objs)

        # 3. Annotations where Python expects them, with the right sources.
        for in_obj, out_obj in zip(in_objs, out_objs):
            template = out_obj.pod_template()
            got = as_map(as_map(as_map(template).get("metadata")).get("annotations")) if template else {}
            got_hash, got_sources = got.get(HASH), got.get(SOURCES)
            role = in_obj.role() if in_obj.pod_template() is not None else None
            if role in ("workload", "hook-job"):
                want = expected_sources(in_obj, present)
                if want is None:
                    if got_hash is not None or got_sources is not None:
                        sources_diag.append("%s reads no source in the file but has %s=%r"
                                            % (out_obj.describe(), SOURCES, got_sources))
                    continue
                if not (isinstance(got_hash, str) and HASH_RE.match(got_hash)):
                    sources_diag.append("%s: %s is %r, want sha256:<64 hex>"
                                        % (out_obj.describe(), HASH, got_hash))
                if got_sources != want:
                    sources_diag.append("%s: %s is %r, want %r"
                                        % (out_obj.describe(), SOURCES, got_sources, want))
                if got_hash is not None and got_sources == want:
                    annotated += 1
            elif role in ("plain-job", "pod"):
                in_template = in_obj.pod_template()
                in_ann = as_map(as_map(in_template.get("metadata")).get("annotations"))
                if got.get(HASH) != in_ann.get(HASH) or got.get(SOURCES) != in_ann.get(SOURCES):
                    sources_diag.append("%s is a %s and must be left unchanged, but its "
                                        "annotations changed" % (out_obj.describe(), role))

        for in_obj, out_obj in zip(in_objs, out_objs):
            strip_input(in_obj)
            strip_rollcall(out_obj, in_obj)
            if in_obj.doc != out_obj.doc:
                diag.append("%s differs from the input beyond rollcall's annotations"
                            % out_obj.describe())
                diag.extend(object_diff(in_obj.doc, out_obj.doc)[:10])
    points.append((not diag, "%s: same objects apart from the annotations" % name, diag))
    points.append((in_docs is not None and not sources_diag,
                   "%s: every consumer annotated" % name, sources_diag[:20]))

    # 4. Text: only added lines, and only annotation lines.
    try:
        problems = added_lines_only(data.decode("utf-8"), out.decode("utf-8"))
    except UnicodeDecodeError as e:
        problems = ["not UTF-8: %s" % e]
    points.append((not problems, "%s: diff only adds annotation lines" % name, problems[:20]))

    # 5. Idempotence.
    code2, out2, err2 = run(rollcall, out, namespace)
    diag = []
    if code2 != 0:
        diag = ["second render exits %d" % code2] + err2.splitlines()[:10]
    elif out2 != out:
        diag = ["second render changed the output:"] + [
            line.rstrip("\r\n") for line in difflib.unified_diff(
                out.decode("utf-8", "replace").splitlines(),
                out2.decode("utf-8", "replace").splitlines(), "first", "second", lineterm="", n=1)][:20]
    points.append((not diag, "%s: render of the output changes nothing" % name, diag))
    return points, annotated


def object_diff(a, b, path="$"):
    """Short descriptions of where two documents (as read from YAML) differ."""
    if type(a) is not type(b):
        return ["%s: %s != %s" % (path, short(a), short(b))]
    if isinstance(a, dict):
        out = []
        for key in list(a) + [k for k in b if k not in a]:
            if key not in b:
                out.append("%s.%s: missing in output" % (path, key))
            elif key not in a:
                out.append("%s.%s: added in output: %s" % (path, key, short(b[key])))
            else:
                out.extend(object_diff(a[key], b[key], "%s.%s" % (path, key)))
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return ["%s: %d items in, %d out" % (path, len(a), len(b))]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out.extend(object_diff(x, y, "%s[%d]" % (path, i)))
        return out
    return [] if a == b else ["%s: %s != %s" % (path, short(a), short(b))]


def short(value):
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def main(argv):
    namespace = None
    k8sread = os.environ.get("K8SREAD", "")
    args = []
    it = iter(argv[1:])
    for arg in it:
        if arg == "--namespace":
            namespace = next(it, None)
        elif arg.startswith("--namespace="):
            namespace = arg.split("=", 1)[1]
        elif arg == "--k8sread":
            k8sread = next(it, "")
        elif arg.startswith("--k8sread="):
            k8sread = arg.split("=", 1)[1]
        else:
            args.append(arg)
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rollcall, corpus = args
    if not os.path.isdir(corpus):
        print("1..0 # SKIP corpus directory not found: %s" % corpus)
        return 0
    files = sorted(os.path.join(corpus, f) for f in os.listdir(corpus)
                   if f.endswith((".yaml", ".yml", ".json"))
                   and os.path.isfile(os.path.join(corpus, f)))
    if not files:
        print("1..0 # SKIP no manifests in %s" % corpus)
        return 0

    if not (k8sread and os.access(k8sread, os.X_OK)):
        print("Bail out! k8sread %r is not an executable: give --k8sread or $K8SREAD, "
              "tests/oracle/k8sread in the build directory (building it needs Go 1.19)"
              % k8sread)
        return 1

    print("TAP version 13")
    print("1..%d" % (5 * len(files)))
    sys.stdout.flush()
    workers = min(len(files), max(2, os.cpu_count() or 2))
    number = 0
    failed = 0
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(check_file, rollcall, k8sread, path, namespace) for path in files]
        for path, future in zip(files, futures):
            try:
                points, annotated = future.result()
            except Exception as e:  # a crash in the check itself is a failure, not a skip
                points = [(False, "%s: check crashed" % os.path.basename(path), [repr(e)])] * 5
                annotated = 0
            print("# %s: %d consumers annotated" % (os.path.basename(path), annotated))
            for ok, description, diag in points:
                number += 1
                failed += not ok
                print("%s %d - %s" % ("ok" if ok else "not ok", number, description))
                for line in diag:
                    print("#   %s" % line)
            sys.stdout.flush()
    print("# %d of %d checks failed" % (failed, number))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
