package experiment

import "fmt"

func fmtSigned(x float64) string { return fmt.Sprintf("%+.3f", x) }
func fmtProp(x float64) string   { return fmt.Sprintf("%.3f", x) }
func fmtCI(lo, hi float64) string {
	return fmt.Sprintf("[%+.3f, %+.3f]", lo, hi)
}
