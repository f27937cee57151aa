package sim

import (
	"context"
	"testing"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// suiteInputs are the renders a suite reads for the first n streams of
// the bundled synthetic bench: each question through four memories.
func suiteInputs(tb testing.TB, n int) []reader.Input {
	b := benchtest.Subset(tb, "synthetic", n)
	var ins []reader.Input
	for _, q := range b.QAs {
		s := b.Stream(q.StreamID)
		k, ok := q.Locate(b.Atoms[q.StreamID])
		if !ok {
			continue
		}
		for _, m := range []memory.Class{memory.FineLedger, memory.GraphRAGAbstain, memory.RenderOnly, memory.DirectContext} {
			ctx := memory.MustBuild(memory.SpecOf(m), s, b.Atoms[q.StreamID], memory.Options{}).Render(q.Query(k))
			ins = append(ins, reader.Input{QID: q.QID, Question: q.Question, QueryType: q.QueryType, Context: ctx, MayAbstain: true, Memory: memory.SpecOf(m)})
		}
	}
	return ins
}

// TestWordMemoChangesNoAnswer: the calibrated panel gives the same outputs
// with the word-set memo on and off.
func TestWordMemoChangesNoAnswer(t *testing.T) {
	ins := suiteInputs(t, 20)
	read := func() []reader.Output {
		var out []reader.Output
		for _, r := range CalibratedPanel() {
			for _, in := range ins {
				o, err := r.Read(context.Background(), in)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, o)
			}
		}
		return out
	}
	defer func() { memoWords = true }()
	memoWords = true
	with := read()
	memoWords = false
	without := read()
	if len(with) != len(without) || len(with) == 0 {
		t.Fatalf("%d outputs with the memo, %d without", len(with), len(without))
	}
	for i := range with {
		if with[i] != without[i] {
			t.Fatalf("output %d: %+v with the memo, %+v without", i, with[i], without[i])
		}
	}
}

// BenchmarkReadSuiteRenders: the calibrated panel reading a suite's
// renders (40 streams of the bundled bench, four memories), with the
// word-set memo and without it (the baseline, same run).
func BenchmarkReadSuiteRenders(b *testing.B) {
	ins := suiteInputs(b, 40)
	panel := CalibratedPanel()
	for _, c := range []struct {
		name string
		memo bool
	}{{"nomemo", false}, {"memo", true}} {
		b.Run(c.name, func(b *testing.B) {
			memoWords = c.memo
			defer func() { memoWords = true }()
			for b.Loop() {
				for _, r := range panel {
					for _, in := range ins {
						if _, err := r.Read(context.Background(), in); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		})
	}
}
