package lab

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/report"
)

// 45's sentence sets the deployed-system model of Graphiti beside 41's
// idealised coarse-retain, each under its own name and with its own
// accuracy, computed from the two suites' rows; it fails when a suite's
// rows lack the class.
func TestReconcileCoarseNamesBothStores(t *testing.T) {
	b := bench.Figure1Bench()
	r, _ := sim.NewScripted("status-reader")
	readers := []reader.Reader{r, reader.Oracle{}}
	ctx := context.Background()
	dep, err := evaluateDeployed(ctx, b, memory.Specs(memory.Graphiti), readers)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := eval.Evaluate(ctx, b, eval.Config{Memories: paper.RenderConfoundMemories, Readers: readers})
	if err != nil {
		t.Fatal(err)
	}
	opt := eval.StatOptions{B: 100, Seed: 1}
	s, err := ReconcileCoarse(rc, dep, "figure1", opt)
	if err != nil {
		t.Fatal(err)
	}
	coarse, _ := eval.Compare(rc, eval.Term{Label: "c", A: memory.SpecOf(memory.CoarseRetain), B: paper.DeployedBaseline}, eval.RevertedRevertSnapshot, opt)
	g, _ := eval.Compare(dep, eval.Term{Label: "g", A: memory.SpecOf(memory.Graphiti), B: paper.DeployedBaseline}, eval.RevertedRevertSnapshot, opt)
	for _, want := range []string{"coarse-retain (idealised Graphiti) scores " + report.Prop(coarse.AccA),
		"graphiti (deployed-system model, full history; paraphrase=0.5, dup=1, seed=0) scores " + report.Prop(g.AccA),
		report.Signed(coarse.Delta), report.Signed(g.Delta)} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
	if strings.Contains(s, "Graphiti scores") {
		t.Errorf("a store called plain Graphiti: %q", s)
	}
	if _, err := ReconcileCoarse(dep, dep, "figure1", opt); err == nil {
		t.Error("the deployed rows as 41's: no error for the missing coarse-retain")
	}
}
