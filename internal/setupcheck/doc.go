// Package setupcheck holds the tests of what the README's two commands
// install: `make reproduce` only what the notebooks use, `make test` that
// plus what only the tests use (scripts/setup.sh).
package setupcheck
