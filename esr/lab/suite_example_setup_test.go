package lab_test

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// exampleSetup is what the suites' examples run with: a benchmark
// generated from the clean preset with five streams per source and
// stratum (lab.Generate), two scripted readers (SIMULATED: they read a
// render by rule; they are not LLMs) and 500 bootstrap resamples.
func exampleSetup() lab.Setup {
	cfg := lab.DefaultGenConfig()
	cfg.PerStratum = 5
	b, err := lab.Generate(cfg)
	if err != nil {
		panic(err)
	}
	return lab.Setup{Bench: b, Readers: scripted("status-reader", "time-sorter"), Stats: eval.StatOptions{B: 500, Seed: 1}}
}

// scripted are the scripted readers with these profiles.
func scripted(profiles ...string) []reader.Reader {
	var rs []reader.Reader
	for _, p := range profiles {
		r, err := sim.NewScripted(p)
		if err != nil {
			panic(err)
		}
		rs = append(rs, r)
	}
	return rs
}

// bundled is the first n streams of the bundled benchmark data/NAME, with
// their atoms, relations and questions.
func bundled(name string, n int) *bench.Bench {
	full, err := bench.Load(filepath.Join("..", "..", "data", name))
	if err != nil {
		panic(err)
	}
	keep := map[string]bool{}
	atoms := map[string][]esr.Atom{}
	for _, s := range full.Streams[:n] {
		keep[s.ID], atoms[s.ID] = true, full.Atoms[s.ID]
	}
	var qas []esr.QA
	for _, q := range full.QAs {
		if keep[q.StreamID] {
			qas = append(qas, q)
		}
	}
	b := bench.New(full.Streams[:n], atoms, qas)
	b.Dir = full.Dir
	if full.Relations != nil {
		b.Relations = map[string]map[bench.AtomPair]esr.Relation{}
		for id := range keep {
			b.Relations[id] = full.Relations[id]
		}
	}
	return b
}

// show prints the columns cols of t, as a terminal shows it
// (eval.Table.Text), without its notes; rows filters its rows (nil: all).
func show(t *eval.Table, rows func(cells []string) bool, cols ...string) {
	sub := &eval.Table{Title: t.Title, Columns: cols}
	var at []int
	for _, c := range cols {
		i := slices.Index(t.Columns, c)
		if i < 0 {
			panic(fmt.Sprintf("table %s has no column %q (columns: %q)", t.ID, c, t.Columns))
		}
		at = append(at, i)
	}
	for i, r := range t.Texts() {
		if rows != nil && !rows(r) {
			continue
		}
		var cells []eval.Cell
		for _, j := range at {
			cells = append(cells, t.Rows[i][j])
		}
		sub.Rows = append(sub.Rows, cells)
	}
	fmt.Print(sub.Text())
}
