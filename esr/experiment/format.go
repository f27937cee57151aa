package experiment

import "fmt"

func fmtSigned(x float64) string { return fmt.Sprintf("%+.3f", x) }
func fmtProp(x float64) string   { return fmt.Sprintf("%.3f", x) }
func fmtCI(lo, hi float64) string {
	return fmt.Sprintf("[%+.3f, %+.3f]", lo, hi)
}

// fmtP prints a p-value with four decimals, or "<0.0001" below that.
func fmtP(p float64) string {
	if p < 1e-4 {
		return "<0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}
