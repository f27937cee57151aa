package lab

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/report"
)

// CalibrationReading says what the fitted panel c does and does not
// reproduce of its own targets, worded for a page: the fit's size, each
// simulated reader's worst-fitted target (named as the model it is,
// readerWords), how far its fitted Table 17 formats spread against the
// paper's, and Table 2's pooled terms against the paper's intervals. Every
// sentence that sets a number beside the paper's says it was fitted (or,
// for a calibration that dropped Table 2, that those terms were not).
func CalibrationReading(c *sim.Calibration) string {
	r := c.TargetReading()
	var worst, spreads, t2 []string
	for _, f := range r.Families {
		who := readerWords(reader.Family{Kind: reader.KindSim, Name: f.Profile})
		worst = append(worst, fmt.Sprintf("%s on %s, fitted %.3f against the paper's %.3f", who, f.Worst.Name, f.Worst.Fit, f.Worst.Paper))
		spreads = append(spreads, fmt.Sprintf("%s %.3f of %.3f", f.Profile, f.FitSpread, f.PaperSpread))
	}
	for _, t := range r.Table2 {
		t2 = append(t2, fmt.Sprintf("%s %s (the paper's %s [%s, %s]: %s)", t.Key.Term, report.Signed(t.Fit), report.Signed(t.Paper), report.Signed(t.Lo), report.Signed(t.Hi), t.Where()))
	}
	s := fmt.Sprintf("The fit: %d parameters against %d fitted targets (Jacobian rank %d). ", c.Parameters, c.Targets, c.Rank)
	s += "Each simulated reader's worst-fitted target: " + strings.Join(worst, "; ") + ". "
	s += "Across Table 17's four render formats each reader's fitted Δ spreads by (fitted of the paper's) " + strings.Join(spreads, ", ") + ". "
	if !r.Table2Fitted {
		return s + "Table 2's pooled terms, not fitted in this calibration (a check): " + strings.Join(t2, "; ") + "."
	}
	return s + "Table 2's pooled terms as fitted (targets, not a check): " + strings.Join(t2, "; ") + "."
}
