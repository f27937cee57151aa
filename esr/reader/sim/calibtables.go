package sim

import (
	"fmt"
	"math"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/report"
)

// The calibration's tables and sentences: built here, from the values the
// fit returns, and nowhere else.

// calibNote is the note every calibration table carries once.
const calibNote = "the readers are SIMULATED: a model of the paper's five LLM families over render features, fitted to published numbers, not the LLMs"

// CalibrationTable lists a calibration's fit: per family, per target, the
// paper's value, the fitted panel's expected value and the error; then the
// panel's Table 2 terms.
func CalibrationTable(c *Calibration) *eval.Table {
	t := &eval.Table{ID: "calibration-fit", Title: "Calibrated simulated readers: the paper's numbers and what the fitted panel gives on " + c.Bench,
		Columns: []string{"family (reader)", "target", "paper", "fit", "error"}}
	for _, f := range c.Families {
		for i, tg := range f.Targets {
			fam := ""
			if i == 0 {
				fam = f.Family + " (sim:" + f.Profile.Name + ")"
			}
			t.AddRow(fam, tg.Name, eval.NumberCell("%+.3f", tg.Paper), eval.NumberCell("%+.3f", tg.Fit), eval.SignedCell(tg.Error()))
		}
		t.AddRow("", "RMSE over the family's targets", "", "", eval.NumberCell("%.3f", f.RMSE))
	}
	for i, tg := range c.Panel {
		who := ""
		if i == 0 {
			who = "the panel (mean over families)"
		}
		name := tg.Name
		if droppedGroup(c, GroupTable2) {
			name += " (not fitted)"
		}
		t.AddRow(who, name, eval.NumberCell("%+.3f", tg.Paper), eval.NumberCell("%+.3f", tg.Fit), eval.SignedCell(tg.Error()))
	}
	t.Notes = []string{
		fmt.Sprintf("t17/FORMAT: Table 17's Δ RevisionLedger − GraphRAG+abstain on reverted revert with the ledger in that format (column reading %s); t16: Table 16's abstain calibration and κ of RevisionLedger (RL) and GraphRAG+abstain (GRA); both in the auxiliary regime (strata weighted 734/387/35/42, relation noise %.1f); t2: Table 2's pooled terms on the primary reverted-revert questions", c.Reading, c.AuxNoise),
		"fit = the panel's expected value over the readers' draws (no sampling); " + c.Method,
		calibNote}
	return t
}

func droppedGroup(c *Calibration, g string) bool {
	for _, d := range c.Dropped {
		if d == g {
			return true
		}
	}
	return false
}

// CalibrationSkillsTable lists the fitted skills: one row per family,
// stage 1's (fitted to the evidence registry) then stage 2's (fitted to
// the paper).
func CalibrationSkillsTable(c *Calibration) *eval.Table {
	cols := []string{"reader"}
	all := append(append([]calibParam(nil), stage1Params...), calibParams...)
	for i, p := range all {
		stage := "2"
		if i < len(stage1Params) {
			stage = "1"
		}
		cols = append(cols, p.Name+" ("+stage+")")
	}
	cols = append(cols, "RMSE")
	t := &eval.Table{ID: "calibration-skills", Title: "The fitted skills of the calibrated readers: stage 1 (to published measurements), stage 2 (to the paper)", Columns: cols}
	for _, f := range c.Families {
		row := []any{"sim:" + f.Profile.Name}
		for _, p := range all {
			v, _ := f.Profile.Get(p.Name)
			row = append(row, skillCell(p.Name, v))
		}
		t.AddRow(append(row, eval.NumberCell("%.3f", f.RMSE))...)
	}
	t.Notes = []string{
		fmt.Sprintf("stage 1: %d skills per family fitted to the evidence registry's points (docs/evidence.md) and frozen; stage 2: %d parameters (%d per family × %d) against %d fitted targets; the Jacobian of the targets has rank %d (singular values below %g × the largest count as zero)",
			len(stage1Params), c.Parameters, len(calibParams), len(c.Families), c.Targets, c.Rank, rankTolerance),
		"probabilities are drawn per question on a clean render (two rows of one key in a block); the costs are each family's own logit costs ≥ 0 of clutter, each inside its evidence range (Capabilities and docs/reader-model.md give each one's range and published evidence); RMSE is over the family's stage-2 targets"}
	if b := paramsAtBound(c); len(b) > 0 {
		t.Notes = append(t.Notes, "at a bound of its range: "+strings.Join(b, "; "))
	}
	return t
}

// skillCell formats a fitted value: probabilities as proportions, costs
// and the logit shift signed.
func skillCell(name string, v float64) eval.Cell {
	for _, c := range costNamesSet {
		if c == name {
			return eval.NumberCell("%.3f", v)
		}
	}
	return eval.PropCell(v)
}

// costNamesSet are the parameters that are not probabilities.
var costNamesSet = []string{simClutterScale, simLengthCost, simRowsCost, simFlatCost, simDistractCost, simProseCost, simNestCost, simParaCost}

// paramsAtBound lists the fitted parameters of c (both stages) that ended
// within 1% of a bound of their range, "lapse (Qwen3-8B) = 0.100 at
// [0.005, 0.100]".
func paramsAtBound(c *Calibration) []string {
	var out []string
	for _, p := range append(append([]calibParam(nil), stage1Params...), calibParams...) {
		for _, f := range c.Families {
			v, _ := f.Profile.Get(p.Name)
			if p.AtBound(v) {
				out = append(out, fmt.Sprintf("%s (%s) = %.3f at [%g, %g]", p.Name, f.Family, v, p.Lo, p.Hi))
			}
		}
	}
	return out
}

// SensitivityTable lays out which targets move each parameter.
func SensitivityTable(s *Sensitivity) *eval.Table {
	t := &eval.Table{ID: "calibration-sensitivity", Title: "Which targets pin which parameter? The Jacobian of the weighted targets at the fit",
		Columns: []string{"parameter", "moved most by", "share", "then", "share", "prior's share", "column norm"}}
	for _, p := range s.Params {
		cells := []any{p.Param, "—", "", "—", "", fmt.Sprintf("%.0f%%", 100*p.Prior), eval.NumberCell("%.4f", p.Norm)}
		for k := 0; k < 2 && k < len(p.Top); k++ {
			cells[1+2*k] = p.Top[k]
			cells[2+2*k] = fmt.Sprintf("%.0f%%", 100*p.Share[k])
		}
		t.AddRow(cells...)
	}
	t.Notes = []string{
		fmt.Sprintf("%d parameters, %d targets; rank %d; smallest singular values %s", len(s.Params), s.Targets, s.Rank, smallest(s.SingularValues, 3)),
		"share: a row's share of the squared derivatives in the parameter's column (logit coordinate), the parameter's prior (its weight λ) counted as one more row, \"prior\"; the fit raises each prior's weight until no single target carries more than half; a parameter whose column is near 0 is held by its prior, not by the paper's numbers"}
	return t
}

func smallest(v []float64, k int) string {
	var parts []string
	for i := len(v) - 1; i >= 0 && len(parts) < k; i-- {
		parts = append(parts, fmt.Sprintf("%.2g", v[i]))
	}
	return strings.Join(parts, ", ")
}

// FitGridTable lists fits of a grid: the fitted split and the per-table
// errors of each.
func FitGridTable(name, title string, rows []FitSummary) *eval.Table {
	t := &eval.Table{ID: eval.TableID(name), Title: title,
		Columns: []string{"fit", "render", "fine-d mechanism", "coarse-d mechanism", "Table 16 RMSE", "Table 17 RMSE", "weighted error", "rank / parameters / targets"}}
	for _, r := range rows {
		t.AddRow(r.Label, eval.SignedCell(r.Render), eval.SignedCell(r.Fine), eval.SignedCell(r.Coarse), eval.NumberCell("%.3f", r.RMSE16), eval.NumberCell("%.3f", r.RMSE17),
			eval.NumberCell("%.4f", r.Objective), fmt.Sprintf("%d / %d / %d", r.Rank, r.Params, r.Targets))
	}
	t.Notes = []string{
		fmt.Sprintf("paper (Table 2, DeepSeek-V3): render %+.3f [%+.3f, %+.3f], fine-d %+.3f [%+.3f, %+.3f], coarse-d %+.3f [%+.3f, %+.3f]",
			paper.Number(paper.T2Render), paper.Number(paper.T2Render.Lo()), paper.Number(paper.T2Render.Hi()),
			paper.Number(paper.T2FineMechanism), paper.Number(paper.T2FineMechanism.Lo()), paper.Number(paper.T2FineMechanism.Hi()),
			paper.Number(paper.T2CoarseMechanism), paper.Number(paper.T2CoarseMechanism.Lo()), paper.Number(paper.T2CoarseMechanism.Hi())),
		"render, fine-d, coarse-d: the fitted panel's expected pooled terms on the primary reverted-revert questions, fitted or not; weighted error: over the targets the fit used (a fit without Table 2 is not charged for it)",
		calibNote}
	return t
}

// GridSentence says how far the split moves across the grid's fits, with
// and without Table 2's targets, from the numbers.
func GridSentence(rows []FitSummary) string {
	type span struct{ lo, hi [3]float64 }
	spans := map[bool]*span{}
	n := map[bool]int{}
	for _, r := range rows {
		drop := len(r.Dropped) > 0
		s, ok := spans[drop]
		if !ok {
			s = &span{lo: [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, hi: [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}}
			spans[drop] = s
		}
		for i, v := range []float64{r.Render, r.Fine, r.Coarse} {
			s.lo[i], s.hi[i] = math.Min(s.lo[i], v), math.Max(s.hi[i], v)
		}
		n[drop]++
	}
	say := func(drop bool) string {
		s := spans[drop]
		if s == nil {
			return ""
		}
		return fmt.Sprintf("render %s to %s, fine-d mechanism %s to %s, coarse-d mechanism %s to %s over %d fits",
			report.Signed(s.lo[0]), report.Signed(s.hi[0]), report.Signed(s.lo[1]), report.Signed(s.hi[1]), report.Signed(s.lo[2]), report.Signed(s.hi[2]), n[drop])
	}
	var parts []string
	if w := say(false); w != "" {
		parts = append(parts, "With Table 2's targets the fitted split spans "+w)
	}
	if w := say(true); w != "" {
		parts = append(parts, "without them "+w)
	}
	out := strings.Join(parts, "; ") + "."
	if spans[true] != nil && spans[false] != nil {
		names := []string{"render", "fine-d mechanism", "coarse-d mechanism"}
		var far []string
		for i, name := range names {
			wWith := spans[false].hi[i] - spans[false].lo[i]
			wWithout := spans[true].hi[i] - spans[true].lo[i]
			if wWithout > 2*wWith+0.005 {
				far = append(far, fmt.Sprintf("%s %.0f×", name, wWithout/math.Max(wWith, 1e-3)))
			}
		}
		if len(far) > 0 {
			out += " Without them the terms spread further across the fits (" + strings.Join(far, ", ") + " their spread with them): the per-family tables alone do not pin the split."
		} else {
			out += " The terms move about as much either way across these fits; what Table 2 changes is where the split sits, not how stable it is."
		}
		if spans[true].lo[2] < 0 && spans[true].hi[2] > 0 {
			out += " Without them the coarse-d term even changes sign between fits."
		}
	}
	return out
}

// FitReading is what a calibration reproduces of its own targets, as
// values: per family its worst-fitted target and how far its fitted Table 17
// formats spread against the paper's, and Table 2's pooled terms against the
// paper's intervals. CalibrationSentence and lab.CalibrationReading word it.
type FitReading struct {
	Families []FamilyReading
	Table2   []Table2Reading
	// Table2Fitted is false when the calibration dropped Table 2's group
	// (its terms are then a check, not targets).
	Table2Fitted bool
}

// FamilyReading is one fitted family's part of a FitReading.
type FamilyReading struct {
	Family, Profile string
	Worst           CalibrationTarget // the target with the largest |fit − paper|
	// FitSpread and PaperSpread are max − min over the family's Table 17
	// targets, fitted and the paper's.
	FitSpread, PaperSpread float64
}

// Table2Reading is one pooled Table 2 term: fitted, the paper's value and
// its published 95% interval, and whether the fit lies inside it.
type Table2Reading struct {
	Key               paper.Key
	Fit, Paper        float64
	Lo, Hi            float64
	InsidePaperBounds bool
}

// TargetReading is c's FitReading: what it reproduces of its own targets.
func (c *Calibration) TargetReading() FitReading {
	r := FitReading{Table2Fitted: !droppedGroup(c, GroupTable2)}
	for _, f := range c.Families {
		var w CalibrationTarget
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
		r.Families = append(r.Families, FamilyReading{Family: f.Family, Profile: f.Profile.Name, Worst: w, FitSpread: fHi - fLo, PaperSpread: pHi - pLo})
	}
	for _, tg := range c.Panel {
		key, ok := panelKeys[tg.Name]
		if !ok {
			continue
		}
		lo, hi := paper.Number(key.Lo()), paper.Number(key.Hi())
		r.Table2 = append(r.Table2, Table2Reading{Key: key, Fit: tg.Fit, Paper: tg.Paper, Lo: lo, Hi: hi, InsidePaperBounds: tg.Fit >= lo && tg.Fit <= hi})
	}
	return r
}

// Where is "inside" or "outside": the fit against the paper's interval.
func (t Table2Reading) Where() string {
	if t.InsidePaperBounds {
		return "inside"
	}
	return "outside"
}

// CalibrationSentence says what the fitted panel does and does not
// reproduce, from the fit (Calibration.TargetReading): the worst target per
// family, Table 17's spread across formats against the paper's, Table 2's
// terms against the paper's intervals, and parameters against targets.
func CalibrationSentence(c *Calibration) string {
	r := c.TargetReading()
	var worst, spreads, t2 []string
	for _, f := range r.Families {
		worst = append(worst, fmt.Sprintf("%s %s (paper %.3f, fit %.3f)", f.Family, f.Worst.Name, f.Worst.Paper, f.Worst.Fit))
		spreads = append(spreads, fmt.Sprintf("%s %.3f of %.3f", f.Family, f.FitSpread, f.PaperSpread))
	}
	for _, t := range r.Table2 {
		t2 = append(t2, fmt.Sprintf("%s %s (paper %s [%s, %s], %s)", t.Key.Term, report.Signed(t.Fit), report.Signed(t.Paper), report.Signed(t.Lo), report.Signed(t.Hi), t.Where()))
	}
	s := fmt.Sprintf("%d parameters against %d fitted targets (Jacobian rank %d). ", c.Parameters, c.Targets, c.Rank)
	s += "The worst-fitted target of each family: " + strings.Join(worst, "; ") + ". "
	s += "Across Table 17's four render formats the fitted Δ spreads by (fit of paper) " + strings.Join(spreads, ", ") + ". "
	what := "fitted"
	if !r.Table2Fitted {
		what = "not fitted"
	}
	s += "Table 2's pooled terms (" + what + "): " + strings.Join(t2, "; ") + "."
	return s
}
