package eval

import (
	"fmt"
	"math"
	"strings"

	"github.com/esrkit/esrkit/internal/report"
)

// This file writes the sentences every section says about a comparison:
// each sign, size and significance in them is computed from the comparisons
// passed in, never typed.

// Describe states one comparison: its estimate, interval and whether the
// interval excludes zero, e.g. "render (render-only − graphrag-abstain) is
// +0.439 [+0.407, +0.471], positive (the 95% interval excludes 0) (n = 900)";
// with too few questions or discordant pairs for an interval, the estimate
// and why there is none ("… is +0.001, too few discordant pairs for a 95%
// interval or a verdict (n = 2375, 3 discordant pairs)").
func Describe(c Comparison) string {
	head := fmt.Sprintf("%s (%s − %s) is %s", c.Label, c.A, c.B, report.Signed(c.Delta))
	if c.TooFew {
		// The verdict says why there is no interval, with n and the
		// discordant pairs: said once, not again as the interval and n.
		return head + ", " + verdict(c)
	}
	return fmt.Sprintf("%s %s, %s (n = %d)", head, c.CI(), verdict(c), c.N)
}

// verdict is "positive", "negative" or "not distinguishable from 0", with
// the interval level.
func verdict(c Comparison) string {
	lvl := fmt.Sprintf("%.0f%%", 100*c.Level)
	switch {
	case c.TooFew:
		return fmt.Sprintf("%s for a %s interval or a verdict (n = %d, %d discordant pairs)", c.TooFewReason(), lvl, c.N, c.N10+c.N01)
	case c.Lo > 0:
		return "positive (the " + lvl + " interval excludes 0)"
	case c.Hi < 0:
		return "negative (the " + lvl + " interval excludes 0)"
	}
	return "not distinguishable from 0 (the " + lvl + " interval contains 0)"
}

// FirstTooFew is the reason of the first of cs with too few questions or
// discordant pairs ("" when none has).
func FirstTooFew(cs ...Comparison) string {
	for _, c := range cs {
		if c.TooFew {
			return c.TooFewReason()
		}
	}
	return ""
}

// CoarseSplit reads the coarse-d mechanism of a decomposition two ways
// (RenderMatchedTerms's pooled rows, or the single family's): the paper's term
// (coarse-retain − the ledger's control) is the matched mechanism
// (coarse-retain − its own control) plus the layout term between the two
// controls, pair by pair; the sentence says which part carries it and
// whether each interval excludes 0, all computed from cs. It returns "" when
// cs lacks the three coarse terms.
func CoarseSplit(cs []Comparison) string {
	fam := Pooled
	if _, ok := FindTerm(cs, TermCoarsePaper, Pooled); !ok && len(cs) > 0 {
		fam = cs[0].Family
	}
	paperC, ok1 := FindTerm(cs, TermCoarsePaper, fam)
	matched, ok2 := FindTerm(cs, TermCoarseMatched, fam)
	layout, ok3 := FindTerm(cs, TermCoarseLayout, fam)
	if !ok1 || !ok2 || !ok3 {
		return ""
	}
	s := fmt.Sprintf("The paper's coarse-d mechanism term (coarse-retain − render-only, the ledger's control) is %s %s (n = %d): "+
		"coarse-retain against its own control (the same facts, ids and order, mechanism off) gives %s %s, "+
		"and coarse-retain's control against the ledger's control (layout alone) gives %s %s. ",
		report.Signed(paperC.Delta), paperC.CI(), paperC.N,
		report.Signed(matched.Delta), matched.CI(), report.Signed(layout.Delta), layout.CI())
	if paperC.N == matched.N && paperC.N == layout.N && math.Abs(paperC.Delta-matched.Delta-layout.Delta) < 1e-9 {
		s += "The two parts add up to the paper's term. "
	} else {
		s += "The three terms are not over the same pairs, so they need not add up. "
	}
	big, name, other, oname := matched, "the matched mechanism", layout, "the layout"
	if math.Abs(layout.Delta) > math.Abs(matched.Delta) {
		big, name, other, oname = layout, "the layout", matched, "the matched mechanism"
	}
	switch {
	case big.TooFew || other.TooFew:
		s += "There are " + FirstTooFew(big, other) + " to say which part carries it."
	case !big.Significant() && !other.Significant():
		s += "Neither part is distinguishable from 0."
	case !other.Significant():
		s += fmt.Sprintf("%s carries it (%s, interval excludes 0); %s is not distinguishable from 0.", capitalize(name), report.Signed(big.Delta), oname)
	case !big.Significant():
		s += fmt.Sprintf("%s is the larger part in size but not distinguishable from 0; %s (%s) is.", capitalize(name), oname, report.Signed(other.Delta))
	case (big.Delta > 0) != (other.Delta > 0):
		s += fmt.Sprintf("The parts pull in opposite directions: %s %s, %s %s, both intervals excluding 0.", name, report.Signed(big.Delta), oname, report.Signed(other.Delta))
	default:
		s += fmt.Sprintf("Both parts are distinguishable from 0; %s is the larger (%s against %s).", name, report.Signed(big.Delta), report.Signed(other.Delta))
	}
	return s
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
