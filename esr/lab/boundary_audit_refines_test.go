package lab_test

import (
	"math"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/synth"
)

// On the bundled synthetic benchmark the rule scorer's containment cue finds
// the qualifier refinements (superstrings) and none of the others, so its
// pooled REFINES recall is at most the qualifiers' share; the audit reads
// kinds only from the QA rationales, never through the scorer.
func TestRefinesAuditRuleScorer(t *testing.T) {
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	scores := lab.RefinesAudit(b, relate.Rule{}, lab.RefinementKinds(b))
	by := map[string]lab.RefinesScore{}
	for _, s := range scores {
		by[s.Group] = s
	}
	if scores[0].Group != lab.AllPairs {
		t.Errorf("first group %q, want %q", scores[0].Group, lab.AllPairs)
	}
	all, q := by[lab.AllPairs], by[string(synth.RefineQualifier)]
	if q.Gold == 0 || q.Hits != q.Gold {
		t.Errorf("qualifier refinements: %d of %d found, want all", q.Hits, q.Gold)
	}
	for _, k := range synth.RefineKinds {
		s, ok := by[string(k)]
		if !ok || s.Gold == 0 {
			t.Errorf("no gold REFINES pair of kind %s", k)
			continue
		}
		if k != synth.RefineQualifier && s.Hits != 0 {
			t.Errorf("%s: %d of %d found by value containment, want none", k, s.Hits, s.Gold)
		}
	}
	if n := by[lab.NoRefinement]; n.Gold != 0 || n.Pairs == 0 || n.Predicted != 0 {
		t.Errorf("unrefined keys: %+v, want pairs and no gold or predicted REFINES", n)
	}
	sum := 0
	for _, s := range scores[1:] {
		sum += s.Gold
	}
	if sum != all.Gold || all.Recall > float64(q.Gold)/float64(all.Gold)+1e-12 || math.IsNaN(all.Precision) {
		t.Errorf("pooled %+v: kinds sum to %d gold pairs; recall above the qualifiers' share %d/%d", all, sum, q.Gold, all.Gold)
	}
	tab, err := lab.RefinesRecallTable([][]lab.RefinesScore{scores}, "synthetic")
	if err != nil {
		t.Fatal(err)
	}
	md := tab.Markdown()
	if !strings.Contains(md, "| paper: rule scorer | all | — | — | — | — | 0.050 |") || !strings.Contains(md, "0.425") {
		t.Errorf("paper recall missing:\n%s", md)
	}
	sent := lab.RefinesRecallSentence(scores)
	if !strings.Contains(sent, "all of the qualifier refinements") || !strings.Contains(sent, "none of the precise-number") ||
		!strings.Contains(sent, "the paper's rule scorer: 0.050") {
		t.Errorf("sentence does not match the audit: %s", sent)
	}
	t.Logf("\n%s\n%s", md, sent)
}
