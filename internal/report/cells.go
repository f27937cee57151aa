package report

import (
	"fmt"
	"math"
)

// Signed formats a difference with its sign, as the paper prints deltas;
// a value that rounds to zero prints "+0.000", never "-0.000" (a bound a
// hair below 0 is not a negative difference).
func Signed(x float64) string { return fmt.Sprintf("%+.3f", noNegZero(x)) }

// Interval formats [lo, hi] with signs, each bound as Signed prints it.
func Interval(lo, hi float64) string { return "[" + Signed(lo) + ", " + Signed(hi) + "]" }

// PropInterval formats [lo, hi] of proportions (a Wilson interval, a
// rate's), each bound as Prop prints it: "[0.000, 0.002]".
func PropInterval(lo, hi float64) string { return "[" + Prop(lo) + ", " + Prop(hi) + "]" }

// noNegZero is x, or 0 when x rounds to zero at three decimals (so that
// neither -0.0004 nor -0 prints a minus sign).
func noNegZero(x float64) float64 {
	if math.Abs(x) < 0.0005 {
		return 0
	}
	return x
}

// Prop formats a proportion with three decimals; a value that rounds to
// zero prints "0.000", never "-0.000" (a Wilson bound a hair below 0).
func Prop(x float64) string {
	return fmt.Sprintf("%.3f", noNegZero(x))
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
