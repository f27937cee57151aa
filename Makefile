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

.PHONY: all setup reproduce test vet notebooks bench build clean

all: build

## setup: install Jupyter (Debian), the GoNB kernel and goimports, if missing
setup:
	@bash scripts/setup.sh

## reproduce: the main job: build, then execute every notebook (writes figures/ and $(NBOUT)/)
# Evaluated rows cached by the notebooks are keyed by data, every reader's configuration,
# the judge, the options and a hash of the library's Go sources, so a rerun reuses only
# rows that the current code would compute again.
reproduce: setup
	go build ./...
	@bash scripts/run-notebooks.sh $(NBOUT) $(NOTEBOOKS)

## test: go vet, every notebook headless, then go test (its summary closes the output)
# go test runs even when a notebook fails; the target fails if either did.
test: setup vet
	@status=0; \
	bash scripts/run-notebooks.sh $(NBOUT) $(NOTEBOOKS) || status=1; \
	go test ./... || status=1; \
	exit $$status

vet:
	go vet ./...

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
	rm -rf bin $(NBOUT)
