package lab_test

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
)

func TestDecompositionWithOracle(t *testing.T) {
	b := benchtest.Mini(20)
	mems := append(memory.Specs(memory.Names...), eval.CoarseControl)
	rows, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: mems, Readers: []reader.Reader{reader.Oracle{}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 60*10 {
		t.Fatalf("%d rows, want 600", len(rows))
	}
	rr := eval.And(eval.QueryType(esr.Snapshot), eval.Phenomenon("reverted_revert"))
	cs, err := lab.RenderMatchedTerms(rows, rr, eval.StatOptions{B: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The oracle is render-invariant: render-only and graphrag-abstain both
	// abstain on a reverted revert (d-blind state), so the render term is 0;
	// the ledger and coarse invalidation recover the value. Coarse's own
	// control abstains like the ledger's (the one d-blind rule), so the
	// layout term is 0 and the paper's coarse term is all mechanism.
	want := map[string]float64{eval.TermRender.Label: 0, eval.TermFineMechanism.Label: 1,
		eval.TermCoarsePaper.Label: 1, eval.TermCoarseMatched.Label: 1, eval.TermCoarseLayout.Label: 0}
	for _, c := range cs {
		if c.Family != (reader.Family{Kind: reader.KindOracle}) {
			t.Errorf("single family labelled %q", c.Family)
		}
		if math.Abs(c.Delta-want[c.Label]) > 1e-12 || c.N != 20 {
			t.Errorf("%s: Δ=%v n=%d, want %v n=20", c.Label, c.Delta, c.N, want[c.Label])
		}
	}
	if s := lab.CoarseSplit(cs); !strings.Contains(s, "add up to the paper's term") || !strings.Contains(s, "The matched mechanism carries it (+1.000") {
		t.Errorf("coarse split: %s", s)
	}
	tab := lab.Table2(cs, "reverted-revert", rows)
	if !strings.Contains(tab.Markdown(), "| render | 20 | +0.000 | [+0.000, +0.000] | 0 / 0 |") {
		t.Errorf("table 2:\n%s", tab.Markdown())
	}
	// Table 3 per stratum: on cross-source conflict the fine ledger abstains
	// (correct) and render-only abstains too: residual 0.
	t3, cs3, err := lab.Table3(rows, eval.StatOptions{B: 500})
	if err != nil || len(cs3) != 2 {
		t.Fatalf("table 3: %v, %d strata", err, len(cs3))
	}
	_ = t3
	// Provenance: discard cannot answer; retain and fine can.
	acc := eval.ProvenanceAccuracy(rows, paper.RetentionClasses, eval.StateOnly)
	got := map[string]float64{}
	for _, a := range acc {
		got[a.Memory.String()] = a.Acc
	}
	if got["coarse-discard"] != 0 || got["coarse-retain"] != 1 || got["fine-ledger"] != 1 {
		t.Errorf("provenance accuracy %v", got)
	}
	if p := lab.ProvenancePlot(acc, "provenance"); p == nil {
		t.Error("no figure")
	}
}

// Table2Of, from only the reverted-revert snapshot rows, is the suite's
// own Table 2 and its comparisons (pooled and per family), byte for byte.
func TestTable2OfIsTheSuitesTable2(t *testing.T) {
	b := benchtest.Mini(20)
	var rs []reader.Reader
	for _, name := range []string{"time-sorter", "naive"} {
		r, err := sim.NewScripted(name)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	opt := eval.StatOptions{B: 500, Seed: 1}
	ctx := context.Background()
	res, err := lab.SuiteRenderConfound.Suite().Run(ctx, lab.Setup{Bench: b, Readers: rs, Stats: opt})
	if err != nil {
		t.Fatal(err)
	}
	want, err := res.Table(lab.Table2Decomposition)
	if err != nil {
		t.Fatal(err)
	}
	wantCs, err := res.Terms(lab.Table2Decomposition)
	if err != nil {
		t.Fatal(err)
	}
	got, cs, err := lab.Table2Of(ctx, b, rs, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got.Markdown() != want.Markdown() {
		t.Errorf("Table2Of:\n%s\nthe suite's Table 2:\n%s", got.Markdown(), want.Markdown())
	}
	if !reflect.DeepEqual(cs, wantCs) || len(cs) != 3*len(eval.RenderMatched) {
		t.Errorf("Table2Of's %d comparisons differ from the suite's %d", len(cs), len(wantCs))
	}
}
