package experiment

import (
	"github.com/esrkit/esrkit/esr/eval"

	"fmt"

	"github.com/esrkit/esrkit/stats"

	"github.com/esrkit/esrkit/internal/report"
)

// Table cells use the report package's formats (eval.PropCell for accuracies).
var (
	fmtSigned = report.Signed
	fmtCI     = report.Interval
	fmtP      = report.PValue
)

// MDE is the minimum detectable effect of a paired binary comparison like c
// (stats.PairedBinaryMDE: n pairs, c's discordant share, two-sided α = 0.05,
// power 0.8). ok is false when no pair is discordant (the MDE is then
// undefined) or no Δ up to the discordant share reaches the power.
func MDE(c eval.Comparison) (mde float64, ok bool) {
	if c.N == 0 || c.N10+c.N01 == 0 {
		return 0, false
	}
	m, err := stats.PairedBinaryMDE(c.N, float64(c.N10+c.N01)/float64(c.N), 0.05, 0.8)
	if err != nil {
		return 0, false
	}
	return m, true
}

// mdeCell formats MDE(c) for a table ("—" when c failed, "n/a" when it is
// undefined, "> p_d" when no effect reaches the power).
func mdeCell(c eval.Comparison, err error) string {
	if err != nil {
		return "—"
	}
	if c.N10+c.N01 == 0 {
		return "n/a (no discordant pair)"
	}
	m, ok := MDE(c)
	if !ok {
		return "none ≤ discordant share"
	}
	return fmt.Sprintf("%.3f", m)
}

// thousands prints n with comma thousands separators (2907 → "2,907").
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// b2f is 1 for true, 0 for false: a row's correctness as a number.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// mean is the arithmetic mean of x (NaN when x is empty).
func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
