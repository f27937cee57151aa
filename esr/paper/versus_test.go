package paper_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
)

// TestVersus: the verdict compares findings (interval vs 0, and the sign
// only when it excludes 0), not signs alone. The paper's values and
// intervals are Table 2's (spec §9): render +0.159 [+0.114, +0.207], fine-d
// mechanism +0.025 [−0.005, +0.057].
func TestVersus(t *testing.T) {
	cases := []struct {
		c    eval.Comparison
		key  paper.Key
		want string
	}{
		// Ours +0.177 [+0.160, +0.193] against the paper's +0.025 (n.s.)
		// is a different finding, not "the same sign".
		{eval.Comparison{Term: eval.Term{Label: "fine-d mechanism"}, Delta: 0.177, Lo: 0.160, Hi: 0.193}, paper.T2FineMechanism,
			"same direction; the paper's value lies outside our interval and the two intervals do not overlap."},
		{eval.Comparison{Term: eval.Term{Label: "render"}, Delta: 0.100, Lo: 0.05, Hi: 0.15}, paper.T2Render, "same direction, about two thirds of the size; the paper's value lies outside our interval, though the two intervals overlap."},
		{eval.Comparison{Term: eval.Term{Label: "render"}, Delta: -0.023, Lo: -0.033, Hi: -0.014}, paper.T2Render, "opposite direction, about a fifth of the size; the paper's value lies outside our interval and the two intervals do not overlap."},
		{eval.Comparison{Term: eval.Term{Label: "render"}, Delta: 0.01, Lo: -0.02, Hi: 0.04}, paper.T2Render, "ours does not rule out 0; point estimates in the same direction, 0.06× the size; the paper's value lies outside our interval and the two intervals do not overlap."},
		{eval.Comparison{Term: eval.Term{Label: "fine-d mechanism"}, Delta: 0.01, Lo: -0.02, Hi: 0.04}, paper.T2FineMechanism, "neither rules out 0; the paper's value lies inside our interval."},
		{eval.Comparison{Term: eval.Term{Label: "fine − coarse"}, Delta: -0.06, Lo: -0.09, Hi: -0.03}, paper.F3Deployed.Key(paper.FineCoarse), "same direction, about a quarter of the paper's size; the paper's value lies outside our interval."},
		{eval.Comparison{Term: eval.Term{Label: "x"}, Delta: 0.1, Lo: 0.05, Hi: 0.15}, paper.T2.Key("no such term"), "the paper reports no value."},
	}
	for _, c := range cases {
		got := paper.Versus(c.c, c.key)
		if !strings.HasSuffix(got, c.want) {
			t.Errorf("Versus(%+v, %s) = %q, want it to end %q", c.c, c.key, got, c.want)
		}
		// Never "the same finding", and no ratio against a
		// paper value whose interval includes 0.
		if strings.Contains(got, "same finding") || c.key == paper.T2FineMechanism && strings.Contains(got, "size") {
			t.Errorf("Versus(%+v, %s) = %q weighs sign, not size", c.c, c.key, got)
		}
	}
}
