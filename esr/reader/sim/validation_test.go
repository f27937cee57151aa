package sim_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// TestValidate: the out-of-sample check recomputes the validated tables'
// cells from rows and sets each beside the registry's value.
func TestValidate(t *testing.T) {
	b := benchtest.Mini(10)
	mems := append(memory.Specs(memory.Names...), eval.CoarseControl)
	rows, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: mems, Readers: []reader.Reader{reader.Oracle{}}})
	if err != nil {
		t.Fatal(err)
	}
	cells := sim.Validate(sim.ValidationRows{RenderConfound: rows, Strata: rows}, eval.StatOptions{B: 200, Seed: 1})
	got := map[string]sim.ValidationCell{}
	for _, c := range cells {
		got[c.Table+"/"+c.Cell] = c
	}
	// The oracle on the mini bench: render 0 (both d-blind abstain), fine-d
	// mechanism 1 (the ledger recovers every reverted revert).
	if c := got["Table 2/render"]; c.Paper != 0.159 || c.Ours != 0 || math.Abs(c.Error()+0.159) > 1e-12 {
		t.Errorf("Table 2 render cell %+v", c)
	}
	if c := got["Table 2/fine-d mechanism"]; c.Ours != 1 || c.Paper != 0.025 {
		t.Errorf("Table 2 fine-d cell %+v", c)
	}
	if c, ok := got["Table 5/reverted_revert fine-ledger"]; !ok || c.Ours != 1 || c.Paper != 0.408 {
		t.Errorf("Table 5 cell %+v", c)
	}
	tab := sim.ValidationTable(cells, "the oracle")
	if !strings.Contains(tab.Markdown(), "| Table 2 | render | +0.000 | [+0.000, +0.000] | +0.159 | -0.159 | no |") {
		t.Errorf("table:\n%s", tab.Markdown())
	}
	if s := sim.ValidationSummary(cells); !strings.Contains(s, "Table 2: mean |error|") {
		t.Errorf("summary %q", s)
	}
}
