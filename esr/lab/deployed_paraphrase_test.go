package lab

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
	"github.com/esrkit/esrkit/internal/report"
	"gonum.org/v1/plot/vg"
)

// On reverted-revert snapshots, graphiti under dup=1 does not move with the
// paraphrase rate (the LLM duplicate judgement reuses the closed edge when
// the fast path does not), graphiti@dup=0 rises from the template's score,
// and mem0-v3's read-out stays d-blind (0: both values live). On the
// clean preset, where every reverted revert's three values were extracted
// (on the bundled bench a lost middle value leaves one live value, which
// any read-out answers).
func TestParaphraseCurve(t *testing.T) {
	b := benchtest.CleanSubset(t, 120)
	r, err := sim.NewScripted("time-sorter")
	if err != nil {
		t.Fatal(err)
	}
	rates := []float64{0, 0.5, 1}
	c, err := EvaluateParaphraseCurve(context.Background(), b, ParaphraseSeries, rates, []reader.Reader{r})
	if err != nil {
		t.Fatal(err)
	}
	acc := func(s, g string, rate float64) float64 { return c.point(memory.MustParseSpec(s), g, rate).Acc.Acc }
	dup0 := ParaphraseSeries[1]
	if c.point(memory.SpecOf(memory.Graphiti), OracleGroup, 0).Acc.N == 0 {
		t.Fatal("no reverted-revert snapshot rows")
	}
	for _, rate := range rates {
		if acc(memory.Graphiti, OracleGroup, rate) != acc(memory.Graphiti, OracleGroup, 0) {
			t.Errorf("graphiti (dup=1) oracle moves with paraphrase: %v at %v", acc(memory.Graphiti, OracleGroup, rate), rate)
		}
		if acc(memory.Mem0V3, OracleGroup, rate) != 0 {
			t.Errorf("mem0-v3 oracle %v at %v, want 0 (d-blind)", acc(memory.Mem0V3, OracleGroup, rate), rate)
		}
	}
	if acc(dup0.String(), OracleGroup, 0) != acc(memory.Graphiti, OracleGroup, 0) || acc(dup0.String(), OracleGroup, 0.5) <= acc(dup0.String(), OracleGroup, 0)+0.2 {
		t.Errorf("graphiti@dup=0 oracle: %v at 0 (graphiti %v), %v at 0.5", acc(dup0.String(), OracleGroup, 0), acc(memory.Graphiti, OracleGroup, 0), acc(dup0.String(), OracleGroup, 0.5))
	}
	if acc(memory.Mem0V3, ReadersGroup, 1) <= acc(memory.Mem0V3, ReadersGroup, 0) {
		t.Errorf("mem0-v3 read by the time-sorter: %v at 0, %v at 1: the kept restatement should help", acc(memory.Mem0V3, ReadersGroup, 0), acc(memory.Mem0V3, ReadersGroup, 1))
	}
	tb := c.Table()
	if len(tb.Rows) != 2*len(ParaphraseSeries)+2 || !strings.Contains(tb.Markdown(), "| graphiti@dup=0 | dup=0, seed=0 | oracle read-out |") {
		t.Errorf("table:\n%s", tb.Markdown())
	}
	ss := c.Sentences()
	if len(ss) != len(ParaphraseSeries)+1 || !strings.Contains(ss[len(ss)-1], "At paraphrase=0.5 on bench, graphiti@dup=0 (dup=0, seed=0) and graphiti (dup=1, seed=0) differ only in dup: the oracle read-out") || !strings.Contains(ss[0], "graphiti with dup=1, seed=0") || !strings.Contains(ss[3], "dedup-k=10, created-at=ingestion, skip=0, seed=0") {
		t.Errorf("sentences %q", ss)
	}
	svg, err := report.SVG(c.Plot(OracleGroup), 16*vg.Centimeter, 10*vg.Centimeter)
	if err != nil || !strings.Contains(string(svg), "graphiti@dup=0 (dup=0)") || !strings.Contains(string(svg), "d-blind baseline") {
		t.Errorf("plot lacks its legend (%v)", err)
	}
}

// The template names reproduce the kit's earlier build, and
// AssumptionsTable states every class's assumptions beside its scores.
func TestAssumptionsTable(t *testing.T) {
	for c, want := range map[string]string{
		memory.Graphiti:                                   "graphiti@paraphrase=0",
		memory.Mem0V3 + "@skip=0.5":                       "mem0-v3@paraphrase=0@dedup-k=all@created-at=event@skip=0.5", // parameters in the spec's order
		memory.Mem0Update + "@paraphrase=0.3~render-only": "mem0-update@paraphrase=0@dedup-k=all@created-at=event~render-only",
		memory.FineLedger:                                 memory.FineLedger,
	} {
		if got := TemplateName(memory.MustParseSpec(c)).String(); got != want {
			t.Errorf("TemplateName(%s) = %s, want %s", c, got, want)
		}
	}
	b := benchtest.Subset(t, "synthetic", 40)
	tb, ss, err := AssumptionsTable(context.Background(), b, []memory.Spec{TemplateName(memory.SpecOf(memory.Mem0V3)), memory.SpecOf(memory.Mem0V3)}, []reader.Reader{reader.Oracle{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Rows) != 3 || len(ss) != 2 || !strings.Contains(ss[1], "mem0-v3 (paraphrase=0.5, dedup-k=10, created-at=ingestion, skip=0, seed=0) scores") {
		t.Errorf("%s\n%q", tb.Markdown(), ss)
	}
	if pt := DeployedParamsTable(); len(pt.Rows) != len(memory.ClassParams(memory.Graphiti))+len(memory.ClassParams(memory.Mem0V3)) {
		t.Errorf("parameter table:\n%s", pt.Markdown())
	}
}
