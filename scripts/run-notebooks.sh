#!/usr/bin/env bash
# scripts/run-notebooks.sh [OUTDIR [NOTEBOOK...]]
#
# Executes notebooks headless with the GoNB kernel, from the repository root:
# every notebooks/*.ipynb, or the NOTEBOOKs given. Executed copies go to OUTDIR
# (default notebooks/executed/, gitignored) together with NAME.log, nbconvert's and
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

command -v go >/dev/null 2>&1 || export PATH="/usr/local/go/bin:$PATH"
# The kernel (gonb) and the tools it calls (go, goimports) come from this PATH.
export PATH="$(go env GOPATH)/bin:$PATH"
export ESRKIT_ROOT="$ROOT"
# No browser answers here: widget cells (40-explorer) show their view statically
# instead of waiting for one (nbhelp.NonInteractiveEnv).
export ESRKIT_NONINTERACTIVE=1
export PYDEVD_DISABLE_FILE_VALIDATION=1 # silences debugpy's "frozen modules" warning
JUPYTER=/usr/bin/jupyter                # Debian's, on /usr/bin/python3 (not pyenv's python3)
PY=/usr/bin/python3
for tool in "$JUPYTER" "$(go env GOPATH)/bin/gonb"; do
	[ -x "$tool" ] || { echo "run-notebooks: $tool missing: run 'make setup'" >&2; exit 1; }
done

mkdir -p "$OUTDIR"
"$PY" scripts/nbcheck.py --clean "${notebooks[@]}"

passed=0 failed=0 failures=()
total_start=$(date +%s.%N)
for nb in "${notebooks[@]}"; do
	name="$(basename "$nb" .ipynb)"
	log="$OUTDIR/$name.log"
	start=$(date +%s.%N)
	# --allow-errors: the executed copy is always written, and nbcheck.py reads the
	# errors (with GoNB's compiler messages) from it. A timeout or a dead kernel still
	# makes nbconvert itself fail.
	"$JUPYTER" nbconvert --to notebook --execute --allow-errors \
		--ExecutePreprocessor.timeout=600 \
		--output-dir "$OUTDIR" --output "$name" "$nb" </dev/null >"$log" 2>&1
	rc=$?
	secs=$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $start}")
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $nb: nbconvert exited $rc after ${secs}s; end of $log:" >&2
		grep -Ev '^[IWE][0-9]{4} ' "$log" | tail -n 25 | sed 's/^/    /' >&2
		failed=$((failed + 1)) failures+=("$nb")
	elif ! "$PY" scripts/nbcheck.py "$OUTDIR/$name.ipynb" "$nb"; then
		echo "FAIL $nb (${secs}s); executed copy: $OUTDIR/$name.ipynb" >&2
		failed=$((failed + 1)) failures+=("$nb")
	else
		printf 'ok   %-40s %6ss\n' "$nb" "$secs"
		passed=$((passed + 1))
	fi
done
total=$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $total_start}")
echo "notebooks: $passed passed, $failed failed (${total}s; executed copies in $OUTDIR/)"
if [ "$failed" -gt 0 ]; then
	echo "failed notebooks: ${failures[*]}" >&2
	exit 1
fi
