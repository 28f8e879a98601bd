"""YAML read as Kubernetes reads it, for the tests' Python.

The tests never parse YAML themselves: they hand the file to the oracle's decoder,
tests/oracle/k8sread (Kubernetes' own reader: k8s.io/apimachinery's stream split, then
sigs.k8s.io/yaml over go-yaml v2, so YAML 1.1 with merge keys), run as
`k8sread -documents FILE`, and take back one JSON line per piece of the stream. So a
test sees exactly what kubectl and Helm would see, and nothing shares a YAML parser
with rollcall.

The k8sread binary is $K8SREAD (meson passes it to every test that reads YAML) unless
a path is given. Usage from a test snippet:

    sys.path.insert(0, TESTS_LIB)   # this file's folder
    import k8s_json
    for doc in k8s_json.load_all(path): ...
"""

import json
import os
import subprocess
import tempfile


class K8sReadError(Exception):
    """A piece of the stream Kubernetes refuses, or a file k8sread cannot read."""


def k8sread_path(k8sread=None):
    """The k8sread executable: the argument, else $K8SREAD."""
    path = k8sread or os.environ.get("K8SREAD", "")
    if not path:
        raise K8sReadError("K8SREAD is not set: the path of tests/oracle/k8sread in the "
                           "build directory (meson test sets it; it needs Go 1.19)")
    return path


def pieces(path, k8sread=None):
    """Every piece of the stream in `path`, in order: ("document", value) or
    ("error", message), as `k8sread -documents` prints them."""
    proc = subprocess.run([k8sread_path(k8sread), "-documents", path],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = []
    for line in proc.stdout.decode("utf-8").splitlines():
        entry = json.loads(line)
        if "document" in entry:
            out.append(("document", entry["document"]))
        else:
            out.append(("error", entry.get("error", line)))
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not out):
        raise K8sReadError("k8sread -documents %s exited %d: %s"
                           % (path, proc.returncode, proc.stderr.decode("utf-8", "replace").strip()))
    return out


def load_all(path, k8sread=None, name=None):
    """The documents of the stream in `path` (None for an empty piece); raises
    K8sReadError with Kubernetes' message when a piece is refused (after `name`, the
    path unless given)."""
    docs = []
    for kind, value in pieces(path, k8sread):
        if kind == "error":
            raise K8sReadError("%s: %s" % (name or path, value))
        docs.append(value)
    return docs


def load_one(path, k8sread=None):
    """The one document of the file at `path` (None when it holds none); raises
    K8sReadError when it holds more than one or Kubernetes refuses it."""
    docs = load_all(path, k8sread)
    if len(docs) > 1:
        raise K8sReadError("%s: %d documents, expected one" % (path, len(docs)))
    return docs[0] if docs else None


def load_all_bytes(data, k8sread=None, name="the stream"):
    """load_all for a stream held in memory (bytes or str), through a temporary file;
    an error names it `name`."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    with tempfile.NamedTemporaryFile(prefix="k8s_json-", suffix=".yaml") as f:
        f.write(data)
        f.flush()
        return load_all(f.name, k8sread, name)
