package main

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/coverage"
)

func init() {
	register("coverage", "extraction coverage: event recall, co-key recall, atoms per event, keys per stream (spec §6)", runCoverage)
}

func runCoverage(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("coverage", stderr)
	dir := fs.String("bench", "", "benchmark `DIR` (required)")
	query := fs.String("query", "", "only QAs of these query types (snapshot, provenance, relation-type; comma separated)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "bench"); err != nil {
		return err
	}
	keep, err := queryFilter(*query)
	if err != nil {
		return err
	}
	// QAs whose key has no atoms (a lossy extraction) load (Bench.Uncovered)
	// and are counted.
	b, err := openBench(*dir, stderr)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(coverage.Measure(b, keep))
}

// queryFilter keeps QAs whose type is in a comma-separated list (nil: all).
func queryFilter(list string) (func(*esr.QA) bool, error) {
	want := map[esr.QueryType]bool{}
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		t, err := esr.ParseQueryType(s)
		if err != nil {
			return nil, err
		}
		want[t] = true
	}
	if len(want) == 0 {
		return nil, nil
	}
	return func(q *esr.QA) bool { return want[q.Type()] }, nil
}
