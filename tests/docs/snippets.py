"""Every snippet the docs show is a file the tests use, so the two cannot drift apart.

A Markdown file marks a fenced block with a comment on the line before it:

    <!-- snippet: docs/examples/pre-commit-config.yaml (anything after the path) -->
    ```yaml
    ...
    ```

and the block must be that file, byte for byte (the end-of-file newline aside). The
tests that run the integrations read the same files. One TAP point per marked block, in README.md and
docs/**/*.md; a marker without a block, or naming a missing file, fails.

    snippets.py SOURCE_ROOT
"""
import pathlib
import re
import sys

MARKER = re.compile(r"<!-- snippet: (\S+)")


def blocks(markdown):
    """(line number, path, block text or None) for each marker."""
    lines = markdown.split("\n")
    for number, line in enumerate(lines, start=1):
        found = MARKER.search(line)
        if not found:
            continue
        text = None
        if number < len(lines) and lines[number].startswith("```"):
            fence = re.match(r"`{3,}", lines[number]).group(0)
            end = next((i for i in range(number + 1, len(lines)) if lines[i] == fence), None)
            if end is not None:
                text = "\n".join(lines[number + 1:end]) + "\n"
        yield number, found.group(1), text


def main(root):
    root = pathlib.Path(root)
    documents = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    points = []
    for document in documents:
        for line, path, text in blocks(document.read_text()):
            where = f"{document.relative_to(root)}:{line}"
            target = root / path
            if text is None:
                points.append((False, f"{where} shows {path}", ["no fenced block follows the marker"]))
            elif not target.is_file():
                points.append((False, f"{where} shows {path}", [f"{path} does not exist"]))
            else:
                want = target.read_text()
                same = text.rstrip("\n") == want.rstrip("\n")
                detail = [] if same else ["the block:", *text.splitlines(), f"{path}:", *want.splitlines()]
                points.append((same, f"{where} shows {path} as it is", detail))
    print(f"1..{len(points)}")
    for number, (ok, description, detail) in enumerate(points, start=1):
        print(f"{'ok' if ok else 'not ok'} {number} - {description}")
        for line in detail:
            print(f"#   {line}")
    return 0 if all(ok for ok, _, _ in points) and points else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
