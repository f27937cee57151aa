#!/usr/bin/env bash
# scripts/reproduce.sh [OUTDIR [NOTEBOOK...]]: what `make reproduce` runs.
#
# Four steps, each timed on a line of its own:
#   build     the packages the notebooks' cells import, as the cells build them, and
#             esr prepare;
#   setup     what runs the notebooks headless (scripts/setup.sh --headless): Jupyter's
#             client from Debian, GoNB and goimports, if missing; `make setup` adds
#             the notebook server and nbconvert;
#   rows      every suite the notebooks read, evaluated once, with its tables
#             (esr prepare: .esr-cache/notebooks, jobs at a time, heaviest first);
#   notebooks every notebook headless (scripts/run-notebooks.sh), reading those rows.
# The steps overlap where one leaves a core idle. The Debian packages download and
# unpack while build compiles; GoNB and goimports are built after it (without cgo,
# as the library), so they find the standard library compiled, while rows computes.
# The notebooks start when setup is done: first those that read no suite's rows,
# while rows computes; a notebook whose rows are being computed waits for them (the
# row cache's lock) and then reads them. With an LLM endpoint configured, the LLM
# answers are fetched (make llm-cache) between build and rows.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
command -v go >/dev/null 2>&1 || export PATH="/usr/local/go/bin:$PATH"
export PATH="$(go env GOPATH)/bin:$PATH"

now() { date +%s.%N; }
took() { awk "BEGIN{printf \"%.0f\", $(now) - $1}"; }

# Background steps still running when a step fails are stopped.
pids=()
trap 'for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null || true; done' EXIT

tsetup=$(now)
bash scripts/setup.sh --headless --debian-only &
debian=$!
pids+=("$debian")

# Built as the notebooks' cells build (scripts/run-notebooks.sh: no cgo; each
# notebook's %goflags: -tags=esr_offline), so their first cells find every package
# compiled; esr prepare is built the same way (it reads LLM answers from the
# cache only, as the notebooks do). Only what a cell can import: the tests'
# helpers (the browser tests' Chromium driver among them) are a third more to compile.
t=$(now)
CGO_ENABLED=0 go build -tags=esr_offline ./esr/... ./stats ./nbhelp
CGO_ENABLED=0 go build -tags=esr_offline -o .esr-cache/bin/esr-prepare ./cmd/esr
echo "reproduce: build $(took "$t") s"

wait "$debian" || { echo "reproduce: setup failed (its messages are above)" >&2; exit 1; }
(bash scripts/setup.sh --headless && echo "reproduce: setup $(took "$tsetup") s") &
setup=$!
pids+=("$setup")

if [ -n "${ESR_LLM_BASE_URL:-}" ] || [[ "${ESR_LLM_MODELS:-}" == *=* ]]; then
	t=$(now)
	go run ./cmd/esr run all --data data --out results --cache .esr-cache/llm
	echo "reproduce: llm-cache $(took "$t") s"
fi

trows=$(now)
(.esr-cache/bin/esr-prepare prepare && echo "reproduce: rows $(took "$trows") s") &
rows=$!
pids+=("$rows")

wait "$setup" || { echo "reproduce: setup failed (its messages are above)" >&2; exit 1; }

# The notebooks that call no nbhelp.Run start first: they need no row esr prepare is
# computing.
norows=()
for nb in notebooks/*.ipynb; do
	grep -q 'nbhelp\.Run' "$nb" || norows+=("$nb")
done
t=$(now)
nbrc=0
ESRKIT_NB_FIRST="${norows[*]}" bash scripts/run-notebooks.sh "$@" || nbrc=$?
echo "reproduce: notebooks $(took "$t") s"
wait "$rows" || { echo "reproduce: esr prepare failed (its messages are above)" >&2; exit 1; }
trap - EXIT
exit "$nbrc"
