package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

func TestTierPlotGolden(t *testing.T) {
	goldenimg.Check(t, lab.TierPlot(), "figure2-tiers")
}

// TestTierAnswers: the paper's Figure 2 reading on the kit's examples.
// The d-blind store cannot settle the L3 revert; only the fine ledger
// abstains on the unresolved L2 conflict and answers the L3 revert.
func TestTierAnswers(t *testing.T) {
	got := map[string]bool{}
	for _, a := range lab.TierAnswers() {
		got[a.Tier[:2]+" "+a.Memory] = a.Correct
	}
	if len(got) != 9 {
		t.Fatalf("%d answers, want 3 tiers × 3 memories: %v", len(got), got)
	}
	for k, want := range map[string]bool{"L3 " + memory.FineLedger: true, "L3 " + memory.GraphRAGAbstain: false, "L2 " + memory.FineLedger: true} {
		if got[k] != want {
			t.Errorf("%s correct = %v, want %v (all: %v)", k, got[k], want, got)
		}
	}
}
