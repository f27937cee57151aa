package lab_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/relate"
)

func TestLedgerStepsFigure1(t *testing.T) {
	s, atoms := bench.Figure1()
	tab := lab.LedgerSteps(s, atoms, relate.Rule{})
	if len(tab.Rows) != 3 {
		t.Fatalf("%d steps", len(tab.Rows))
	}
	last := tab.Texts()[2]
	if last[5] != "{a3=30 s}" || last[6] != "ok" || last[7] != "30 s" || last[8] != "a1; a2" {
		t.Errorf("last step %v", last)
	}
	if !strings.Contains(tab.Rows[1][4].Text, "a1→a2 SUPERSEDES") {
		t.Errorf("step 2 relations %q", tab.Rows[1][4].Text)
	}
}

// Coarse steps beside ⊕'s on the L2 example: the contradiction closes the
// older edge in coarse-retain, which answers the newer value.
func TestCoarseSteps(t *testing.T) {
	tier := bench.Tiers()[1]
	tab := lab.CoarseSteps(tier.Stream, tier.Atoms, relate.Rule{})
	if len(tab.Rows) != len(tier.Atoms) {
		t.Fatalf("%d steps for %d atoms", len(tab.Rows), len(tier.Atoms))
	}
	last := tab.Texts()[len(tab.Rows)-1]
	if !strings.Contains(strings.Join(last, " "), "closes 1 edge") || last[len(last)-1] == esr.AbstainText {
		t.Errorf("last step %v: want the contradiction to close the older edge and an answer", last)
	}
}
