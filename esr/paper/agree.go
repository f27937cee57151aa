package paper

import (
	"fmt"
	"math"
	"strings"
)

// Agreement is how one of our estimates stands against the paper's number
// for the same term: direction, size and interval overlap, as values. Words
// builds the one sentence every notebook and table prints from it.
//
// The size ratio |ours| / |paper's| is defined only when the paper's value
// is distinguishable from 0 (its interval excludes 0, or, without a printed
// interval, it is not 0): a ratio against a value that may be 0 says nothing.
type Agreement struct {
	Ours, OursLo, OursHi    float64
	Paper, PaperLo, PaperHi float64
	// PaperCI is set when the paper prints an interval.
	PaperCI bool

	// Direction: +1 when both point estimates are non-zero with one sign,
	// −1 when their signs differ, 0 when either is 0.
	Direction int
	// Ratio is |Ours/Paper| when HasRatio.
	Ratio    float64
	HasRatio bool
	// PaperInOurs: the paper's point estimate lies inside our interval.
	PaperInOurs bool
	// Overlap: the two intervals overlap (false when the paper prints none).
	Overlap bool
	// OursExcludes0 and PaperExcludes0: each interval's side of 0 (the
	// paper's is false when it prints none).
	OursExcludes0, PaperExcludes0 bool
}

// Agree compares our estimate d with interval [lo, hi] to the paper's value
// p, with its interval [plo, phi] when hasCI.
func Agree(d, lo, hi, p, plo, phi float64, hasCI bool) Agreement {
	a := Agreement{Ours: d, OursLo: lo, OursHi: hi, Paper: p, PaperCI: hasCI}
	if hasCI {
		a.PaperLo, a.PaperHi = plo, phi
		a.Overlap = lo <= phi && plo <= hi
		a.PaperExcludes0 = plo > 0 || phi < 0
	}
	a.OursExcludes0 = lo > 0 || hi < 0
	switch {
	case d == 0 || p == 0:
	case (d > 0) == (p > 0):
		a.Direction = 1
	default:
		a.Direction = -1
	}
	a.PaperInOurs = lo <= p && p <= hi
	// A ratio only against a value the paper shows is not 0: one whose
	// printed interval excludes 0. Without an interval it cannot say, and a
	// ratio against a small value (Table 3's −0.008) only measures noise.
	if p != 0 && hasCI && a.PaperExcludes0 {
		a.Ratio, a.HasRatio = math.Abs(d/p), true
	}
	return a
}

// sizeWords names a ratio of magnitudes: "about the same size", "about a
// quarter of the size", "about 3× the size".
func sizeWords(r float64) string {
	switch {
	case r >= 0.8 && r <= 1.25:
		return "about the same size"
	case r > 1.25:
		return fmt.Sprintf("%.1f× the size", r)
	}
	fractions := []struct {
		v    float64
		name string
	}{{2.0 / 3, "two thirds"}, {0.5, "half"}, {1.0 / 3, "a third"}, {0.25, "a quarter"}, {0.2, "a fifth"}, {0.1, "a tenth"}}
	best := fractions[0]
	for _, f := range fractions[1:] {
		if math.Abs(math.Log(r/f.v)) < math.Abs(math.Log(r/best.v)) {
			best = f
		}
	}
	if r < 0.07 {
		return fmt.Sprintf("%.2f× the size", r)
	}
	return "about " + best.name + " of the size"
}

// unweighedSize weighs the size where Agree defines no ratio because the
// paper prints no interval (Table 11's +0.073): a "same direction" must
// not pass ours at more than twice, or under half, the paper's value as
// agreement. Within that band, against a paper value of 0, or against a
// printed interval that includes 0 (a value the paper shows may be 0), it
// says nothing.
func (a Agreement) unweighedSize() string {
	if a.HasRatio || a.PaperCI || a.Direction <= 0 || a.Paper == 0 {
		return ""
	}
	r := math.Abs(a.Ours / a.Paper)
	switch {
	case r > 2:
		return fmt.Sprintf("about %.1f times the paper's size", r)
	case r < 0.5:
		return strings.Replace(sizeWords(r), "the size", "the paper's size", 1)
	}
	return ""
}

// Words is the verdict sentence: direction, size (when a ratio is defined;
// without the paper's interval, when ours is over twice or under half the
// paper's value in the same direction),
// then where the paper's value lies against our interval and whether the
// intervals overlap. It never says "the same finding": it says how large
// and how far apart.
func (a Agreement) Words() string {
	var s string
	switch {
	case !a.OursExcludes0 && (!a.PaperCI || !a.PaperExcludes0) && a.PaperInOurs:
		s = "neither rules out 0"
		if !a.PaperCI {
			s = "ours does not rule out 0"
		}
	case a.Direction > 0:
		s = "same direction"
	case a.Direction < 0:
		s = "opposite direction"
	default:
		s = "no direction to compare (one value is 0)"
	}
	if a.HasRatio && a.Direction != 0 {
		s += ", " + sizeWords(a.Ratio)
	} else if w := a.unweighedSize(); w != "" {
		s += ", " + w
	}
	if !a.OursExcludes0 && !strings.HasPrefix(s, "neither") && !strings.HasPrefix(s, "ours") {
		s = "ours does not rule out 0; point estimates in the " + s
	}
	if a.PaperInOurs {
		s += "; the paper's value lies inside our interval"
	} else {
		s += "; the paper's value lies outside our interval"
		if a.PaperCI {
			if a.Overlap {
				s += ", though the two intervals overlap"
			} else {
				s += " and the two intervals do not overlap"
			}
		}
	}
	return s
}
