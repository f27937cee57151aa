package experiment

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/report"
)

// Table cells use the report package's formats.
var (
	fmtSigned = report.Signed
	fmtProp   = report.Prop
	fmtCI     = report.Interval
)

// fmtP prints a p-value with four decimals, or "<0.0001" below that.
func fmtP(p float64) string {
	if p < 1e-4 {
		return "<0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}
