package theory

import (
	"testing"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// Proposition 2c: coarse-discard covers S_snap, coarse-retain S_prov and the
// fine ledger S_type with oracle relations; under the rule scorer the fine
// ledger loses the type rung. Each gap pairs equal lower statistics with
// different gold answers.
func TestP2cLattice(t *testing.T) {
	r := P2cLattice()
	t.Logf("%+v", r)

	want := map[[2]string]string{
		{memory.CoarseDiscard, relate.OracleName}: "S_snap",
		{memory.CoarseRetain, relate.OracleName}:  "S_prov",
		{memory.FineLedger, relate.OracleName}:    "S_type",
		{memory.FineLedger, relate.RuleName}:      "S_prov",
		{memory.LatestOnly, relate.OracleName}:    "S_snap",
	}
	seen := 0
	for _, row := range r.Rows {
		if w, ok := want[[2]string{string(row.Class), row.Relator}]; ok {
			seen++
			if got := row.Statistic(); got != w {
				t.Errorf("%s (%s) covers %s, want %s (correct %v of %d)", row.Class, row.Relator, got, w, row.Correct, row.Surfaces)
			}
		}
		if isDBlind(row.Class) && row.Covers(2) {
			t.Errorf("%s (d-blind) answers relation-type queries", row.Class)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of %d expected rows", seen, len(want))
	}
	if row, ok := r.Row(memory.FineLedger, relate.RuleName); !ok || row.Answers[2][2].Value != "refines" {
		t.Errorf("rule-scored fine ledger on u→v by SUPERSEDES: %v (%v)", row.Answers, ok)
	}
	if len(r.Gaps) != 2 {
		t.Fatalf("%d gaps, want 2", len(r.Gaps))
	}
	for _, g := range r.Gaps {
		if g.LeftStat != g.RightStat || g.LeftGold == g.RightGold || g.UpperLeft == g.UpperRight {
			t.Errorf("%s: lower %q | %q, gold %q | %q, upper %q | %q", g.Gap, g.LeftStat, g.RightStat,
				g.LeftGold, g.RightGold, g.UpperLeft, g.UpperRight)
		}
	}
}
