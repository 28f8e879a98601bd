#!/usr/bin/env python3
"""The oracle's comparison (docs/yaml.md, "The oracle").

Reads every input with rollcall's reader (rollcall_reading, rollcall's own pipeline)
and with Kubernetes' (k8sread: sigs.k8s.io/yaml over go-yaml v2, streams split as
apimachinery splits them), one process per reader for all inputs, and prints each
disagreement: the input, the object, what differs. Then checks render's output: the
Kubernetes reading of `rollcall render`'s output must be the reading of its input
plus rollcall's annotations and Job renames.

Disagreements listed in tests/oracle/known-disagreements.txt are expected; the run
fails on any other, and on any listed one that no longer occurs, so that the list
only shrinks as rollcall's reading is fixed.

  compare.py --source-root DIR --rollcall BIN --rollcall-reading BIN --k8sread BIN
             --known FILE [--helm HELM] [--write-known] [FILE...]

With FILEs, only those are read and every disagreement is printed (nothing is
checked against the known list).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

# rollcall.dev/ annotations render writes (docs/render.md, docs/jobs.md).
RENDER_ANNOTATIONS = {"rollcall.dev/config-hash", "rollcall.dev/config-sources",
                      "rollcall.dev/job-name"}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--rollcall", required=True)
    parser.add_argument("--rollcall-reading", required=True)
    parser.add_argument("--k8sread")
    parser.add_argument("--known")
    parser.add_argument("--helm")
    parser.add_argument("--write-known", action="store_true",
                        help="rewrite the known list with today's disagreements (reasons kept)")
    parser.add_argument("--no-render", action="store_true", help="skip the check of render")
    parser.add_argument("files", nargs="*")
    return parser.parse_args()


def yaml_files(root, skip_dirs=()):
    out = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skip_dirs)
        if "Chart.yaml" in files:  # a chart: rendered, not read as manifests
            dirs[:] = []
            continue
        for name in sorted(files):
            if name.endswith((".yaml", ".yml")) and not name.startswith((".rollcall", "values")):
                out.append(os.path.join(directory, name))
    return out


def collect_inputs(args, tmp):
    """(name shown, path, gating) for every input."""
    root = args.source_root
    inputs = []

    def add(path, gating=True):
        inputs.append((os.path.relpath(path, root), path, gating))

    testdata = os.path.join(root, "testdata")
    for path in yaml_files(testdata, skip_dirs=("krm",)):
        if os.path.basename(path) != "expected.yaml":
            add(path)
    for path in yaml_files(os.path.join(root, "tests", "oracle", "cases")):
        add(path)
    # What the differential fuzzing run found (tests/oracle/difffuzz.py), shrunk.
    for path in yaml_files(os.path.join(root, "tests", "oracle", "regressions")):
        add(path)
    for path in sorted(os.listdir(os.path.join(root, "fuzz", "regressions"))):
        folder = os.path.join(root, "fuzz", "regressions", path)
        for name in sorted(os.listdir(folder)):
            add(os.path.join(folder, name))
    corpus = os.path.join(root, "..", "shared", "corpus")
    if os.path.isdir(corpus):
        for path in yaml_files(corpus):
            add(path)
    else:
        print(f"# no corpus at {corpus}: not compared")
    # Charts, rendered with Helm 3 as `helm template` prints them.
    charts = os.path.join(root, "charts")
    if args.helm and os.access(args.helm, os.X_OK):
        for name in sorted(os.listdir(charts)):
            chart = os.path.join(charts, name)
            if not os.path.exists(os.path.join(chart, "Chart.yaml")):
                continue
            rendered = os.path.join(tmp, f"chart-{name}.yaml")
            with open(rendered, "wb") as out:
                subprocess.run([args.helm, "template", name, chart, "--namespace", "demo"],
                               stdout=out, check=True)
            inputs.append((f"charts/{name} (helm template)", rendered, True))
    else:
        print(f"# no Helm at {args.helm} (scripts/fetch-helm.sh): charts/ not compared")
    # The fuzzers' corpora (scripts/fuzz.sh) change with every fuzzing run: their
    # disagreements are shown, never checked against the known list.
    fuzz = os.path.join(root, "build-fuzz", "work", "corpus")
    if os.path.isdir(fuzz):
        for target in sorted(os.listdir(fuzz)):
            folder = os.path.join(fuzz, target)
            for name in sorted(os.listdir(folder)):
                add(os.path.join(folder, name), gating=False)
    return inputs


def read_all(command, paths):
    """Runs a reader once over all paths: {path: [record, ...]}."""
    result = subprocess.run(command, input="\n".join(paths) + "\n", capture_output=True,
                            text=True, encoding="utf-8", errors="replace")
    if result.returncode != 0:
        sys.exit(f"{command[0]} failed (exit {result.returncode}): {result.stderr[-2000:]}")
    out = collections.defaultdict(list)
    for line in result.stdout.split("\n"):
        if not line:
            continue
        record = json.loads(line)
        out[record.pop("file")].append(record)
    return out


def show(text):
    return json.dumps(text, ensure_ascii=True)


def describe_ref(r):
    keys = "*" if r["keys"] is None else ",".join(show(k) for k in r["keys"])
    where = f"container {show(r['container'])}" if r["container"] else f"volume {show(r['volume'])}"
    return (f"{r['object']} reads {r['source']}[{keys}] via {r['via']} in {where}, "
            f"optional={str(r['optional']).lower()}")


def describe_object(o):
    return f"{o['apiVersion']} {o['kind']} {o['namespace']}/{o['name']}"


def split(records):
    by_type = collections.defaultdict(list)
    for record in records:
        by_type[record["type"]].append(record)
    return by_type


def multiset_diff(left, right, describe):
    a = collections.Counter(describe(x) for x in left)
    b = collections.Counter(describe(x) for x in right)
    return sorted((a - b).elements()), sorted((b - a).elements())


def compare_readings(ours, theirs):
    """Disagreements between rollcall's reading (ours) and Kubernetes' (theirs)."""
    out = []
    ours, theirs = split(ours), split(theirs)
    if ours["error"] and theirs["error"]:
        return out  # both refuse the stream; the wording is not compared
    if ours["error"]:
        return ["rollcall refuses the stream; Kubernetes reads it"]
    refused = set()
    for error in theirs["error"]:
        obj = error.get("object")
        refused.add(obj)
        out.append(f"Kubernetes refuses {obj or 'a document'}: {error['message']}; rollcall reads it")
    if theirs["error"] and None in refused:
        return out  # a document Kubernetes cannot decode: nothing else is comparable

    def kept(records, key):
        return [r for r in records if r.get(key) not in refused]

    # An object Kubernetes refuses is left out of both readings (another object of the
    # same kind and name included), so that only the refusal is shown.
    def unrefused(objects):
        return [o for o in objects if f"{o['kind']} {o['namespace']}/{o['name']}" not in refused]

    only_ours, only_theirs = multiset_diff(unrefused(ours["object"]), unrefused(theirs["object"]),
                                           describe_object)
    out += [f"only rollcall reads object {x}" for x in only_ours]
    out += [f"only Kubernetes reads object {x}" for x in only_theirs]
    only_ours, only_theirs = multiset_diff(kept(ours["ref"], "object"), kept(theirs["ref"], "object"),
                                           describe_ref)
    out += [f"only rollcall: {x}" for x in only_ours]
    out += [f"only Kubernetes: {x}" for x in only_theirs]
    a = {(e["source"], e["key"]): e["sha256"] for e in kept(ours["entry"], "source")}
    b = {(e["source"], e["key"]): e["sha256"] for e in theirs["entry"]}
    for source, key in sorted(set(a) | set(b)):
        name = f"{source}[{show(key)}]"
        if (source, key) not in b:
            out.append(f"only rollcall reads key {name}")
        elif (source, key) not in a:
            out.append(f"only Kubernetes reads key {name}")
        elif a[(source, key)] != b[(source, key)]:
            out.append(f"value of {name} differs")
    return out


def compare_render(before, after):
    """Disagreements between Kubernetes' reading of an input and of render's output."""
    before, after = split(before), split(after)
    if after["error"]:
        return [f"Kubernetes refuses render's output: {e['message']}" for e in after["error"]]
    # Jobs renamed by render carry their old name in rollcall.dev/job-name.
    renamed = {}
    for a in after["annotation"]:
        if a["key"] == "rollcall.dev/job-name" and a["where"] == "metadata":
            kind, rest = a["object"].split(" ", 1)
            name_space = rest.split("/", 1)[0]
            renamed[a["object"]] = f"{kind} {name_space}/{a['value']}"

    def undo(record):
        record = dict(record)
        for field in ("object",):
            if record.get(field) in renamed:
                record[field] = renamed[record[field]]
        if record["type"] == "object":
            id_ = f"{record['kind']} {record['namespace']}/{record['name']}"
            if id_ in renamed:
                record["name"] = renamed[id_].split("/", 1)[1]
        return json.dumps(record, sort_keys=True)

    def comparable(records):
        return [r for r in records
                if not (r["type"] == "annotation" and r["key"] in RENDER_ANNOTATIONS)]

    a = collections.Counter(json.dumps(r, sort_keys=True) for r in comparable(before["object"] +
                            before["ref"] + before["entry"] + before["annotation"]))
    b = collections.Counter(undo(r) for r in comparable(after["object"] + after["ref"] +
                            after["entry"] + after["annotation"]))
    out = [f"render drops {x}" for x in sorted((a - b).elements())]
    out += [f"render adds {x}" for x in sorted((b - a).elements())]
    for x in after["annotation"]:
        if x["key"] in RENDER_ANNOTATIONS:
            job_name = x["key"] == "rollcall.dev/job-name" and x["where"] == "metadata"
            # A Pod is its own template: render annotates a hook Pod (a Helm test).
            pod = x["object"].startswith("Pod ")
            if x["where"] != "template" and not job_name and not pod:
                out.append(f"render writes {x['key']} on the metadata of {x['object']}")
    return out


def render_check(args, inputs, tmp, k8s):
    """Renders each input that both readers read, and compares the readings."""
    outputs = {}
    for name, path, gating in inputs:
        records = k8s.get(path, [])
        if any(r["type"] == "error" for r in records):
            continue
        with open(path, "rb") as f:
            result = subprocess.run([args.rollcall, "render", "--namespace", "default"],
                                    stdin=f, capture_output=True)
        if result.returncode != 0:
            continue  # refused: the readings' comparison says whether rightly
        out = os.path.join(tmp, f"render-{len(outputs)}.yaml")
        with open(out, "wb") as f:
            f.write(result.stdout)
        outputs[path] = out
    if not outputs:
        return {}
    command = [args.k8sread, "-annotations"]
    before = read_all(command, list(outputs))
    after = read_all(command, list(outputs.values()))
    return {path: compare_render(before.get(path, []), after.get(out, []))
            for path, out in outputs.items()}


def read_known(path):
    known = collections.OrderedDict()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            key, sep, reason = line.rpartition(" | ")
            if not sep:
                sys.exit(f"{path}: not 'INPUT | WHAT | REASON': {line}")
            known[key] = reason
    return known


def write_known(path, found, known):
    with open(path, encoding="utf-8") as f:
        header = [line for line in f if line.startswith("#")]
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(header)
        for key in found:
            f.write(f"{key} | {known.get(key, 'TODO: reason (issue 15, item ?)')}\n")


def main():
    args = parse_args()
    if not args.k8sread or not os.access(args.k8sread, os.X_OK):
        sys.exit("k8sread was not built: Go 1.19 and Debian's sigs.k8s.io/yaml are needed "
                 "(bash scripts/install-deps.sh, then meson setup again)")
    with tempfile.TemporaryDirectory(prefix="rollcall-oracle-") as tmp:
        if args.files:
            inputs = [(p, p, True) for p in args.files]
        else:
            inputs = collect_inputs(args, tmp)
        paths = [p for _, p, _ in inputs]
        ours = read_all([args.rollcall_reading], paths)
        theirs = read_all([args.k8sread], paths)
        renders = {} if args.no_render else render_check(args, inputs, tmp, theirs)

    found, informational = [], []
    for name, path, gating in inputs:
        lines = [f"{name} | {x}" for x in compare_readings(ours.get(path, []),
                                                          theirs.get(path, []))]
        lines += [f"{name} | {x}" for x in renders.get(path, [])]
        (found if gating else informational).extend(lines)
    print(f"# {len(inputs)} inputs read by rollcall and by Kubernetes' decoder; "
          f"{len(renders)} rendered and read again")
    for line in informational:
        print(f"fuzz corpus (not checked): {line}")
    if args.files:
        for line in found:
            print(line)
        return 0
    known = read_known(args.known)
    if args.write_known:
        write_known(args.known, found, known)
        print(f"# wrote {len(found)} disagreements to {args.known}")
        return 0
    new = [x for x in found if x not in known]
    fixed = [x for x in known if x not in found]
    for line in found:
        if line in known:
            print(f"known: {line} | {known[line]}")
    for line in new:
        print(f"NEW DISAGREEMENT: {line}")
    for line in fixed:
        print(f"NO LONGER OCCURS (remove it from {os.path.basename(args.known)}): {line}")
    print(f"# {len(found)} disagreements: {len(found) - len(new)} known, {len(new)} new; "
          f"{len(fixed)} known ones no longer occur")
    return 1 if new or fixed else 0


if __name__ == "__main__":
    sys.exit(main())
