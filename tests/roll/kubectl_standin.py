#!/usr/bin/python3
"""A stand-in kubectl that replays recorded API responses and records each call.

ROLL_RESPONSES names a JSON file: a list of {"argv": [...], "stdout": FILE,
"stderr": TEXT, "exit": N, "times": N}. A call answers with the first entry whose
argv equals its own (after the program name) and that has times left (no "times":
any number). FILE is relative to the responses file; what comes on stdin is kept in
ROLL_CALLS.stdin.
Each call's argv is appended to ROLL_CALLS as one JSON line. A call nothing
answers exits 99 and says so, so that a test sees every unexpected call."""
import json
import os
import sys

argv = sys.argv[1:]
with open(os.environ["ROLL_CALLS"], "a") as calls:
    calls.write(json.dumps(argv) + "\n")
fed = sys.stdin.buffer.read()
if fed:
    # What kubectl apply was fed, for the case to compare with the manifest.
    open(os.environ["ROLL_CALLS"] + ".stdin", "wb").write(fed)
responses_path = os.environ["ROLL_RESPONSES"]
state_path = os.environ["ROLL_CALLS"] + ".used"
used = json.load(open(state_path)) if os.path.exists(state_path) else {}
for index, entry in enumerate(json.load(open(responses_path))):
    if entry["argv"] != argv:
        continue
    if "times" in entry and used.get(str(index), 0) >= entry["times"]:
        continue
    used[str(index)] = used.get(str(index), 0) + 1
    json.dump(used, open(state_path, "w"))
    if "stdout" in entry:
        path = os.path.join(os.path.dirname(responses_path), entry["stdout"])
        sys.stdout.write(open(path).read())
    sys.stderr.write(entry.get("stderr", ""))
    sys.exit(entry.get("exit", 0))
sys.stderr.write("stand-in kubectl: no recorded response for %s\n" % json.dumps(argv))
sys.exit(99)
