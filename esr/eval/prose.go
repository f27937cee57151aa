package eval

import (
	"fmt"

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
