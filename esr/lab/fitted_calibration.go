package lab

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/esrkit/esrkit/esr/paper"
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
	var worst, spreads []string
	for _, f := range c.Families {
		var w sim.CalibrationTarget
		pLo, pHi, fLo, fHi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, tg := range f.Targets {
			if math.Abs(tg.Error()) > math.Abs(w.Error()) {
				w = tg
			}
			if strings.HasPrefix(tg.Name, "t17/") {
				pLo, pHi = math.Min(pLo, tg.Paper), math.Max(pHi, tg.Paper)
				fLo, fHi = math.Min(fLo, tg.Fit), math.Max(fHi, tg.Fit)
			}
		}
		who := readerWords(reader.Family{Kind: reader.KindSim, Name: f.Profile.Name})
		worst = append(worst, fmt.Sprintf("%s on %s, fitted %.3f against the paper's %.3f", who, w.Name, w.Fit, w.Paper))
		spreads = append(spreads, fmt.Sprintf("%s %.3f of %.3f", f.Profile.Name, fHi-fLo, pHi-pLo))
	}
	s := fmt.Sprintf("The fit: %d parameters against %d fitted targets (Jacobian rank %d). ", c.Parameters, c.Targets, c.Rank)
	s += "Each simulated reader's worst-fitted target: " + strings.Join(worst, "; ") + ". "
	s += "Across Table 17's four render formats each reader's fitted Δ spreads by (fitted of the paper's) " + strings.Join(spreads, ", ") + ". "
	var t2 []string
	for _, tg := range c.Panel {
		key, ok := panelKey(tg.Name)
		if !ok {
			continue
		}
		lo, hi := paper.Number(key.Lo()), paper.Number(key.Hi())
		where := "inside"
		if tg.Fit < lo || tg.Fit > hi {
			where = "outside"
		}
		t2 = append(t2, fmt.Sprintf("%s %s (the paper's %s [%s, %s]: %s)", key.Term, report.Signed(tg.Fit), report.Signed(tg.Paper), report.Signed(lo), report.Signed(hi), where))
	}
	if slices.Contains(c.Dropped, sim.GroupTable2) {
		return s + "Table 2's pooled terms, not fitted in this calibration (a check): " + strings.Join(t2, "; ") + "."
	}
	return s + "Table 2's pooled terms as fitted (targets, not a check): " + strings.Join(t2, "; ") + "."
}

// panelKey is the registry key of a panel target's name.
func panelKey(name string) (paper.Key, bool) {
	for _, k := range []paper.Key{paper.T2Render, paper.T2FineMechanism, paper.T2CoarseMechanism} {
		if k.String() == name {
			return k, true
		}
	}
	return paper.Key{}, false
}
