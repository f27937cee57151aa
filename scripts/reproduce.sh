#!/usr/bin/env bash
# scripts/reproduce.sh [OUTDIR [NOTEBOOK...]]: what `make reproduce` runs.
#
# Four steps, each timed on a line of its own:
#   build     the packages the notebooks' cells import, as the cells build them, and
#             esr prepare;
#   setup     what runs the notebooks headless: Jupyter's client from Debian, GoNB and
#             goimports (scripts/setup.sh --headless), if missing; `make setup` adds
#             the notebook server and nbconvert;
#   rows      every suite the notebooks read, evaluated once, with its tables
#             (esr prepare: .esr-cache/notebooks, jobs at a time, heaviest first);
#   notebooks every notebook headless (scripts/run-notebooks.sh), reading those rows.
# Setup runs beside rows, its output on stderr, and the notebooks wait for it. It
# starts after build, so that GoNB and goimports (built without cgo, as the library)
# find the standard library compiled rather than compiling it a second time at the
# same moment. (Measured on two cores: setup beside build, or the notebooks beside
# rows, made the whole run slower.) With an LLM endpoint configured, the LLM
# answers are fetched (make llm-cache) between build and rows.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
command -v go >/dev/null 2>&1 || export PATH="/usr/local/go/bin:$PATH"
export PATH="$(go env GOPATH)/bin:$PATH"

now() { date +%s.%N; }
took() { awk "BEGIN{printf \"%.0f\", $(now) - $1}"; }

# Built as the notebooks' cells build (scripts/run-notebooks.sh: no cgo; each
# notebook's %goflags: -tags=esr_offline), so their first cells find every package
# compiled; esr prepare is built the same way (it reads LLM answers from the
# cache only, as the notebooks do). Only what a cell can import: the tests'
# helpers (the browser tests' Chromium driver among them) were 17.6 s more of a
# cold build on two cores.
t=$(now)
CGO_ENABLED=0 go build -tags=esr_offline ./esr/... ./stats ./nbhelp
# (esr_noimport: without `esr import`, whose SQLite driver was 22.7 s more)
CGO_ENABLED=0 go build -tags=esr_offline,esr_noimport -o .esr-cache/bin/esr-prepare ./cmd/esr
echo "reproduce: build $(took "$t") s"

t=$(now)
(bash scripts/setup.sh --headless && echo "reproduce: setup $(took "$t") s") &
setup=$!
# A failed rows step stops here; setup is not left running.
trap 'kill "$setup" 2>/dev/null || true' EXIT

if [ -n "${ESR_LLM_BASE_URL:-}" ] || [[ "${ESR_LLM_MODELS:-}" == *=* ]]; then
	t=$(now)
	go run ./cmd/esr run all --data data --out results --cache .esr-cache/llm
	echo "reproduce: llm-cache $(took "$t") s"
fi

t=$(now)
.esr-cache/bin/esr-prepare prepare
echo "reproduce: rows $(took "$t") s"

wait "$setup" || { echo "reproduce: setup failed (its messages are above)" >&2; exit 1; }
trap - EXIT

t=$(now)
bash scripts/run-notebooks.sh "$@"
echo "reproduce: notebooks $(took "$t") s"
