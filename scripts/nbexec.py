#!/usr/bin/python3
"""Executes one notebook with its kernel and checks the executed copy.

    /usr/bin/python3 scripts/nbexec.py SOURCE.ipynb EXECUTED.ipynb [TIMEOUT]

What `jupyter nbconvert --to notebook --execute --allow-errors` does, through
nbclient (the library nbconvert's ExecutePreprocessor is built on), without
nbconvert's start-up: about 0.8 s of the 2 s a GoNB kernel takes to start,
run nothing and stop, on every notebook scripts/run-notebooks.sh runs. The
kernel runs in the source's folder (as under nbconvert, so a notebook's
${GONB_DIR} is notebooks/); every cell runs even after one fails; each cell
may run TIMEOUT seconds (default 600). The executed copy is then checked with
scripts/nbcheck.py's rules.

Exit status: 0 when every cell ran and showed what it should; 3 when the copy
was written but nbcheck.py finds failing cells (run it on EXECUTED.ipynb to
print them); 1 when the notebook could not be executed (a timeout, a dead
kernel, a missing kernel), with the reason on stderr and no copy written.
"""
import os
import sys
import traceback

import nbformat
from nbclient import NotebookClient

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nbcheck  # noqa: E402  (scripts/nbcheck.py, beside this file)


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    src, out = argv[1], argv[2]
    timeout = int(argv[3]) if len(argv) == 4 else 600
    nb = nbformat.read(src, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        allow_errors=True,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(src))}},
    )
    try:
        client.execute()
    except Exception:
        traceback.print_exc()
        return 1
    tmp = out + ".tmp"
    nbformat.write(nb, tmp)
    os.replace(tmp, out)  # a reader never sees half a copy
    if nbcheck.check(out, src):
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
