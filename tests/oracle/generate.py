"""Generates small Kubernetes streams where YAML readers tend to disagree (docs/yaml.md,
"Differential fuzzing"). Deterministic: the same random.Random state gives the same
streams. Used by difffuzz.py; `python3 generate.py SEED [COUNT]` prints streams to look at.

A stream is one to four documents built from Secrets, ConfigMaps and workloads that
read them, written with the constructs YAML 1.1 (go-yaml v2, what Kubernetes reads)
and yaml-cpp read differently: YAML 1.1 scalars as keys and values, every quoting style,
block scalars with every chomping and indentation indicator, escapes, anchors, aliases
and merge keys, flow collections over lines, Lists, tags, duplicate keys, document
markers, comments and directives, CRLF line breaks, no final line break. And what
kubectl's stream decoder decides before YAML (issue 41): JSON streams (concatenated
objects with or without white space between them, Unicode white space before the
first '{', escapes such as \/ and surrogate pairs, raw DEL, U+0085, U+2028 in strings,
values that are not objects, JSON then YAML), `items` of every kind (null, [], beside
the object's own fields, typed Lists whose items lack kind and apiVersion, Lists in
Lists), separators with trailing bytes ('---#c', '---' and Unicode white space, '--- x'),
byte-order marks at the start of the stream and of later documents. Or it is one of
the hand-made cases (tests/oracle/cases/, regressions/) mutated or combined.
"""
import base64
import json
import os
import random
import sys

# Scalars that YAML 1.1 and YAML 1.2 (or yaml-cpp) resolve differently, or that are
# easy to get wrong: booleans, null, octal, hex, exponents, underscores, sexagesimal,
# timestamps, special floats, and strings that look like them.
YAML11_SCALARS = [
    "yes", "no", "on", "off", "y", "n", "Y", "N", "Yes", "NO", "On", "OFF", "true",
    "False", "TRUE", "~", "null", "Null", "NULL", "0123", "0o17", "0x1F", "0X1f", "0b101",
    "1e3", "1E3", "1.5e+3", "6.8523015e+5", "1_000", "0_777", "+12", "-0", "08", "09",
    "190:20:30", "1:20", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5", ".inf", "-.Inf", ".NaN", "12.0", "0.", "=", "<<", "0",
    "-1", "3.", "1e", "0x", "yes please", "on-call", "v1.2", "1.2.3", "+", "-",
]
PLAIN_WORDS = ["alpha", "beta", "hunter2", "s3cr3t", "a b", "x", "user", "password",
               "token", "café", "dGVzdA==", "https://example.com/a?b=c", "a:b", "a #b"]
KEY_WORDS = ["password", "token", "user", "PASS", "db.url", "tls.crt", "ca-bundle",
             "A_KEY", "k1", "x"]
ESCAPES = ["\\n", "\\t", "\\\\", "\\\"", "\\x41", "\\u00e9", "\\U0001F600", "\\N", "\\_",
           "\\L", "\\P", "\\0", "\\a", "\\b", "\\e", "\\f", "\\r", "\\v", "\\/", "\\ ",
           "\\x7f", "\\u2028"]
BLOCK_HEADERS = ["|", "|-", "|+", ">", ">-", ">+", "|2", "|2-", "|2+", ">1", ">1-",
                 ">2+", "|-2", ">+1", "|1"]
TAGS = ["!!str", "!!binary", "!!int", "!!bool", "!!null", "!!float", "!!str ", "!<tag:yaml.org,2002:str>"]
NAMES = ["db", "app-env", "cfg", "tls", "shared", "a.b", "db", "cfg", "on", "0123"]
# Characters JSON carries raw in strings that YAML (or a YAML reader) treats otherwise.
RAW_CHARS = ["\x7f", "\u0085", "\u2028", "\u2029", "\u00a0", "\ufeff", "\u3000", "\t",
             "\U0001F600", "é", "#", ": ", " #", "\\", "\"", "/"]
# White space before the first '{' (unicode.IsSpace or not) and between JSON values.
JSON_LEADS = ["", "", "", " ", "\n", "\t\n ", "\r\n", "\u00a0", "\u3000\n", "\u0085", "\f",
              "\v\n", "\ufeff", "\n\n\n"]
JSON_BETWEEN = ["", "", "\n", "\n", " ", "\r\n", "\n\n", "\t", "\n \n", "\u00a0", "\f"]
# What may follow '---' on a separator line: kubectl trims Go's Unicode white space and
# allows a '#' at once; anything else is refused.
SEPARATOR_TAILS = ["#c", "#", "\u00a0", "\u0085", "\f", "\u3000", "\u2028", "\t#c", " \u00a0# c",
                   "\v", "\u200b", " x", "\u00a0x"]


class Gen:
    def __init__(self, rng, cases=()):
        self.r = rng
        self.cases = list(cases)
        self.anchor_count = 0

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def chance(self, p):
        return self.r.random() < p

    # ---- scalars ----

    def raw_text(self):
        """The text a scalar means (before quoting)."""
        choice = self.r.randrange(4)
        if choice == 0:
            return self.pick(YAML11_SCALARS)
        if choice == 1:
            return self.pick(PLAIN_WORDS)
        if choice == 2:
            return self.pick(KEY_WORDS) + str(self.r.randrange(3))
        return "".join(self.pick(PLAIN_WORDS + YAML11_SCALARS) for _ in range(2))

    def quoted(self, text):
        style = self.r.randrange(5)
        if style == 0 or not text:
            return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if style == 1:
            return "'" + text.replace("'", "''") + "'"
        if style == 2:  # double quotes with an escape or two inside
            parts = [text[:len(text) // 2]] + [self.pick(ESCAPES) for _ in range(self.r.randrange(1, 3))]
            parts.append(text[len(text) // 2:])
            return '"' + "".join(p.replace('"', '\\"') if not p.startswith("\\") else p
                                 for p in parts) + '"'
        if style == 3:  # plain: whatever YAML 1.1 makes of it
            return text
        return self.pick(YAML11_SCALARS)

    def key(self):
        if self.chance(0.3):
            return self.quoted(self.raw_text()) if self.chance(0.5) else self.pick(YAML11_SCALARS)
        k = self.pick(KEY_WORDS)
        return self.quoted(k) if self.chance(0.3) else k

    def value_lines(self, indent):
        """A value after `key:`: either the rest of the line, or a block scalar over lines."""
        kind = self.r.randrange(10)
        pad = " " * indent
        if kind <= 3:
            return [" " + self.quoted(self.raw_text())]
        if kind == 4:
            return [" " + self.pick(TAGS) + " " + self.tagged_text()]
        if kind == 5:  # double quotes folded over lines, maybe a line continuation
            a, b = self.raw_text(), self.raw_text()
            join = self.pick(["", "\\", " ", "\\n"])
            return [f' "{a}{join}', f'{pad}  {b}"']
        # a block scalar
        header = self.pick(BLOCK_HEADERS)
        extra = self.pick(["", "", "", " # comment"])
        lines = [" " + header + extra]
        n = self.r.randrange(1, 4)
        step = 2
        for header_digit in "12":
            if header_digit in header:
                step = int(header_digit)
        for i in range(n):
            text = self.raw_text()
            more = self.pick(["", "", "", "  ", "\t", " "])
            lines.append(pad + " " * step + more + text)
            if self.chance(0.3):
                lines.append("")
        if self.chance(0.3):
            lines.append(pad + " " * step)  # a line of only spaces
        for _ in range(self.r.randrange(3)):
            lines.append("")  # trailing empty lines: what keep chomping keeps
        return lines

    def tagged_text(self):
        if self.chance(0.5):
            return base64.b64encode(self.raw_text().encode()).decode()
        return self.quoted(self.raw_text()) if self.chance(0.3) else self.pick(YAML11_SCALARS)

    # ---- mappings ----

    def data_block(self, indent):
        """Lines of a data/stringData mapping at indent."""
        pad = " " * indent
        lines = []
        keys = []
        if self.chance(0.15):  # a flow mapping over lines
            items = [f"{self.key()}: {self.quoted(self.raw_text())}" for _ in range(self.r.randrange(1, 4))]
            inner = (",\n" + pad + "  ").join(items)
            return [pad + "{" + inner + self.pick(["", ",", "\n" + pad]) + "}"], keys
        for _ in range(self.r.randrange(1, 5)):
            k = self.key()
            keys.append(k)
            v = self.value_lines(indent)
            lines.append(pad + k + ":" + v[0])
            lines.extend(v[1:])
        if self.chance(0.15) and keys:  # a duplicate key
            k = self.pick(keys)
            lines.append(pad + k + ": " + self.quoted(self.raw_text()))
        if self.chance(0.2):  # a merge key
            self.anchor_count += 1
            if self.chance(0.5):
                lines.append(pad + "<<: {" + f"{self.key()}: {self.quoted(self.raw_text())}" + "}")
            else:
                lines.append(pad + "<<: [{" + f"{self.key()}: a" + "}, {" + f"{self.key()}: b" + "}]")
        if self.chance(0.1):
            lines.insert(self.r.randrange(len(lines) + 1), pad + "# a comment")
        return lines, keys

    def metadata(self, name, ns_chance=0.3):
        lines = ["metadata:"]
        if self.chance(0.1):
            lines.append("  <<: {namespace: " + self.pick(["shop", "on", "'yes'"]) + "}")
        lines.append("  name: " + (self.quoted(name) if self.chance(0.2) else name))
        if self.chance(ns_chance):
            lines.append("  namespace: " + self.pick(["shop", "demo", "'0123'", '"x"']))
        if self.chance(0.1):
            lines.append("  annotations: {a: " + self.quoted(self.raw_text()) + "}")
        return lines

    def source(self, name):
        kind = self.pick(["Secret", "ConfigMap"])
        lines = [self.api("v1"), f"kind: {kind}"] + self.metadata(name)
        fields = ["data", "stringData"] if kind == "Secret" else ["data", "binaryData"]
        if kind == "Secret" and self.chance(0.6):
            fields = ["stringData"]
        if kind == "ConfigMap" and self.chance(0.8):
            fields = ["data"]
        for field in fields:
            anchor = ""
            if self.chance(0.15):
                self.anchor_count += 1
                anchor = f" &d{self.anchor_count}"
            block, _ = self.data_block(2)
            if field in ("binaryData",) or (kind == "Secret" and field == "data"):
                block = [f"  {self.key()}: " + self.pick([
                    base64.b64encode(self.raw_text().encode()).decode(), "!!binary aGVsbG8=",
                    self.quoted(base64.b64encode(self.raw_text().encode()).decode()), "0123", "~"])]
            if block and block[0].lstrip().startswith("{"):
                lines.append(f"{field}:{anchor} " + block[0].lstrip())
            else:
                lines.append(f"{field}:{anchor}")
                lines.extend(block)
            if anchor and self.chance(0.7):
                other = self.pick(["stringData", "data"]) if kind == "Secret" else "data"
                if other != field:
                    lines.append(f"{other}: *{anchor.strip()[1:]}")
        if self.chance(0.1):
            lines.append("immutable: " + self.pick(["yes", "true", "on", "'true'"]))
        return lines

    def api(self, default):
        return "apiVersion: " + (default if self.chance(0.9) else self.quoted(default))

    def env_lines(self, names):
        """(env entries, envFrom entries) of a container."""
        env, env_from = [], []
        for _ in range(self.r.randrange(1, 4)):
            name = self.pick(names)
            kind = self.r.randrange(5)
            opt = ""
            if self.chance(0.5):
                opt = self.pick(YAML11_SCALARS[:17] + ["'true'", "!!bool yes", "!!str true"])
            if kind >= 3:
                env_from.append(f"        - {self.pick(['secretRef', 'configMapRef'])}: {{name: {name}"
                                + (f", optional: {opt}" if opt else "") + "}")
                continue
            env.append(f"        - name: {self.pick(['A', 'B', 'C', 'PORT', 'DB_URL', 'TOKEN', 'on'])}")
            if kind == 0:
                env.append("          value: " + self.quoted(self.raw_text()))
                continue
            ref = self.pick(["secretKeyRef", "configMapKeyRef"])
            env.append("          valueFrom:")
            if self.chance(0.5):
                env.append(f"            {ref}: {{name: {name}, key: {self.key()}"
                           + (f", optional: {opt}" if opt else "") + "}")
            else:
                env.append(f"            {ref}:")
                env.append(f"              name: {name}")
                env.append(f"              key: {self.key()}")
                if opt:
                    env.append(f"              optional: {opt}")
        return env, env_from

    def workload(self, name, names):
        kind, api, path = self.pick([("Deployment", "apps/v1", "spec.template"),
                                     ("StatefulSet", "apps/v1", "spec.template"),
                                     ("Job", "batch/v1", "spec.template"),
                                     ("CronJob", "batch/v1", "spec.jobTemplate.spec.template"),
                                     ("Pod", "v1", "")])
        lines = [self.api(api), f"kind: {kind}"] + self.metadata(name)
        self.anchor_count += 1
        anchor = f"c{self.anchor_count}"
        container = ["      - name: app", "        image: app:1"]
        env, env_from = self.env_lines(names)
        if env:
            container += ["        env:"] + env
        if env_from:
            container += ["        envFrom:"] + env_from
        if self.chance(0.2):
            container[0] = f"      - &{anchor}"
            container.insert(1, "        name: app")
        spec = ["    spec:", "      containers:"] + container
        if container[0].endswith(anchor) and self.chance(0.7):
            spec += ["      - <<: *" + anchor, "        name: worker"]
        if self.chance(0.4):
            vol = self.pick(["secret: {secretName: %s}", "configMap: {name: %s}",
                             "secret: {secretName: %s, items: [{key: %s, path: p}]}",
                             "projected: {sources: [{secret: {name: %s}}]}"])
            vol = vol.replace("%s", self.pick(names), 1).replace("%s", self.key(), 1)
            spec += ["      volumes:", "      - name: v", "        " + vol]
        template = ["  template:", "    metadata: {labels: {app: a}}"] + spec
        if path == "":
            return lines + [line[4:] for line in spec]
        if kind == "CronJob":
            return lines + ["spec:", "  schedule: '* * * * *'", "  jobTemplate:", "    spec:"] + [
                "    " + line for line in template]
        return lines + ["spec:", "  selector: {matchLabels: {app: a}}"] + template

    # ---- documents and streams ----

    def document(self, names):
        choice = self.r.randrange(12)
        name = self.pick(names)
        if choice < 5:
            return self.with_items(self.source(name), names)
        if choice < 9:
            return self.with_items(self.workload(self.pick(["web", "api", "web", "api", "worker", "0123"]), names), names)
        return self.yaml_list(names)

    def list_item(self, names, typed):
        """An item of a List: a source or a workload, its kind and apiVersion left out
        sometimes (a typed List infers them), sometimes a List itself or null."""
        if self.chance(0.05):
            return ["null"]
        if self.chance(0.05):
            return self.yaml_list(names, depth=1)
        item = self.source(self.pick(names)) if self.chance(0.6) else self.workload("listed", names)
        if typed and self.chance(0.5):
            item = [line for line in item if not line.startswith(("apiVersion:", "kind:"))]
        elif self.chance(0.05):
            item = [line for line in item if not line.startswith(self.pick(["apiVersion:", "kind:"]))]
        return item

    def yaml_list(self, names, depth=0):
        kind = self.pick(["List", "List", "SecretList", "ConfigMapList", "DeploymentList",
                          "PodList", "JobList", "a b List"])
        api = {"DeploymentList": "apps/v1", "JobList": "batch/v1"}.get(kind, "v1")
        lines = ["apiVersion: " + api, "kind: " + kind]
        variant = self.r.randrange(10)
        if variant == 0:
            return lines + ["items: " + self.pick(["null", "~", "[]", "", "{}", "x"])]
        lines.append("items:")
        for _ in range(self.r.randrange(1, 4)):
            item = self.list_item(names, typed=kind != "List") if depth == 0 else self.source(self.pick(names))
            lines.append("- " + item[0])
            lines.extend("  " + line for line in item[1:])
        if variant == 1:
            lines.append("metadata: {name: " + self.pick(names) + "}")
        return lines

    def with_items(self, lines, names):
        """An object kubectl reads as a List because of its items field (null, empty or
        not), beside its own fields."""
        if not self.chance(0.08):
            return lines
        variant = self.r.randrange(6)
        if variant < 4:
            return lines + ["items: " + self.pick(["null", "~", "[]", "", "[] # none", "{}"])]
        item = self.source(self.pick(names))
        return lines + ["items:", "- " + item[0]] + ["  " + line for line in item[1:]]

    # ---- JSON streams: what kubectl's YAMLOrJSONDecoder reads as JSON ----

    def json_string(self, text):
        """`text` as a JSON string, escaped in one of the ways JSON allows."""
        out = []
        style = self.r.randrange(4)
        for ch in text:
            code = ord(ch)
            if ch == '"' or ch == "\\":
                out.append("\\" + ch)
            elif code < 0x20:
                out.append(self.pick(["\\u%04x" % code, "\\u%04X" % code]) if ch not in "\n\t" or self.chance(0.5)
                           else {"\n": "\\n", "\t": "\\t"}[ch])
            elif ch == "/" and style == 1:
                out.append("\\/")
            elif code > 0x7e and style == 2:
                if code > 0xFFFF:
                    hi = 0xD800 + ((code - 0x10000) >> 10)
                    lo = 0xDC00 + ((code - 0x10000) & 0x3FF)
                    out.append("\\u%04x\\u%04x" % (hi, lo))
                else:
                    out.append("\\u%04x" % code)
            else:
                out.append(ch)
        return '"' + "".join(out) + '"'

    def json_value_text(self):
        text = self.raw_text()
        if self.chance(0.4):
            i = self.r.randrange(len(text) + 1)
            text = text[:i] + self.pick(RAW_CHARS) + text[i:]
        return text

    def json_scalar(self):
        """Mostly strings; sometimes what typed decoding refuses where a string is due."""
        if self.chance(0.9):
            return self.json_string(self.json_value_text())
        return self.pick(["1", "0123" if self.chance(0.1) else "12", "true", "null", "1.5", "1e400", "[]", "{}"])

    def json_text(self, value, indent):
        """`value` (dicts, lists, and str already written as JSON; keys too, or plain
        names) as JSON text."""
        pad = "" if indent is None else "\n" + " " * indent
        inner = "" if indent is None else "\n" + " " * (indent + 2)
        sep = self.pick([",", ", "]) if indent is None else ","
        colon = self.pick([":", ": "])
        if isinstance(value, dict):
            if not value:
                return "{}"
            items = [(k if k.startswith('"') else json.dumps(k)) + colon
                     + self.json_text(v, None if indent is None else indent + 2)
                     for k, v in value.items()]
            return "{" + inner + (sep + inner).join(items) + pad + "}"
        if isinstance(value, list):
            if not value:
                return "[]"
            items = [self.json_text(v, None if indent is None else indent + 2) for v in value]
            return "[" + inner + (sep + inner).join(items) + pad + "]"
        return value

    def json_meta(self, name):
        meta = {"name": self.json_string(name)}
        if self.chance(0.3):
            meta["namespace"] = self.json_string(self.pick(["shop", "demo"]))
        if self.chance(0.1):
            meta["annotations"] = {"a": self.json_string(self.json_value_text())}
        return meta

    def json_source(self, name, typed=True):
        kind = self.pick(["Secret", "ConfigMap"])
        obj = {"apiVersion": '"v1"', "kind": json.dumps(kind)} if typed else {}
        obj["metadata"] = self.json_meta(name)
        data = {}
        for _ in range(self.r.randrange(1, 4)):
            key = self.key() if self.chance(0.8) else self.json_value_text()
            if kind == "Secret" and self.chance(0.4):
                data[self.json_string(key)] = json.dumps(base64.b64encode(self.raw_text().encode()).decode())
            else:
                data[self.json_string(key)] = self.json_scalar()
        field = "data" if kind == "ConfigMap" or self.chance(0.4) else "stringData"
        if kind == "Secret" and field == "data":
            data = {k: json.dumps(base64.b64encode(self.raw_text().encode()).decode()) for k in data}
        obj[json.dumps(field)] = data
        return {(k if k.startswith('"') else json.dumps(k)): v for k, v in obj.items()}

    def json_workload(self, name, names, typed=True):
        env, env_from = [], []
        for _ in range(self.r.randrange(1, 3)):
            ref = self.pick(["secretKeyRef", "configMapKeyRef", "secretRef", "configMapRef"])
            source = {'"name"': self.json_string(self.pick(names))}
            if ref.endswith("KeyRef"):
                source['"key"'] = self.json_string(self.key())
                env.append({'"name"': '"A"', '"valueFrom"': {json.dumps(ref): source}})
            else:
                env_from.append({json.dumps(ref): source})
        container = {'"name"': '"app"', '"image"': '"app:1"'}
        if env:
            container['"env"'] = env
        if env_from:
            container['"envFrom"'] = env_from
        spec = {'"containers"': [container]}
        obj = {'"apiVersion"': '"apps/v1"', '"kind"': '"Deployment"'} if typed else {}
        obj['"metadata"'] = self.json_meta(name)
        obj['"spec"'] = {'"selector"': {'"matchLabels"': {'"app"': '"a"'}},
                         '"template"': {'"metadata"': {'"labels"': {'"app"': '"a"'}}, '"spec"': spec}}
        return obj

    def json_object(self, names):
        choice = self.r.randrange(10)
        if choice < 4:
            obj = self.json_source(self.pick(names))
        elif choice < 7:
            obj = self.json_workload(self.pick(["web", "api"]), names)
        else:
            kind = self.pick(["List", "SecretList", "ConfigMapList", "DeploymentList"])
            typed = kind != "List" and self.chance(0.6)
            items = []
            for _ in range(self.r.randrange(0, 3)):
                if kind == "DeploymentList" or (kind == "List" and self.chance(0.4)):
                    items.append(self.json_workload("listed", names, typed=not typed))
                else:
                    items.append(self.json_source(self.pick(names), typed=not typed))
            if self.chance(0.05):
                items.append("null")
            api = '"apps/v1"' if kind == "DeploymentList" else '"v1"'
            return {'"apiVersion"': api, '"kind"': json.dumps(kind), '"items"': items}
        if self.chance(0.1):
            obj['"items"'] = self.pick(["null", [], [self.json_source(self.pick(names))]])
        return obj

    def json_stream(self):
        """Values kubectl reads as a JSON stream: concatenated, with or without white
        space, sometimes one that is not an object, sometimes YAML after them."""
        names = [self.pick(NAMES) for _ in range(2)]
        text = self.pick(JSON_LEADS)
        count = self.r.randrange(1, 4)
        for i in range(count):
            if i:
                text += self.pick(JSON_BETWEEN)
            if self.chance(0.05):
                text += self.pick(["null", "5", '"x"', "[]", "{}"])
                text += self.pick(JSON_BETWEEN)
            text += self.json_text(self.json_object(names), self.pick([None, None, 0, 2]))
        tail = self.r.randrange(8)
        if tail == 0:  # JSON, then YAML documents
            text += self.pick(["\n---\n", "\n", "\n--- # yaml\n", " \n---\n"])
            text += "\n---\n".join("\n".join(self.document(names)) for _ in range(self.r.randrange(1, 3)))
        elif tail == 1:
            text += self.pick([" x", "\nx: 1", "]", "\n---", "\n...\n", " \u00a0", "\u0085"])
        text += self.pick(["\n", "\n", "", "\r\n", "\n\n"])
        return text.encode("utf-8")

    def separator(self):
        if self.chance(0.15):
            return "---" + self.pick(SEPARATOR_TAILS)
        return self.pick(["---", "---", "---", "--- # next", "---  ", "...\n---",
                          "# between\n---", "---\n# after", "...", "---\n%YAML 1.1\n---"])

    def stream(self):
        if self.cases and self.chance(0.25):
            return self.mutated_case()
        if self.chance(0.15):
            return self.json_stream()
        names = [self.pick(NAMES) for _ in range(2)]
        docs = ["\n".join(self.document(names)) for _ in range(self.r.randrange(1, 5))]
        text = ""
        if self.chance(0.03):
            text += "\ufeff"  # a byte-order mark opening the stream
        if self.chance(0.1):
            text += self.pick(["%YAML 1.1\n---\n", "%YAML 1.2\n---\n", "# Source: c/t.yaml\n",
                               "---\n", "%TAG ! tag:example.com,2000:\n---\n"])
        for i, doc in enumerate(docs):
            if i:
                text += "\n" + self.separator() + "\n"
                if self.chance(0.08):
                    text += "\ufeff"  # a byte-order mark opening a later document
            text += doc
        text += self.pick(["\n", "\n", "\n", "", "\n...\n", "\n---\n", "\n\n"])
        return self.finish(text)

    def finish(self, text):
        if self.chance(0.1):
            text = text.replace("\n", "\r\n")
        if self.chance(0.1):
            text = text.rstrip("\n")
        return text.encode("utf-8")

    def mutated_case(self):
        text = self.pick(self.cases)
        if self.chance(0.3):
            text = text.rstrip("\n") + "\n" + self.separator() + "\n" + self.pick(self.cases)
        lines = text.split("\n")
        for _ in range(self.r.randrange(1, 4)):
            if not lines:
                break
            i = self.r.randrange(len(lines))
            line = lines[i]
            op = self.r.randrange(6)
            if op == 0 and ":" in line:  # a new value after a key
                head = line.split(":", 1)[0]
                lines[i] = head + ": " + self.quoted(self.raw_text())
            elif op == 1 and ":" in line:  # a new key
                indent = len(line) - len(line.lstrip(" "))
                rest = line.split(":", 1)[1]
                lines[i] = " " * indent + ("- " if line.lstrip().startswith("- ") else "") + self.key() + ":" + rest
            elif op == 2:
                lines.insert(i, line)  # a duplicate line (a duplicate key, often)
            elif op == 3:
                del lines[i]
            elif op == 4:
                lines.insert(i, self.pick(["...", "---", "# c", "", "--- # c"]))
            else:
                indent = len(line) - len(line.lstrip(" "))
                lines[i:i + 1] = [line.rstrip() + (" |+" if line.rstrip().endswith(":") else ""),
                                  " " * (indent + 2) + "tail", ""] if line.rstrip().endswith(":") else [line]
        return self.finish("\n".join(lines))


def load_cases(folders):
    cases = []
    for folder in folders:
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".yaml"):
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                    cases.append(f.read())
    return cases


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    gen = Gen(random.Random(int(sys.argv[1])), load_cases([os.path.join(here, "cases")]))
    for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 1):
        sys.stdout.write(gen.stream().decode() + "\n#### end of stream\n")
