package lab

import (
	"github.com/esrkit/esrkit/internal/report"
)

// Table cells use the report package's formats (eval.PropCell for accuracies).
var (
	fmtSigned = report.Signed
	fmtCI     = report.Interval
	fmtP      = report.PValue
)

// b2f is 1 for true, 0 for false: a row's correctness as a number.
