package paper

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/report"
)

// Finding words a difference: "positive", "negative" (its interval
// excludes 0) or "not distinguishable from 0".
func Finding(d, lo, hi float64) string {
	switch {
	case lo > 0:
		return "positive"
	case hi < 0:
		return "negative"
	}
	return "not distinguishable from 0"
}

// FindingOf is Finding of a comparison, or, when it has too few
// questions or discordant pairs for a verdict (eval.Comparison.TooFew),
// says so.
func FindingOf(c eval.Comparison) string {
	if c.TooFew {
		return c.TooFewReason() + " to tell"
	}
	return Finding(c.Delta, c.Lo, c.Hi)
}

// Versus compares our comparison c with the paper's number at key: each
// one's value, interval and finding, whether the findings agree (both
// excluding 0 with one sign, both not excluding 0, or not), and the ratio of
// magnitudes. With no paper value it says so.
func Versus(c eval.Comparison, key Key) string {
	p, ok := Lookup(key)
	if !ok {
		return fmt.Sprintf("%s: ours %s %s; the paper reports no value.", c.Label, report.Signed(c.Delta), c.CI())
	}
	ours := FindingOf(c)
	s := fmt.Sprintf("%s: ours %s %s is %s", c.Label, report.Signed(c.Delta), c.CI(), ours)
	lo, hi, hasCI := Interval(key)
	a := Agree(c.Delta, c.Lo, c.Hi, p, lo, hi, hasCI)
	if !hasCI {
		return s + fmt.Sprintf("; the paper prints %s without an interval: %s.", report.Signed(p), a.Words())
	}
	s += fmt.Sprintf("; the paper's %s %s is %s", report.Signed(p), report.Interval(lo, hi), Finding(p, lo, hi))
	if c.TooFew {
		return s + " — ours has " + c.TooFewReason() + " to compare findings."
	}
	// Size and overlap, not sign: paper.Agreement never calls a result
	// "the same finding" when the paper's value lies outside our interval.
	return s + " — " + a.Words() + "."
}
