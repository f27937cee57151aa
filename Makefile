# esrkit: the two commands are `make reproduce` and `make test` (see README.md).
# Both set up what they need first (scripts/setup.sh, idempotent, ~2 s when done).

SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c

# Go from PATH, else /usr/local/go; GoNB and goimports live in GOPATH/bin.
# (make 4.3's $(shell) does not see an exported PATH, hence the full path to go.)
GO := $(or $(shell command -v go),/usr/local/go/bin/go)
GOBIN_DIR := $(shell $(GO) env GOPATH)/bin
export PATH := $(GOBIN_DIR):$(patsubst %/,%,$(dir $(GO))):$(PATH)

# Where executed notebooks go, and which notebooks to run (default: all).
NBOUT ?= notebooks/executed
NOTEBOOKS ?=

# An LLM endpoint is configured when ESR_LLM_BASE_URL is set or ESR_LLM_MODELS has NAME=URL items.
LLM_CONFIGURED = [ -n "$${ESR_LLM_BASE_URL:-}" ] || [[ "$${ESR_LLM_MODELS:-}" == *=* ]]

.PHONY: all setup setup-test reproduce test test-race vet notebooks report report-html bench build clean llm-cache llm-dry-run calibrate

all: build

## setup: install Jupyter (Debian), the GoNB kernel and goimports, if missing: what
## the notebooks need, and nothing else
setup:
	@bash scripts/setup.sh

## setup-test: setup, plus what only the tests use: Chromium (browser tests) and
## NumPy, SciPy, statsmodels, scikit-learn (the statistics tests' reference values)
setup-test:
	@bash scripts/setup.sh --test

## reproduce: the main job: setup, build, the rows every notebook reads (esr prepare),
## then every notebook (writes figures/ and $(NBOUT)/); each step's time on a line of its own
# Evaluated rows cached by the notebooks are keyed by data, every reader's configuration,
# the judge, the options and a hash of the library's Go sources, so a rerun reuses only
# rows that the current code would compute again. Setup runs beside build and rows
# (scripts/reproduce.sh); with an LLM endpoint configured, the LLM answers are fetched
# first (llm-cache: resumable, with progress) and the notebooks read them from the cache.
reproduce:
	@bash scripts/reproduce.sh $(NBOUT) $(NOTEBOOKS)

## calibrate: refit the default readers on BENCH (default data/synthetic, the bundled bench): both stages,
## then every file that depends on the fit (the shipped calibration, its grids and validation, the model
## card, the anchor figures); minutes, since each grid refits the panel several times
BENCH ?= data/synthetic
calibrate:
	go run ./cmd/esr calibrate --bench $(BENCH) --targets paper --out esr/reader/sim/calibrated.json
	go run ./cmd/esr calibrate --bench $(BENCH) --grid sensitivity --out esr/reader/sim/calibration-sensitivity.json
	go run ./cmd/esr calibrate --bench $(BENCH) --grid identifiability --out esr/reader/sim/calibration-identifiability.json
	go run ./cmd/esr calibrate --bench $(BENCH) --grid noise --out esr/reader/sim/calibration-noise.json
	go run ./cmd/esr calibrate --bench $(BENCH) --validate --predictive 6 --out esr/reader/sim/validation-default.json
	go run ./cmd/esr calibrate --bench $(BENCH) --card --out docs/reader-model.md
	go run ./cmd/esr calibrate --figures figures
	go test ./esr/reader/sim -run TestDifferencesShowsComposition -update-differences

## llm-cache: send every LLM request the notebooks need (esr run all), resumable: stop it any
## time and run it again; progress, throughput and ETA per model on stderr; tables, rows and
## llm-summary.json in results/
llm-cache:
	go run ./cmd/esr run all --data data --out results --cache .esr-cache/llm

## llm-dry-run: what llm-cache would send, per model (requests, cached, estimated tokens)
llm-dry-run:
	go run ./cmd/esr run all --data data --cache .esr-cache/llm --dry-run

## test: go vet, every notebook headless, the static report of the executed notebooks, then
## go test with the browser tests on (its summary closes the output)
# go test runs even when a notebook or the report fails; the target fails if any did.
# The browser tests (internal/browser, headless Chromium) check the report pages in
# report/ and run a GoNB widget notebook live in the Jupyter UI; ESRKIT_BROWSER_TESTS=1
# makes a missing Chromium or Jupyter a failure instead of a skip. They run last, on
# their own: GoNB's widget channel gives the kernel 500 ms to acknowledge it
# (gonb's websocket.js), which a kernel sharing two cores with other test packages
# can miss.
test: setup-test vet
	@status=0; \
	CGO_ENABLED=0 go run -tags=esr_offline ./cmd/esr prepare || status=1; \
	bash scripts/run-notebooks.sh $(NBOUT) $(NOTEBOOKS) || status=1; \
	$(MAKE) --no-print-directory report-html || status=1; \
	ESRKIT_BROWSER_TESTS=1 ESRKIT_REPORT_DIR=$(CURDIR)/report go test $$(go list ./... | grep -v '/internal/browser$$') || status=1; \
	$(MAKE) --no-print-directory test-race || status=1; \
	ESRKIT_BROWSER_TESTS=1 ESRKIT_REPORT_DIR=$(CURDIR)/report go test ./internal/browser || status=1; \
	exit $$status

## test-race: the evaluation paths under the race detector: memory whole, eval running every
## class and the default panel in three evaluations at once, and esr prepare's runs (internal/rowcache) running every
## synthetic suite at once, each over one shared benchmark
test-race:
	CGO_ENABLED=1 go test -race ./esr/memory
	CGO_ENABLED=1 go test -race -run '^(TestConcurrentRunsShareOneBench|TestPrepareRunsSuitesAtOnce)$$' ./esr/eval ./internal/rowcache

vet:
	go vet ./...
	go vet -tags=esr_offline,esr_noimport ./cmd/esr # make reproduce's esr prepare

## report: static HTML of the executed notebooks (Debian's nbconvert, through
## scripts/jupyter-env.sh: system-wide, or .esr-tools/deb without root) with an index page,
## one card per notebook (title, paper section, thumbnail of its key figure), in report/,
## and links to the comparison pages under results/compare/ (esr compare --html);
## runs the notebooks first when none are executed yet
report: setup
	@if ! ls $(NBOUT)/*.ipynb >/dev/null 2>&1; then bash scripts/run-notebooks.sh $(NBOUT) $(NOTEBOOKS); fi
	@$(MAKE) --no-print-directory report-html

## report-html: report/ from the notebooks already executed in $(NBOUT) (no setup, no run);
## starts from an empty report/ so no page of an earlier run is left behind
report-html:
	@rm -rf report && mkdir -p report
	@for nb in $(NBOUT)/*.ipynb; do \
		bash scripts/jupyter-env.sh jupyter nbconvert --to html --log-level WARN --output-dir report "$$nb" || exit 1; \
	done
	go run ./cmd/esr report --executed $(NBOUT) --figures figures --compare results/compare --out report

## notebooks: execute the notebooks only (after `make setup`)
notebooks:
	@bash scripts/run-notebooks.sh $(NBOUT) $(NOTEBOOKS)

## bench: run all benchmarks, no tests
bench:
	go test -run='^$$' -bench=. ./...

## build: the CLI, as bin/esr
build:
	go build -o bin/esr ./cmd/esr

## clean: remove build outputs and executed notebooks (not figures/)
clean:
	rm -rf bin $(NBOUT) report
