package report

import (
	"fmt"
	"math"
)

// Signed formats a difference with its sign, as the paper prints deltas.
func Signed(x float64) string { return fmt.Sprintf("%+.3f", x) }

// Interval formats [lo, hi] with signs.
func Interval(lo, hi float64) string { return fmt.Sprintf("[%+.3f, %+.3f]", lo, hi) }

// Prop formats a proportion with three decimals; a value that rounds to
// zero prints "0.000", never "-0.000" (a Wilson bound a hair below 0).
func Prop(x float64) string {
	if math.Abs(x) < 0.0005 {
		x = 0
	}
	return fmt.Sprintf("%.3f", x)
}

// PValue prints a p-value with four decimals, or "<0.0001" below that.
func PValue(p float64) string {
	if p < 1e-4 {
		return "<0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}

// Thousands prints n with comma thousands separators (2907 → "2,907").
func Thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
