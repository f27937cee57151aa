package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// The render-confound suite's Result carries the Table 2 terms its Report
// computed, and Table2Versus words each term the paper reports once, pooled,
// in the table's order, against the paper's number.
func TestTable2TermsComeFromTheSuiteAndMeetThePaperOnce(t *testing.T) {
	rs, err := reader.ParseList("scripted:status-reader,scripted:time-sorter", llm.Setup{}, sim.Readers)
	if err != nil {
		t.Fatal(err)
	}
	s := lab.Setup{Bench: benchtest.Mini(4), Readers: rs, Stats: eval.StatOptions{B: 50}}
	rows, err := s.Evaluate(context.Background(), paper.RenderConfoundMemories, []esr.QueryType{esr.Snapshot}, s.Options, eval.Variant{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := lab.SuiteRenderConfound.Suite().Report(rows, s)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := res.Terms(lab.Table2Decomposition)
	if err != nil {
		t.Fatal(err)
	}
	want, err := lab.RenderMatchedTerms(rows, eval.RevertedRevertSnapshot, s.Stats)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != len(want) {
		t.Fatalf("the Result carries %d comparisons, RenderMatchedTerms gives %d", len(cs), len(want))
	}
	got := lab.Table2Versus(cs, rows, s.Bench.Name())
	var keyed []eval.Term
	for _, tm := range eval.RenderMatched {
		if tm.Key != "" {
			keyed = append(keyed, tm)
		}
	}
	if len(got) != len(keyed) {
		t.Fatalf("%d sentences for %d terms the paper reports: %q", len(got), len(keyed), got)
	}
	for i, tm := range keyed {
		if !strings.HasPrefix(got[i], tm.Label+": ours ") || !strings.Contains(got[i], "paper") {
			t.Errorf("sentence %d is not %s against the paper: %q", i, tm.Label, got[i])
		}
	}
	// Rows of the calibrated panel on the bench it was fitted on: each
	// term is a calibration target, and its sentence says so before the
	// numbers; on another bench it is a check again.
	fittedRows := []eval.Outcome{{Family: reader.Family{Kind: reader.KindSim, Name: sim.FitName(paper.Families[0])}}}
	for i, s := range lab.Table2Versus(cs, fittedRows, sim.Calibrated().Bench) {
		if !strings.HasPrefix(s, keyed[i].Label+", fitted to the paper's value") {
			t.Errorf("fitted sentence %d does not say fitted first: %q", i, s)
		}
	}
	for i, s := range lab.Table2Versus(cs, fittedRows, "another-bench") {
		if strings.Contains(s, "fitted") {
			t.Errorf("sentence %d on a bench the panel was not fitted on says fitted: %q", i, s)
		}
	}
	if _, err := res.Terms(lab.Table11PureMonotonic); err == nil {
		t.Error("Terms of a table the Report keeps no comparisons for: no error")
	}
}
