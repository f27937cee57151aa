#!/usr/bin/python3
"""Executes notebooks with their kernels and checks the executed copies.

    /usr/bin/python3 scripts/nbexec.py --outdir DIR [--jobs N] [--timeout T] SOURCE.ipynb...

What `jupyter nbconvert --to notebook --execute --allow-errors` does, through
nbclient (the library nbconvert's ExecutePreprocessor is built on), without
nbconvert's start-up. The kernel runs in the source's folder (as under
nbconvert, so a notebook's ${GONB_DIR} is notebooks/); every cell runs even
after one fails; each cell may run T seconds (default 600). The
executed copy is then checked with scripts/nbcheck.py's rules.

The SOURCEs run N at a time (default 1) in this one process,
started in the order given: scripts/run-notebooks.sh runs them so, which
spares each notebook a Python start-up and nbclient's imports (about 0.3 s
of CPU each). Each notebook's executed copy goes to DIR/NAME.ipynb, its
kernel's output (GoNB's log) and any error to DIR/NAME.log, and "ok SECS" or
"FAIL SECS" to DIR/NAME.status; a line says how each ended, and a failing
notebook's cells (nbcheck.py) or the end of its log are printed on stderr.
The exit status is 0 when every notebook passed, 1 otherwise.
"""
import asyncio
import os
import re
import sys
import time
import traceback

import nbformat
from nbclient import NotebookClient

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nbcheck  # noqa: E402  (scripts/nbcheck.py, beside this file)

LOG_TAIL = 25
GONB_LOG = re.compile(r"^[IWE][0-9]{4} ")  # GoNB's own log lines, left out of a failure's tail


def client_for(src, timeout):
    nb = nbformat.read(src, as_version=4)
    return nb, NotebookClient(
        nb,
        timeout=timeout,
        allow_errors=True,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(src))}},
    )


def write_copy(nb, out):
    tmp = out + ".tmp"
    nbformat.write(nb, tmp)
    os.replace(tmp, out)  # a reader never sees half a copy


async def run_in(src, outdir, timeout, slots):
    """Runs src in its turn and reports it; True when it passed."""
    async with slots:
        name = os.path.splitext(os.path.basename(src))[0]
        out = os.path.join(outdir, name + ".ipynb")
        log_path = os.path.join(outdir, name + ".log")
        start = time.monotonic()
        with open(log_path, "w") as log:
            status = "ok"
            try:
                nb, client = client_for(src, timeout)
                # The kernel writes to the notebook's log, as it did when
                # each notebook had a process of its own.
                await client.async_execute(stdout=log, stderr=log)
                await asyncio.to_thread(write_copy, nb, out)
            except Exception:
                traceback.print_exc(file=log)
                status = "dead"
        # Off the event loop: the other notebook's kernel keeps being served.
        if status == "ok" and await asyncio.to_thread(nbcheck.check, out, src):  # prints the failing cells
            status = "cells"
        secs = f"{time.monotonic() - start:.1f}"
        with open(os.path.join(outdir, name + ".status"), "w") as f:
            f.write(("ok " if status == "ok" else "FAIL ") + secs + "\n")
        if status == "ok":
            print(f"ok   {src:<40} {secs:>6}s", flush=True)
        elif status == "cells":
            print(f"FAIL {src} ({secs}s); executed copy: {out}", file=sys.stderr, flush=True)
        else:
            with open(log_path, errors="replace") as f:
                lines = [l.rstrip("\n") for l in f if not GONB_LOG.match(l)]
            print(f"FAIL {src}: the notebook did not run to its end after {secs}s; end of {log_path}:", file=sys.stderr)
            for l in lines[-LOG_TAIL:]:
                print(f"    {l}", file=sys.stderr)
            sys.stderr.flush()
        return status == "ok"


async def run_many(srcs, outdir, jobs, timeout):
    slots = asyncio.Semaphore(jobs)
    results = await asyncio.gather(*(run_in(src, outdir, timeout, slots) for src in srcs))
    return 0 if all(results) else 1


def main(argv):
    args = argv[1:]
    opts = {"--outdir": None, "--jobs": "1", "--timeout": "600"}
    while len(args) >= 2 and args[0] in opts:
        opts[args[0]], args = args[1], args[2:]
    if not args or opts["--outdir"] is None or not opts["--jobs"].isdigit() or int(opts["--jobs"]) < 1 \
            or not opts["--timeout"].isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(opts["--outdir"], exist_ok=True)
    return asyncio.run(run_many(args, opts["--outdir"], int(opts["--jobs"]), int(opts["--timeout"])))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
