#!/usr/bin/env python3
"""Differential fuzzing of rollcall's reading against Kubernetes' (docs/yaml.md,
"Differential fuzzing").

Generates small streams (generate.py) from a seed, reads them in batches with both
readers of the oracle (rollcall_reading and k8sread, one process per reader per batch)
and compares them with compare.py's own comparison, render's output included. Each
disagreement is put in a class (what differs, with names left out, and the YAML
constructs of the input it was shrunk to); a class listed in known-classes.txt is
expected. For each new class the input is shrunk (documents, then lines, dropped while
the disagreement stays) and written to the regressions folder, which the oracle test
reads like its cases. Stops after --seconds or --count streams, whichever comes first.
Exits 1 if it found a new class or a reader crashed.

  difffuzz.py --source-root DIR --rollcall BIN --rollcall-reading BIN --k8sread BIN
              [--known-classes FILE] [--regressions DIR] [--seconds N] [--count N]
              [--seed N] [--batch N]
  difffuzz.py --classify FILE...   # the class of each disagreement of these files
"""
import argparse
import collections
import fnmatch
import hashlib
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (the oracle's comparison, reused as it is)
import generate  # noqa: E402

READER_TIMEOUT = 60  # seconds for one reader over one batch


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--source-root", required=True)
    p.add_argument("--rollcall", required=True)
    p.add_argument("--rollcall-reading", required=True)
    p.add_argument("--k8sread", required=True)
    p.add_argument("--known-classes")
    p.add_argument("--regressions", help="folder for the shrunk inputs of new classes")
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--count", type=int, default=20000, help="at most this many streams")
    p.add_argument("--seed", type=int, default=None, help="default: today's date, YYYYMMDD")
    p.add_argument("--batch", type=int, default=100, help="streams per reader process")
    p.add_argument("--no-render", action="store_true")
    p.add_argument("--no-cases", action="store_true", help="do not mutate the hand-made cases")
    p.add_argument("--classify", nargs="+", metavar="FILE",
                   help="print the class of each disagreement of these files and exit")
    return p.parse_args()


# ---- reading, robust to a reader that crashes or hangs on one input ----

def read_some(command, paths):
    """{path: records}; an input that makes the reader crash or hang reads as a
    single 'crash' record (found by halving the batch)."""
    if not paths:
        return {}
    try:
        result = subprocess.run(command, input="\n".join(paths) + "\n", capture_output=True,
                                text=True, encoding="utf-8", errors="replace",
                                timeout=READER_TIMEOUT)
        failure = None if result.returncode == 0 else f"exit {result.returncode}"
    except subprocess.TimeoutExpired:
        failure = f"no answer in {READER_TIMEOUT}s"
    if failure is None:
        out = collections.defaultdict(list)
        for line in result.stdout.split("\n"):
            if line:
                record = compare.json.loads(line)
                out[record.pop("file")].append(record)
        return out
    if len(paths) == 1:
        name = os.path.basename(command[0])
        return {paths[0]: [{"type": "crash", "message": f"{name}: {failure}"}]}
    half = len(paths) // 2
    out = read_some(command, paths[:half])
    out.update(read_some(command, paths[half:]))
    return out


def evaluate(args, paths, tmp, render=True):
    """{path: [disagreement, ...]} as compare.py words them."""
    ours = read_some([args.rollcall_reading], paths)
    theirs = read_some([args.k8sread], paths)
    found = {}
    clean = []
    for path in paths:
        crashes = [r["message"] for r in ours.get(path, []) + theirs.get(path, [])
                   if r["type"] == "crash"]
        if crashes:
            found[path] = [f"reader crashes: {c}" for c in crashes]
            continue
        clean.append(path)
        found[path] = compare.compare_readings(ours.get(path, []), theirs.get(path, []))
    if render and not args.no_render and clean:
        inputs = [(p, p, True) for p in clean]
        try:
            renders = compare.render_check(args, inputs, tmp, theirs)
        except SystemExit as e:  # k8sread failed on render's output: look per input
            renders = {p: [f"render check fails: {e}"] for p in clean}
        for path, lines in renders.items():
            found[path] += lines
    return found


# ---- classes ----

# Where a workload kind keeps its pod spec, as Go's decoder names the field.
_POD_SPEC = re.compile(r"\b(?:CronJob\.spec\.jobTemplate\.spec\.template\.spec|"
                       r"\w+\.spec\.template\.spec|Pod\.spec)\.")
_WORKLOADS = r"(?:Deployment|StatefulSet|DaemonSet|ReplicaSet|Job|CronJob|Pod|PodTemplate|Rollout)"


def normalize(what):
    """What differs, without the names and values of the generated input, and with a
    workload's kind left out (they are read alike)."""
    w = what
    w = re.sub(r"reads object (\S+) (\S+) .*$", r"reads object \1 \2", w)
    w = re.sub(r"^(only (?:rollcall|Kubernetes): )\S+ .*? reads ", r"\1Workload … reads ", w)
    # A reference without a name or a key (Secret/[k], ConfigMap/x[""], Secret/ via …):
    # the API server refuses it on validation; rollcall reports malformed-reference.
    w = re.sub(r'\b(Secret|ConfigMap)/(?:(?=[\s\[])\S*|\S*\[""\])', r"\1:no-name-or-key", w)
    w = re.sub(r"\[[^\]]*\]", "[…]", w)
    w = re.sub(r'"(?:[^"\\]|\\.)*"', '"…"', w)
    w = re.sub(r"\b(Secret|ConfigMap)/\S*", r"\1/…", w)
    w = re.sub(r"\b(Secret|ConfigMap) [^ /]*/[^ ]*(?= |$)", r"\1 …", w)
    w = re.sub(rf"\b{_WORKLOADS} [^ :/]*/[^ :]*(?=[ :]|$)", "Workload …", w)
    w = _POD_SPEC.sub("<pod spec>.", w)
    w = re.sub(rf"\b{_WORKLOADS}\b(?! List)", "Workload", w)
    w = re.sub(r"\bline \d+", "line N", w)
    w = re.sub(r"\bbyte \d+", "byte N", w)
    w = re.sub(r"\bcolumn \d+", "column N", w)
    w = re.sub(r"exit -?\d+", "exit N", w)
    w = re.sub(r"map\[[^\]]*\]interface \{\}\{.*\}", "map{…}", w)
    if w.startswith(("render drops ", "render adds ")):  # a JSON record: its type and key
        verb, _, record = w.partition(" {")
        t = re.search(r'"type": "(\w+)"', what)
        k = re.search(r'"key": "([^"]*)"', what)
        w = f"{verb} {t.group(1) if t else '?'}"
        if t and t.group(1) == "annotation" and k:
            w += f" {k.group(1)}"
    return w


_BOOL11 = r"(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)"
_NULL11 = r"(?:~|null|Null|NULL)"
_NUM11 = (r"(?:[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0[0-7_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+|"
          r"(?:[0-9][0-9_]*)?\.?[0-9_]*(?:[eE][-+]?[0-9]+)?|\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)))")
_SCALAR11 = re.compile(rf"^(?:{_BOOL11}|{_NULL11}|{_NUM11}|\d{{4}}-\d\d?-\d\d?.*)$")


def _is_yaml11_nonstring(token):
    token = token.strip()
    return bool(token) and any(c.isalnum() or c == "~" for c in token) and bool(_SCALAR11.match(token))


FEATURES = [
    ("merge", lambda t: re.search(r"<<\s*:", t)),
    ("anchor", lambda t: re.search(r"(^|[\s\[{,])&[\w-]+", t, re.M)),
    ("alias", lambda t: re.search(r"(^|[\s\[{,:])\*[\w-]+", t, re.M)),
    ("list", lambda t: re.search(r"^\s*(-\s+)?kind:\s*\w*List\b", t, re.M) or re.search(r"^items:", t, re.M)
     or re.search(r'"kind"\s*:\s*"[^"]*List"|"items"\s*:', t)),
    # What kubectl's stream decoder decides before YAML (issue 41).
    ("json", lambda t: _is_json(t)),
    ("json-then-yaml", lambda t: _is_json(t) and re.search(r"^---", t, re.M)),
    ("json-escape", lambda t: _is_json(t) and re.search(r'\\/|\\u[dD][89abAB]', t)),
    ("raw-unicode", lambda t: re.search("[\x7f\x85\xa0\u2028\u2029\u3000]", t)),
    ("nel", lambda t: "\x85" in t),
    # A character YAML does not allow (C0 but tab, LF and CR; DEL; C1 but U+0085).
    ("control-char", lambda t: re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x84\x86-\x9f\ufffe\uffff]", t)),
    ("items-null", lambda t: _items_null(t)),
    ("items-empty", lambda t: re.search(r'^\s*(-\s+)?items:\s*\[\s*\]|"items"\s*:\s*\[\s*\]', t, re.M)),
    ("typed-list", lambda t: re.search(r'^\s*(-\s+)?kind:\s*\w+List\b|"kind"\s*:\s*"\w+List"', t, re.M)),
    ("nested-list", lambda t: re.search(r'^(?: +|\s*- +)items:|"items"\s*:\s*\[[^\]]*"items"\s*:\s*\[', t, re.M)),
    ("separator-trailing", lambda t: re.search("^---(#|[^\\S\\n]*[\x85\xa0\f\v\u3000\u2028\u2029\u200b])", t, re.M)),
    ("bom-start", lambda t: t.startswith("\ufeff")),
    ("bom-later", lambda t: "\ufeff" in t[1:]),
    ("block-keep", lambda t: re.search(r"(:|^-|\s)\s*[|>][1-9]?\+[1-9]?\s*(#.*)?$", t, re.M)),
    ("block-strip", lambda t: re.search(r"(:|^-|\s)\s*[|>][1-9]?-[1-9]?\s*(#.*)?$", t, re.M)),
    ("block-indent", lambda t: re.search(r"(:|^-|\s)\s*[|>][+-]?[1-9][+-]?\s*(#.*)?$", t, re.M)),
    ("block", lambda t: re.search(r":\s*[|>][1-9+-]*\s*(#.*)?$", t, re.M)),
    ("escape-unicode", lambda t: re.search(r'"[^"\n]*\\[N_LP]', t)),
    ("escape-single-quote", lambda t: re.search(r'"[^"\n]*\\\'', t)),
    ("escape", lambda t: re.search(r'"[^"\n]*\\[^N_LP\n]', t)),
    ("line-continuation", lambda t: re.search(r'"[^"\n]*\\\r?\n', t)),
    ("quoted-over-lines", lambda t: re.search(r':\s*"[^"\n]*\r?\n[^"]*"', t)),
    ("tag-binary", lambda t: "!!binary" in t),
    ("tag-str", lambda t: "!!str" in t or "tag:yaml.org,2002:str" in t),
    ("tag-other", lambda t: re.search(r"!!(int|bool|null|float|map|seq)|!<|(^|\s)![\w]", t, re.M)),
    ("document-end", lambda t: re.search(r"^\.\.\.", t, re.M)),
    ("directive", lambda t: re.search(r"^%", t, re.M)),
    ("separator-text", lambda t: re.search(r"^---[^\S\n]*[^\s#]", t, re.M)),
    ("flow-over-lines", lambda t: re.search(r"[{\[][^}\]\n]*\r?\n[^}\]]*[}\]]", t)),
    ("crlf", lambda t: "\r\n" in t),
    ("no-final-newline", lambda t: t and not t.endswith("\n")),
    ("tab", lambda t: "\t" in t),
    ("yaml11-key", lambda t: any(_is_yaml11_nonstring(m) for m in
                                 re.findall(r"^[ \t]*(?:-[ \t]+)?([^\s:#'\"{\[][^:#\n]*?)[ \t]*:(?:[ \t\r]|$)", t, re.M))
     or any(_is_yaml11_nonstring(m) for m in re.findall(r"[{,][ \t]*([^\s:'\"{,]+)[ \t]*:", t))),
    ("yaml11-value", lambda t: any(_is_yaml11_nonstring(m) for m in
                                   re.findall(r":[ \t]+([^\s'\"|>&*!#{\[][^#\n,}]*?)[ \t]*(?:#.*)?$", t, re.M))
     or any(_is_yaml11_nonstring(m) for m in re.findall(r":[ \t]*([^\s'\"{\[,}]+)[ \t]*[,}]", t))),
    ("duplicate-key", lambda t: _has_duplicate_key(t)),
]


def _items_null(text):
    """An items field that is null: written so, or with nothing after it (no block
    sequence on the lines below)."""
    if re.search(r'^\s*(-\s+)?items:[ \t]*(null|~)[ \t]*(#.*)?\r?$|"items"\s*:\s*null', text, re.M):
        return True
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*(?:-\s+)?)items:[ \t]*(#.*)?\r?$", line)
        if not m:
            continue
        indent = len(m.group(1))
        following = [x for x in lines[i + 1:] if x.strip() and not x.lstrip().startswith("#")]
        if not following or not re.match(r"^ {%d,}-(\s|$)" % indent, following[0]):
            return True
    return False


def _is_json(text):
    """kubectl's sniffing: the first non-blank character (after a byte-order mark,
    which its file reader drops) is '{'."""
    return text.lstrip("\ufeff").lstrip().startswith("{")


def _has_duplicate_key(text):
    """Two lines with the same key at the same indentation, nothing shallower between."""
    seen = {}
    for line in text.split("\n"):
        m = re.match(r"^( *)([^\s:#-][^:#]*?|\"[^\"]*\"|'[^']*'):(?:\s|$)", line)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if line.lstrip().startswith("- ") or line.startswith(("---", "...")):
            seen = {k: v for k, v in seen.items() if k[0] < indent + (0 if line.startswith("-") else 1)}
            continue
        seen = {k: v for k, v in seen.items() if k[0] <= indent}
        if m:
            key = (indent, m.group(2))
            if key in seen:
                return True
            seen[key] = True
    return False


def features(data):
    text = data.decode("utf-8", errors="replace")
    found = [name for name, test in FEATURES if test(text)]
    # "block" is implied by the more precise block features
    if "block" in found and any(f.startswith("block-") for f in found):
        found.remove("block")
    return found


def class_of(what, data):
    return f"{normalize(what)} [{' '.join(features(data))}]"


def read_classes(path):
    """[(pattern of the normalized disagreement, required features, reason)]."""
    classes = []
    if not path:
        return classes
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(" | ")
            if len(parts) != 3:
                sys.exit(f"{path}:{n}: not 'DISAGREEMENT | FEATURES | REASON': {line}")
            pattern, required, reason = parts
            classes.append((pattern.strip(), set(required.split()) - {"-"}, reason))
    return classes


def known_class(classes, what, data):
    norm, feats = normalize(what), set(features(data))
    for pattern, required, reason in classes:
        if fnmatch.fnmatchcase(norm, pattern) and required <= feats:
            return pattern, required, reason
    return None


# ---- shrinking ----

def split_documents(data):
    """Pieces of the stream, each starting at a line that starts with --- (kept)."""
    lines = data.split(b"\n")
    pieces, current = [], []
    for line in lines:
        if line.startswith(b"---") and current:
            pieces.append(current)
            current = []
        current.append(line)
    pieces.append(current)
    return pieces


def shrink(args, data, norm, tmp, budget_s=20):
    """Drops documents, then single lines, while a disagreement normalizing to `norm`
    stays. Each round evaluates every candidate in one batch."""
    deadline = time.monotonic() + budget_s
    step = [0]

    def holds(candidates):
        paths = []
        for c in candidates:
            step[0] += 1
            path = os.path.join(tmp, f"shrink-{step[0]}.yaml")
            with open(path, "wb") as f:
                f.write(c)
            paths.append(path)
        found = evaluate(args, paths, tmp, render=norm.startswith("render"))
        for c, path in zip(candidates, paths):
            if any(normalize(w) == norm for w in found.get(path, [])):
                return c
        return None

    def rounds(units, join):
        nonlocal data
        while len(units) > 1 and time.monotonic() < deadline:
            candidates = [join(units[:i] + units[i + 1:]) for i in range(len(units))]
            better = holds(candidates)
            if better is None:
                return units
            i = candidates.index(better)
            units = units[:i] + units[i + 1:]
            data = better
        return units

    rounds(split_documents(data), lambda ps: b"\n".join(b"\n".join(p) for p in ps))
    # Lines; the last piece (empty when the stream ends with a line break) stays.
    lines = data.split(b"\n")
    tail = lines.pop()
    rounds(lines, lambda ls: b"\n".join(ls + [tail]))
    return data


# ---- the run ----

def slug(text):
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:60].rstrip("-")


def run(args):
    root = args.source_root
    seed = args.seed if args.seed is not None else int(time.strftime("%Y%m%d"))
    classes = read_classes(args.known_classes)
    case_dirs = [] if args.no_cases else [os.path.join(root, "tests", "oracle", "cases"),
                                          os.path.join(root, "tests", "oracle", "regressions")]
    gen = generate.Gen(random.Random(seed), generate.load_cases(case_dirs))
    start = time.monotonic()
    streams = 0
    known_counts = collections.Counter()
    new_classes = collections.OrderedDict()  # class -> (shrunk data, disagreement)
    shrunk_norms = set()
    reported_norms = set()
    print(f"# differential fuzzing: seed {seed}, up to {args.seconds:g}s or {args.count} streams, "
          f"{args.batch} a batch")
    shrink_left = max(10.0, args.seconds / 2)  # seconds of shrinking in all
    with tempfile.TemporaryDirectory(prefix="rollcall-difffuzz-") as tmp:
        while streams < args.count and time.monotonic() - start < args.seconds:
            n = min(args.batch, args.count - streams)
            batch = {}
            for i in range(n):
                path = os.path.join(tmp, f"s{streams + i}.yaml")
                data = gen.stream()
                with open(path, "wb") as f:
                    f.write(data)
                batch[path] = data
            streams += n
            found = evaluate(args, list(batch), tmp)
            for path, whats in found.items():
                for what in dict.fromkeys(whats):
                    norm = normalize(what)
                    data = batch[path]
                    # The first disagreement of each kind in a run is shrunk to what
                    # makes it disagree before it is classed, so that its features
                    # are the ones that matter (a random input holds many, and a
                    # class would match by chance); later ones are classed as they
                    # come, and a new class is reported once per kind.
                    how = "unshrunk"
                    if norm not in shrunk_norms and shrink_left > 0:
                        shrunk_norms.add(norm)
                        t0 = time.monotonic()
                        data = shrink(args, data, norm, tmp, budget_s=min(20, shrink_left))
                        shrink_left -= time.monotonic() - t0
                        how = "shrunk"
                    hit = known_class(classes, what, data)
                    if hit:
                        known_counts[hit[0] + " | " + " ".join(sorted(hit[1])) + " | " + hit[2]] += 1
                        continue
                    if how == "unshrunk" and norm in reported_norms:
                        continue
                    reported_norms.add(norm)
                    cls = class_of(what, data)
                    if cls not in new_classes:
                        new_classes[cls] = (data, what)
                        print(f"NEW CLASS ({how}): {cls}\n  first seen as: {what}", flush=True)
    elapsed = time.monotonic() - start
    print(f"# {streams} streams in {elapsed:.0f}s (seed {seed})")
    for line, count in sorted(known_counts.items(), key=lambda x: -x[1]):
        print(f"known ({count}x): {line}")
    written = []
    if args.regressions and new_classes:
        os.makedirs(args.regressions, exist_ok=True)
        for cls, (data, what) in new_classes.items():
            digest = hashlib.sha256(data).hexdigest()[:8]
            path = os.path.join(args.regressions, f"{slug(normalize(what))}-{digest}.yaml")
            with open(path, "wb") as f:
                f.write(data)
            written.append(path)
            print(f"wrote {os.path.relpath(path, root)}: {cls}")
    print(f"# {sum(known_counts.values())} disagreements of known classes, "
          f"{len(new_classes)} new classes" + (f", {len(written)} regression files written"
                                               if written else ""))
    if new_classes:
        print("# a new class: add its regression file's lines to known-disagreements.txt "
              "(compare.py --write-known) and its class to known-classes.txt, with the reason, "
              "or fix rollcall's reading")
    return 1 if new_classes else 0


def classify(args):
    classes = read_classes(args.known_classes)
    with tempfile.TemporaryDirectory(prefix="rollcall-difffuzz-") as tmp:
        found = evaluate(args, args.classify, tmp)
    for path in args.classify:
        with open(path, "rb") as f:
            data = f.read()
        for what in found.get(path, []):
            hit = known_class(classes, what, data)
            print(f"{path} | {class_of(what, data)} | "
                  + (f"known: {hit[2]}" if hit else "NEW"))
    return 0


def main():
    args = parse_args()
    for tool in (args.rollcall, args.rollcall_reading, args.k8sread):
        if not os.access(tool, os.X_OK):
            sys.exit(f"{tool} is not built (ninja -C build; k8sread needs Go 1.19: "
                     "scripts/install-deps.sh)")
    return classify(args) if args.classify else run(args)


if __name__ == "__main__":
    sys.exit(main())
