package paper

import (
	"strings"
	"testing"
)

func TestAgreeWords(t *testing.T) {
	for _, c := range []struct {
		name                   string
		d, lo, hi, p, plo, phi float64
		ci                     bool
		want                   string
	}{
		// A quarter of the size: ours +0.038 [+0.02,+0.06] vs the paper's +0.159 [+0.114,+0.207].
		{"quarter outside", 0.038, 0.02, 0.06, 0.159, 0.114, 0.207, true,
			"same direction, about a quarter of the size; the paper's value lies outside our interval and the two intervals do not overlap"},
		// Table 3: the paper's −0.008 has an interval including 0: no ratio.
		{"paper includes 0", -0.183, -0.25, -0.12, -0.008, -0.03, 0.02, true,
			"same direction; the paper's value lies outside our interval and the two intervals do not overlap"},
		{"inside", 0.15, 0.12, 0.19, 0.159, 0.114, 0.207, true,
			"same direction, about the same size; the paper's value lies inside our interval"},
		{"overlap only", 0.09, 0.05, 0.12, 0.159, 0.114, 0.207, true,
			"same direction, about half of the size; the paper's value lies outside our interval, though the two intervals overlap"},
		{"opposite", -0.05, -0.08, -0.02, 0.087, 0.046, 0.13, true,
			"opposite direction, about half of the size; the paper's value lies outside our interval and the two intervals do not overlap"},
		{"both null", 0.006, -0.017, 0.027, 0.025, -0.005, 0.057, true,
			"neither rules out 0; the paper's value lies inside our interval"},
		// Without the paper's interval no ratio (it cannot tell whether the
		// paper's value is distinguishable from 0), but a same direction at
		// over twice or under half the paper's value says so.
		{"no paper CI, four times", 0.4, 0.3, 0.5, 0.1, 0, 0, false,
			"same direction, about 4.0 times the paper's size; the paper's value lies outside our interval"},
		// Table 11 in notebook E-checks: ours +0.192 against the paper's +0.073.
		{"no paper CI, Table 11", 0.192, 0.15, 0.23, 0.073, 0, 0, false,
			"same direction, about 2.6 times the paper's size; the paper's value lies outside our interval"},
		{"no paper CI, a third", -0.03, -0.05, -0.01, -0.09, 0, 0, false,
			"same direction, about a third of the paper's size; the paper's value lies outside our interval"},
		{"no paper CI, within a factor of two", 0.12, 0.08, 0.16, 0.073, 0, 0, false,
			"same direction; the paper's value lies outside our interval"},
		{"no paper CI, just under twice", 0.14, 0.05, 0.2, 0.073, 0, 0, false,
			"same direction; the paper's value lies inside our interval"},
		{"no paper CI, tiny paper value", 0.183, 0.1, 0.25, -0.008, 0, 0, false,
			"opposite direction; the paper's value lies outside our interval"},
	} {
		got := Agree(c.d, c.lo, c.hi, c.p, c.plo, c.phi, c.ci).Words()
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		if strings.Contains(got, "same finding") {
			t.Errorf("%s: says the same finding", c.name)
		}
	}
}

// No ratio is printed against a paper value whose interval includes 0.
func TestAgreeNoRatioAgainstNull(t *testing.T) {
	a := Agree(0.2, 0.1, 0.3, -0.008, -0.03, 0.02, true)
	if a.HasRatio {
		t.Fatalf("ratio %v against a paper interval that includes 0", a.Ratio)
	}
	if strings.Contains(a.Words(), "×") || strings.Contains(a.Words(), "size") {
		t.Errorf("words carry a size: %q", a.Words())
	}
}
