"""Does one notebook exercise as a student does, and times the reruns.

    /usr/bin/python3 scripts/nbexercise.py SPEC.json

SPEC is a JSON object:

    {"notebook": "PATH.ipynb",      # a copy in a direct subfolder of the repository root
     "out": "OUT.ipynb",            # the notebook after the exercise (rerun outputs)
     "before": "BEFORE.ipynb",      # the notebook before the edits (first run's outputs)
     "times": "TIMES.json",         # [{"cell": i, "name": rerun name, "seconds": s}, ...]
     "edits": [{"old": "...", "new": "..."}],   # each old must be in exactly one cell
     "rerun": ["..."]}              # cells to rerun after the edits, each named by a
                                    # substring of its source (after the edits), in order

It starts the notebook's kernel in the notebook's folder (as scripts/nbexec.py
does, so ${GONB_DIR}/.. is the repository), runs every cell once, writes
BEFORE, applies the edits to the cells' sources, reruns the named cells in
the same kernel, timing each from the request to its reply (GoNB builds and
runs the cell: what the student waits for), and writes OUT and TIMES. Exits 1
with the cell and its error when a cell fails or an edit or a rerun name does
not match exactly one cell.
"""
import json
import os
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def one_cell(nb, text, what):
    hits = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and text in c.source]
    if len(hits) != 1:
        raise SystemExit(f"nbexercise: {what} {text!r} is in {len(hits)} code cells, want 1")
    return hits[0]


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        spec = json.load(f)
    src = spec["notebook"]
    nb = nbformat.read(src, as_version=4)
    client = NotebookClient(nb, timeout=600, allow_errors=False,
                            resources={"metadata": {"path": os.path.dirname(os.path.abspath(src))}})
    times = []
    with client.setup_kernel():
        try:
            for i, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    client.execute_cell(cell, i)
            nbformat.write(nb, spec["before"])
            for e in spec["edits"]:
                i = one_cell(nb, e["old"], "edit")
                nb.cells[i].source = nb.cells[i].source.replace(e["old"], e["new"], 1)
            for name in spec["rerun"]:
                i = one_cell(nb, name, "rerun")
                start = time.monotonic()
                client.execute_cell(nb.cells[i], i)
                secs = time.monotonic() - start
                times.append({"cell": i, "name": name, "seconds": round(secs, 2)})
        except CellExecutionError as err:
            print(f"nbexercise: {src}: a cell failed:\n{err}", file=sys.stderr)
            return 1
    nbformat.write(nb, spec["out"])
    with open(spec["times"], "w") as f:
        json.dump(times, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
