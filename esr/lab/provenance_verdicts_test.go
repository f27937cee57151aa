package lab

import (
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// The reversal sentence says where the two intervals lie in every case:
// never "both sides of 0" for two intervals on one side.
func TestReversalWordsInEveryCase(t *testing.T) {
	for _, c := range []struct {
		name               string
		sLo, sHi, dLo, dHi float64
		want, notWant      string
	}{
		{"above then below (the paper's)", 0.02, 0.1, -0.1, -0.02, "Ours reverses too", "does not"},
		{"below then above", -0.1, -0.02, 0.02, 0.1, "Ours reverses the other way", "too"},
		{"both above", 0.02, 0.1, 0.01, 0.05, "both intervals lie above 0", "reverses"},
		{"both below (43-provenance)", -0.12, -0.05, -0.3, -0.2, "both intervals lie below 0", "both sides"},
		{"both include 0", -0.05, 0.05, -0.02, 0.03, "both intervals include 0", "lie"},
		{"state includes 0, deployed below", -0.05, 0.05, -0.3, -0.2, "the state-only interval includes 0, the deployed one lies below 0", "Ours reverses"},
		{"state above, deployed includes 0", 0.02, 0.1, -0.02, 0.03, "the deployed interval includes 0, the state-only one lies above 0", "Ours reverses"},
		{"state below, deployed includes 0", -0.1, -0.02, -0.02, 0.03, "the state-only one lies below 0", "Ours reverses"},
	} {
		got := reversalWords(c.sLo, c.sHi, c.dLo, c.dHi, 0)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.notWant) {
			t.Errorf("%s: %q, want %q and not %q", c.name, got, c.want, c.notWant)
		}
	}
}

// DeployedReversalVerdict on rows where fine-ledger trails coarse-retain
// under both renders (as in notebook 43) says both intervals lie below 0.
func TestDeployedReversalVerdictBothBelowZero(t *testing.T) {
	var rows []eval.Outcome
	for _, cond := range []eval.Variant{eval.StateOnly, eval.DeployedRender} {
		for q := 0; q < 80; q++ {
			for _, m := range []memory.Class{memory.FineLedger, memory.CoarseRetain} {
				right := m == memory.CoarseRetain || q%4 == 0 // fine right on a quarter, coarse on all
				rows = append(rows, eval.Outcome{QID: fmt.Sprintf("q%d", q), StreamID: fmt.Sprintf("s%d", q), QueryType: "provenance",
					Memory: memory.SpecOf(m), Reader: reader.Spec{Kind: reader.KindSim, Name: "r"}, Family: reader.Family{Kind: reader.KindSim, Name: "r"}, Variant: cond, Correct: right})
			}
		}
	}
	got := DeployedReversalVerdict(rows, eval.DefaultStats)
	if got == "" {
		t.Fatal("no verdict")
	}
	if strings.Contains(got, "both sides") || !strings.Contains(got, "both intervals lie below 0") {
		t.Errorf("%q", got)
	}
}
