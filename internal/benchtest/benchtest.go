// Package benchtest builds small benchmarks for tests.
package benchtest

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/synth"
)

// Mini has n reverted-revert streams (Figure 1 shaped) and n
// cross-source conflicts, each with a snapshot and a provenance QA.
func Mini(n int) *bench.Bench {
	var streams []*esr.Stream
	atoms := map[string][]esr.Atom{}
	var qas []esr.QA
	k := bench.TimeoutKey
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("rr%d", i)
		s, a := bench.Build(id, k, []bench.Event{
			{ID: "e1", Date: "2024-01-01", Actor: "m", Value: "30 s", Text: "Set timeout = 30 s."},
			{ID: "e2", Date: "2024-02-01", Actor: "m", Value: "60 s", Text: "Update: use 60 s instead."},
			{ID: "e3", Date: "2024-03-01", Actor: "m", Value: "30 s", Text: "Correction: revert to 30 s."},
		})
		streams, atoms[id] = append(streams, s), a
		qas = append(qas,
			esr.QA{QID: id + "-s", StreamID: id, Question: bench.Figure1Question, GoldAnswer: "30 s", Phenomenon: esr.RevertedRevert, QueryType: esr.Snapshot, Entity: k.Entity, Attribute: k.Attribute},
			esr.QA{QID: id + "-p", StreamID: id, Question: "prior?", GoldAnswer: "60 s", Phenomenon: esr.RevertedRevert, QueryType: esr.Provenance, Entity: k.Entity, Attribute: k.Attribute})
		id = fmt.Sprintf("csc%d", i)
		s, a = bench.Build(id, k, []bench.Event{
			{ID: "e1", Date: "2024-01-01", Actor: "ann", Value: "30 s", Text: "It is 30 s."},
			{ID: "e2", Date: "2024-02-01", Actor: "bob", Value: "60 s", Text: "It is 60 s."},
		})
		streams, atoms[id] = append(streams, s), a
		qas = append(qas, esr.QA{QID: id + "-s", StreamID: id, Question: bench.Figure1Question, GoldAnswer: "ABSTAIN", Phenomenon: esr.CrossSourceConflict, QueryType: esr.Snapshot, Entity: k.Entity, Attribute: k.Attribute})
	}
	return bench.New(streams, atoms, qas)
}

// Data loads the bundled benchmark data/NAME of this repository.
func Data(tb testing.TB, name string) *bench.Bench {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0) // internal/benchtest/benchtest.go
	b, err := bench.Load(filepath.Join(filepath.Dir(file), "..", "..", "data", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// Subset is the first n streams of the bundled benchmark data/NAME with
// their atoms and QAs.
func Subset(tb testing.TB, name string, n int) *bench.Bench {
	tb.Helper()
	return subset(Data(tb, name), n)
}

// subset is the first n streams of b with their atoms and QAs.
func subset(b *bench.Bench, n int) *bench.Bench {
	keep := map[string]bool{}
	atoms := map[string][]esr.Atom{}
	for _, s := range b.Streams[:n] {
		keep[s.ID] = true
		atoms[s.ID] = b.Atoms[s.ID]
	}
	var qas []esr.QA
	for _, q := range b.QAs {
		if keep[q.StreamID] {
			qas = append(qas, q)
		}
	}
	return bench.New(b.Streams[:n], atoms, qas)
}

var (
	cleanOnce sync.Once
	clean     *bench.Bench
	cleanErr  error
)

// Clean is the clean preset's benchmark (`esr gen --like clean`: every
// atom extracted, equal strata, short template prose; the bundled
// data/synthetic before it took the paper's composition), generated once per
// test binary: for tests of a mechanism's behaviour that an extraction
// loss would blur.
func Clean(tb testing.TB) *bench.Bench {
	tb.Helper()
	cleanOnce.Do(func() { clean, cleanErr = synth.Generate(synth.DefaultConfig()) })
	if cleanErr != nil {
		tb.Fatal(cleanErr)
	}
	return clean
}

// CleanSubset is the first n streams of Clean with their atoms and QAs.
func CleanSubset(tb testing.TB, n int) *bench.Bench {
	tb.Helper()
	return subset(Clean(tb), n)
}
