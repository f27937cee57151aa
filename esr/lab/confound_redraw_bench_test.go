package lab_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

var (
	redrawOnce sync.Once
	redrawRows []eval.Outcome
	redrawErr  error
)

// renderConfoundRows evaluates the render-confound suite on the bundled
// synthetic bench with the notebooks' simulated families, once per test
// binary: the cached rows a notebook control redraws from.
func renderConfoundRows(b *testing.B) []eval.Outcome {
	b.Helper()
	redrawOnce.Do(func() {
		bn, err := bench.Load("../../data/synthetic")
		if err != nil {
			redrawErr = err
			return
		}
		var rs []reader.Reader
		for _, name := range lab.ScriptedFamilies {
			r, err := reader.Parse(name, llm.Setup{}, sim.Readers)
			if err != nil {
				redrawErr = err
				return
			}
			rs = append(rs, r)
		}
		redrawRows, redrawErr = lab.SuiteRenderConfound.Suite().Evaluate(context.Background(), lab.Setup{Bench: bn, Readers: rs})
	})
	if redrawErr != nil {
		b.Fatal(redrawErr)
	}
	return redrawRows
}

// BenchmarkDecompositionFromRows measures the recompute path of a notebook
// control change: Table 2 (lab.RenderMatchedTerms: the render-matched
// terms, eval.RenderMatched, pooled and per family: 30 paired comparisons
// with the question-clustered bootstrap for the five scripted families) from the render-confound suite's cached
// rows (evaluated once, outside the timer), at the default B = 10,000 and
// at the smaller B of eval.InteractiveStats. Each sub-benchmark
// reports
//
//   - s/redraw: seconds per recompute (the budget is 1 s);
//   - x-pairing: the ratio to a baseline measured in the same run, the
//     same comparisons' pairing alone (eval.PairedByQuestion, no
//     bootstrap): how much of a redraw is the bootstrap.
//
// Run: go test ./esr/lab -run '^$' -bench DecompositionFromRows -benchtime 5x
func BenchmarkDecompositionFromRows(b *testing.B) {
	rows := renderConfoundRows(b)
	rr := eval.RevertedRevertSnapshot
	fams := eval.Distinct(eval.Select(rows, rr), func(o *eval.Outcome) reader.Family { return o.Family })
	pairing := func() {
		for _, fam := range append([]reader.Family{{}}, fams...) {
			f := rr
			if fam != (reader.Family{}) {
				f = eval.And(rr, eval.Family(fam))
			}
			for _, t := range eval.RenderMatched {
				eval.Paired(rows, t.A, t.B, f)
			}
		}
	}
	// The baseline, timed in this run.
	const reps = 20
	t0 := time.Now()
	for range reps {
		pairing()
	}
	base := float64(time.Since(t0).Nanoseconds()) / reps
	for _, c := range []struct {
		name string
		opt  eval.StatOptions
	}{{"B=10000", eval.DefaultStats}, {"interactive", eval.InteractiveStats}} {
		b.Run(c.name, func(b *testing.B) {
			var cs []eval.Comparison
			for b.Loop() {
				var err error
				if cs, err = lab.RenderMatchedTerms(rows, rr, c.opt); err != nil {
					b.Fatal(err)
				}
			}
			if len(cs) != len(eval.RenderMatched)*(len(fams)+1) {
				b.Fatalf("%d comparisons", len(cs))
			}
			per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(per/1e9, "s/redraw")
			b.ReportMetric(per/base, "x-pairing")
		})
	}
}
