#!/usr/bin/env python3
"""Checks the oracle's restatement of kubectl's reading against the real code
(docs/yaml.md, "The oracle"): every input is read by `k8sread -objects` (the
restatement, tests/oracle/k8sread) and by kubectlread (tests/oracle/kubectlread:
k8s.io/cli-runtime's builder as `kubectl apply -f FILE` uses it, local), and the
objects each applies, in order, and the number of errors each reports must be equal.

  crosscheck.py --source-root DIR --k8sread BIN --kubectlread BIN
                [--generated N] [--seed N] [FILE...]

Inputs: FILEs, else the oracle's own (testdata/, tests/oracle/cases/,
tests/oracle/regressions/, fuzz/regressions/) and N streams of generate.py from SEED
(default 2000, seed 1). Prints each input where they differ; exits 1 if any does.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402
import generate  # noqa: E402


def k8sread_objects(k8sread, path):
    result = subprocess.run([k8sread, "-objects", path], capture_output=True)
    objects, errors = [], []
    for line in result.stdout.decode("utf-8").split("\n"):
        if not line:
            continue
        entry = json.loads(line)
        if "object" in entry:
            objects.append(entry["object"])
        else:
            errors.append(entry["error"])
    return objects, errors


def kubectlread_all(kubectlread, paths):
    """{path: (objects, error messages)} from one kubectlread process."""
    result = subprocess.run([kubectlread] + paths, capture_output=True, check=True)
    out, current = {}, None
    for line in result.stdout.decode("utf-8").split("\n"):
        if not line:
            continue
        entry = json.loads(line)
        if "file" in entry:
            current = entry["file"]
            out[current] = ([], [])
        elif "object" in entry:
            out[current][0].append(entry["object"])
        else:
            out[current][1].extend(entry["messages"] or [])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--source-root", required=True)
    p.add_argument("--k8sread", required=True)
    p.add_argument("--kubectlread", required=True)
    p.add_argument("--generated", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--verbose", action="store_true")
    p.add_argument("files", nargs="*")
    args = p.parse_args()
    root = args.source_root
    with tempfile.TemporaryDirectory(prefix="rollcall-crosscheck-") as tmp:
        if args.files:
            paths = list(args.files)
        else:
            paths = [x for x in compare.yaml_files(os.path.join(root, "testdata"), skip_dirs=("krm",))]
            for sub in ("cases", "regressions"):
                paths += compare.yaml_files(os.path.join(root, "tests", "oracle", sub))
            fuzz = os.path.join(root, "fuzz", "regressions")
            for folder in sorted(os.listdir(fuzz)):
                for name in sorted(os.listdir(os.path.join(fuzz, folder))):
                    paths.append(os.path.join(fuzz, folder, name))
            gen = generate.Gen(random.Random(args.seed), generate.load_cases(
                [os.path.join(root, "tests", "oracle", "cases")]))
            for i in range(args.generated):
                path = os.path.join(tmp, f"generated-{args.seed}-{i}.yaml")
                with open(path, "wb") as f:
                    f.write(gen.stream())
                paths.append(path)
        real = {}
        for i in range(0, len(paths), 200):
            real.update(kubectlread_all(args.kubectlread, paths[i:i + 200]))
        differ = 0
        counts = {"objects": 0, "errors": 0, "refused": 0}
        for path in paths:
            ours = k8sread_objects(args.k8sread, path)
            theirs = real.get(path, ([], ["kubectlread printed nothing"]))
            counts["objects"] += len(theirs[0])
            counts["errors"] += len(theirs[1])
            counts["refused"] += bool(theirs[1])
            # JSON values compared as values (1 and 1.0 alike, as Go's int64 and
            # float64 of the unstructured decoder are to the API server).
            if ours[0] != theirs[0] or len(ours[1]) != len(theirs[1]):
                differ += 1
                print(f"DIFFERS: {os.path.relpath(path, root) if not path.startswith(tmp) else path}")
                if args.verbose or differ <= 20:
                    print(f"  k8sread:     {len(ours[0])} objects, errors {ours[1]}")
                    print(f"  kubectlread: {len(theirs[0])} objects, errors {theirs[1]}")
                    for a, b in zip(ours[0], theirs[0]):
                        if a != b:
                            print(f"  first object that differs:\n    {json.dumps(a)[:400]}\n    {json.dumps(b)[:400]}")
                            break
                    if differ <= 20 and path.startswith(tmp):
                        with open(path, "rb") as f:
                            print("  input: " + repr(f.read())[:600])
        print(f"# {len(paths)} inputs; kubectlread applied {counts['objects']} objects and "
              f"reported {counts['errors']} errors ({counts['refused']} inputs with one); "
              f"{differ} inputs read otherwise by k8sread")
        return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
