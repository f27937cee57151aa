#!/usr/bin/env bash
# scripts/run-notebooks.sh [OUTDIR [NOTEBOOK...]]
#
# Executes notebooks headless with the GoNB kernel, from the repository root:
# every notebooks/*.ipynb, or the NOTEBOOKs given. Executed copies go to OUTDIR
# (default notebooks/executed/, gitignored) together with NAME.log, the kernel's and
# GoNB's log; the committed notebooks are not modified. Prints the time each notebook
# took and exits non-zero if any cell raised an error, naming the notebook and cell
# with the compiler message or panic.
#
# Notebooks get ESRKIT_ROOT (the absolute repository root, see nbhelp.Root), so they
# read data/ and write figures/ wherever they are run from, and ESRKIT_NONINTERACTIVE=1,
# so that widget cells do not wait for a browser.
# Needs scripts/setup.sh to have run (make setup).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

OUTDIR="${1:-notebooks/executed}"
shift || true
if [ "$#" -gt 0 ]; then
	notebooks=("$@")
else
	shopt -s nullglob
	notebooks=(notebooks/*.ipynb)
	shopt -u nullglob
fi
if [ "${#notebooks[@]}" -eq 0 ]; then
	echo "run-notebooks: no notebooks/*.ipynb to run" >&2
	exit 1
fi
# A mistyped name is one line, before any kernel starts (not a traceback).
for nb in "${notebooks[@]}"; do
	[ -f "$nb" ] || { echo "run-notebooks: $nb: no such notebook (paths are from the repository root, e.g. notebooks/00-quickstart.ipynb)" >&2; exit 2; }
done

command -v go >/dev/null 2>&1 || export PATH="/usr/local/go/bin:$PATH"
# The kernel (gonb) and the tools it calls (go, goimports) come from this PATH.
export PATH="$(go env GOPATH)/bin:$PATH"
export ESRKIT_ROOT="$ROOT"
# No browser answers here: widget cells (40-explorer) show their view statically
# instead of waiting for one (nbhelp.NonInteractiveEnv).
export ESRKIT_NONINTERACTIVE=1
# Cells build without cgo unless the caller asks for it: nothing a notebook
# calls needs cgo, and a cell's program links faster static (README, Performance).
export CGO_ENABLED="${CGO_ENABLED:-0}"
# Debian's Python (not pyenv's python3), with Jupyter's modules wherever setup.sh
# installed them: system-wide, or without root in .esr-tools/deb.
JENV="$ROOT/scripts/jupyter-env.sh"
[ -x "$(go env GOPATH)/bin/gonb" ] || { echo "run-notebooks: $(go env GOPATH)/bin/gonb missing: run 'make setup'" >&2; exit 1; }
bash "$JENV" python3 -c 'import nbclient, nbformat' 2>/dev/null || { echo "run-notebooks: Jupyter's nbclient does not import (scripts/jupyter-env.sh python3): run 'make setup'" >&2; exit 1; }

mkdir -p "$OUTDIR"
bash "$JENV" python3 scripts/nbcheck.py --clean "${notebooks[@]}"

# Notebooks run JOBS at a time (ESRKIT_NB_JOBS, default: the number of cores). They
# share nothing they write but the row cache (.esr-cache/, whose writers take a lock:
# a second run of one suite waits for the first and then reads its rows) and figures/
# (each notebook writes its own files).
JOBS="${ESRKIT_NB_JOBS:-$(nproc 2>/dev/null || echo 1)}"
case "$JOBS" in '' | *[!0-9]* | 0) echo "run-notebooks: ESRKIT_NB_JOBS=$JOBS is not a positive integer" >&2; exit 2 ;; esac
# Each notebook's go command, linker and cell programs get its share of the
# cores (GOMAXPROCS, unless the caller set it): with every core busy running
# JOBS notebooks, a second thread each only adds GC and scheduling work. Warm,
# on two cores, four alternated pairs of whole runs took 0.79-0.95x the time
# (docs/performance.md, "The notebooks"); the outputs are the same.
if [ -z "${GOMAXPROCS:-}" ]; then
	cores="$(nproc 2>/dev/null || echo 1)"
	share=$((cores / JOBS))
	[ "$share" -ge 1 ] || share=1
	export GOMAXPROCS="$share"
fi

# Longest first: the times the last run recorded in OUTDIR/NAME.status, else
# the cold times in scripts/notebook-times.tsv (a fresh clone has no
# statuses), else first. With a few long notebooks among many short ones,
# starting the long ones early keeps the last job from running alone (in a
# fresh clone, 45-deployed started last and ran alone for minutes).
HINTS="$ROOT/scripts/notebook-times.tsv"
order=()
while IFS=$'\t' read -r _ nb; do order+=("$nb"); done < <(
	for nb in "${notebooks[@]}"; do
		name="$(basename "$nb" .ipynb)"
		secs=999999 st="$OUTDIR/$name.status"
		if [ -f "$st" ]; then
			read -r _ secs <"$st" || secs=999999
		elif [ -f "$HINTS" ]; then
			hint="$(awk -F'\t' -v n="$name" '$1 == n {print $2}' "$HINTS")"
			[ -n "$hint" ] && secs="$hint"
		fi
		printf '%s\t%s\n' "$secs" "$nb"
	done | sort -t $'\t' -k1,1gr -s
)
for nb in "${notebooks[@]}"; do rm -f "$OUTDIR/$(basename "$nb" .ipynb).status"; done
total_start=$(date +%s.%N)
# One Python process runs them all, JOBS at a time, in this order (nbexec.py
# --outdir): nbclient's imports and Python's start-up once, not per notebook.
# Each notebook's executed copy, kernel log (NAME.log) and status (NAME.status:
# "ok SECS" or "FAIL SECS") go to OUTDIR; nbexec.py prints a line as each
# ends, and a failing notebook's cells (nbcheck.py: errors, with GoNB's
# compiler messages, and display cells that showed nothing) or the end of its
# log when it did not run to its end (a timeout, a dead kernel).
bash "$JENV" python3 scripts/nbexec.py --outdir "$OUTDIR" --jobs "$JOBS" --timeout 600 "${order[@]}" </dev/null
total=$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $total_start}")

# The summary, in the order the notebooks were given.
passed=0 failed=0 failures=() sum=0
for nb in "${notebooks[@]}"; do
	name="$(basename "$nb" .ipynb)"
	status=FAIL secs=0
	[ -f "$OUTDIR/$name.status" ] && read -r status secs <"$OUTDIR/$name.status"
	sum=$(awk "BEGIN{printf \"%.1f\", $sum + $secs}")
	if [ "$status" = ok ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1)) failures+=("$nb")
	fi
done
echo "notebooks: $passed passed, $failed failed (${total}s wall, ${sum}s summed over notebooks, $JOBS at a time; executed copies in $OUTDIR/)"
if [ "$failed" -gt 0 ]; then
	echo "failed notebooks: ${failures[*]}" >&2
	exit 1
fi
