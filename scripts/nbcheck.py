#!/usr/bin/python3
"""Reports the cells of executed notebooks that raised an error, or that call a
display helper (nbhelp.Show*, nbhelp.Markdown, nbhelp.HTML, show) and show nothing.

    /usr/bin/python3 scripts/nbcheck.py EXECUTED.ipynb [LABEL]

Prints one block per failing cell (index, first lines of its source, the error and
the text GoNB printed for it: compiler messages, panics) and exits 1 if there is any,
0 otherwise. scripts/nbexec.py executes each notebook with every cell allowed to fail and
then applies check() to the copy, which prints the failures, because GoNB reports a
compile error's details only in the cell's (HTML) output, which an execution error's own
message leaves out.

    /usr/bin/python3 scripts/nbcheck.py --clean SOURCE.ipynb...

Warns (exit 0) about committed notebooks that carry outputs.
"""
import html.parser
import re
import sys

import nbformat

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
MAX_LINES = 25


class _Text(html.parser.HTMLParser):
    """Collects an HTML fragment's text, leaving out <style> and <script>."""

    def __init__(self):
        super().__init__()
        self.skip, self.parts = 0, []

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("style", "script"):
            self.skip = max(0, self.skip - 1)

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def html_text(fragment):
    p = _Text()
    p.feed(fragment)
    return "".join(p.parts)


def squeeze(text):
    lines = [ANSI.sub("", l).rstrip() for l in text.splitlines()]
    lines = [l for l in lines if l.strip()]
    if len(lines) > MAX_LINES:
        lines = lines[:MAX_LINES] + [f"... ({len(lines) - MAX_LINES} more lines)"]
    return lines


def cell_report(cell):
    """Returns the lines that explain a failing cell's error."""
    lines = []
    for out in cell.get("outputs", []):
        kind = out.get("output_type")
        if kind == "stream" and out.get("name") == "stderr":
            lines += squeeze(out.get("text", ""))
        elif kind in ("display_data", "execute_result"):
            h = out.get("data", {}).get("text/html", "")
            if "gonb-err" in h:  # GoNB's HTML rendering of compiler errors
                lines += squeeze(html_text(h))
        elif kind == "error":
            lines += squeeze("\n".join(out.get("traceback") or [])) or [
                f"{out.get('ename')}: {out.get('evalue')}"
            ]
    return lines


# A code cell calling one of these must display something; an executed cell
# that shows nothing lost its output (e.g. a display that never reached the
# front end).
DISPLAYS = re.compile(r"\bnbhelp\.(Show\w*|Markdown|HTML)\(|\bshow\(")


def silent(cell):
    """True when a code cell that runs (GoNB's %% body, not declarations)
    and calls a display helper has no output."""
    if not cell.source.lstrip().startswith("%%") or not DISPLAYS.search(cell.source):
        return False
    return not any(o.get("output_type") in ("display_data", "execute_result", "stream") for o in cell.get("outputs", []))


def check(path, label):
    nb = nbformat.read(path, as_version=4)
    failed = 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if silent(cell):
            failed += 1
            print(f"FAIL {label}: cell {i} (code cell #{cell_number(nb, i)}) calls a display helper but shows nothing", file=sys.stderr)
            for l in cell.source.splitlines()[:6]:
                print(f"    | {l}", file=sys.stderr)
            continue
        if not any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
            continue
        failed += 1
        src = cell.source.splitlines()
        print(f"FAIL {label}: cell {i} (code cell #{cell_number(nb, i)}) raised an error", file=sys.stderr)
        for l in src[:6]:
            print(f"    | {l}", file=sys.stderr)
        if len(src) > 6:
            print(f"    | ... ({len(src) - 6} more lines)", file=sys.stderr)
        for l in cell_report(cell):
            print(f"    > {l}", file=sys.stderr)
    return failed


def cell_number(nb, index):
    """1-based position of cell index among the code cells."""
    return sum(1 for c in nb.cells[: index + 1] if c.cell_type == "code")


def warn_outputs(paths):
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if any(c.get("outputs") for c in nb.cells if c.cell_type == "code"):
            print(
                f"warning: {path} is committed with outputs; clear them with\n"
                f"    /usr/bin/jupyter nbconvert --clear-output --inplace {path}",
                file=sys.stderr,
            )


def main(argv):
    if len(argv) >= 2 and argv[1] == "--clean":
        warn_outputs(argv[2:])
        return 0
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    return 1 if check(argv[1], argv[2] if len(argv) == 3 else argv[1]) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
