package sim

import (
	_ "embed"
	"encoding/json"

	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/report"
)

// Validation checks a reader panel against the paper's tables: Tables 2
// (DeepSeek-V3 and MiniMax-M2.5 columns), 3, 5, 11, 12, 13 and Figure 3,
// recomputed with the panel's rows and set beside the paper's, cell by
// cell, with the error (ours − paper). The cells a calibration fitted
// (Fitted: Table 2's DeepSeek-V3 terms and Table 3's reverted-revert cell,
// the same number as Table 2's fine-d term) are not out of sample and are
// listed apart.

// ValidationCell is one cell of a validated table.
type ValidationCell struct {
	Table string  `json:"table"`
	Cell  string  `json:"cell"`
	Ours  float64 `json:"ours"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Paper float64 `json:"paper"`
	// Interval is whether Lo/Hi are a paired interval (differences) rather
	// than a Wilson interval (accuracies).
	Interval bool `json:"interval"`
	// PaperKey names the paper's cell this one is set beside
	// (paper.Key.String()), so a reader of the cells finds a term by its
	// key, never by its printed label.
	PaperKey string `json:"paper_key,omitempty"`
}

// Error is Ours − Paper.
func (c ValidationCell) Error() float64 { return c.Ours - c.Paper }

// ValidationRows are the rows each validated table reads: the
// render-confound suite (Tables 2, 3, 11), the strata suite (Tables 5, 12)
// and the noise suite (Table 13).
type ValidationRows struct {
	RenderConfound, Strata, Noise []eval.Outcome
	// Provenance are the provenance suite's rows (Figure 3).
	Provenance []eval.Outcome
	// Pure is the pure-monotonic question set (PureMonotonic) and Lengths
	// the stream length per question (StreamLengths).
	Pure    map[string]bool
	Lengths map[string]int
}

// Validate computes every validated cell the rows allow.
func Validate(v ValidationRows, opt eval.StatOptions) []ValidationCell {
	var out []ValidationCell
	diff := func(table, cell string, rows []eval.Outcome, a, b memory.Spec, f eval.Filter, key paper.Key) {
		p, ok := paper.Lookup(key)
		if !ok || len(rows) == 0 {
			return
		}
		c, err := eval.Compare(rows, eval.Term{Label: cell, A: a, B: b}, f, opt)
		if err != nil {
			return
		}
		out = append(out, ValidationCell{Table: table, Cell: cell, Ours: c.Delta, Lo: c.Lo, Hi: c.Hi, Paper: p, Interval: true, PaperKey: key.String()})
	}
	rr := eval.RevertedRevertSnapshot
	for _, t := range eval.RenderMatchedReported {
		diff("Table 2", t.Label, v.RenderConfound, t.A, t.B, rr, paper.T2.Key(t.Key))
	}
	// The out-of-family MiniMax-M2.5 judge's column of Table 2: the same
	// terms, against the numbers of another judge (ours is exact match).
	for _, t := range eval.RenderMatchedReported {
		diff(tableMiniMax, t.Label, v.RenderConfound, t.A, t.B, rr, paper.T2MiniMax.Key(t.Key))
	}
	for _, p := range esr.Phenomena {
		diff("Table 3", string(p), v.RenderConfound, memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.RenderOnly), eval.SnapshotIn(p), paper.T3Cell(p))
	}
	if v.Pure != nil {
		mono := eval.SnapshotIn(esr.Monotonic)
		notPure := func(o *eval.Outcome) bool { return !v.Pure[o.QID] }
		pure := eval.And(mono, eval.QIDs(v.Pure))
		diff("Table 11", "with deprecated: RL − GRA", v.RenderConfound, memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.GraphRAGAbstain), eval.And(mono, notPure), paper.T11WithDeprecated)
		diff("Table 11", "pure: RL − GRA", v.RenderConfound, memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.GraphRAGAbstain), pure, paper.T11Pure.Key(eval.KeyLedgerVsBaseline))
		diff("Table 11", "pure: render", v.RenderConfound, memory.SpecOf(memory.RenderOnly), memory.SpecOf(memory.GraphRAGAbstain), pure, paper.T11Pure.Key(eval.KeyRender))
		diff("Table 11", "pure: fine residual", v.RenderConfound, memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.RenderOnly), pure, paper.T11Pure.Key(paper.FineResidual))
	}
	for _, p := range esr.Phenomena {
		f := eval.SnapshotIn(p)
		for _, a := range eval.AccuracyBy(v.Strata, paper.StrataMemories, nil, f, opt.WithDefaults().Level) {
			if pv, ok := paper.Lookup(paper.T5Cell(p, a.Memory)); ok {
				out = append(out, ValidationCell{Table: "Table 5", Cell: string(p) + " " + a.Memory.String(), Ours: a.Acc, Lo: a.Lo, Hi: a.Hi, Paper: pv})
			}
		}
	}
	if v.Lengths != nil && len(v.Strata) > 0 {
		for i, bin := range eval.LengthBinLabels() {
			label := bin
			f := eval.And(eval.QueryType(esr.Snapshot), func(o *eval.Outcome) bool { return eval.LengthBin(v.Lengths[o.QID]) == label })
			if c, err := eval.Compare(v.Strata, eval.TermFineCoarse.Named(bin), f, opt); err == nil {
				out = append(out, ValidationCell{Table: "Table 12", Cell: bin + " events", Ours: c.Delta, Lo: c.Lo, Hi: c.Hi, Paper: paper.Table12[i], Interval: true})
			}
		}
	}
	for _, a := range eval.ProvenanceAccuracy(v.Provenance, paper.RetentionClasses, eval.StateOnly) {
		if pv, ok := paper.Lookup(paper.ClassCell(paper.F3, a.Memory)); ok {
			out = append(out, ValidationCell{Table: "Figure 3", Cell: "provenance " + a.Memory.String(), Ours: a.Acc, Lo: a.Lo, Hi: a.Hi, Paper: pv})
		}
	}
	for _, axis := range []eval.NoiseAxis{eval.RelationNoiseAxis, eval.AtomDropoutAxis} {
		cs := eval.SweepComparisons(v.Noise, axis, paper.NoiseLevels, opt)
		for i, p := range paper.NoiseLevels {
			if c, ok := eval.AtLevel(cs, p); ok && i < len(paper.Table13[string(axis)]) {
				out = append(out, ValidationCell{Table: "Table 13", Cell: fmt.Sprintf("%s p=%.1f", axis, p), Ours: c.Delta, Lo: c.Lo, Hi: c.Hi,
					Paper: paper.Table13[string(axis)][i], Interval: true})
			}
		}
	}
	return out
}

// tableMiniMax names Table 2's MiniMax-M2.5 column among the validated
// tables.
const tableMiniMax = "Table 2 (MiniMax judge)"

// Fitted reports whether cell's number is one calibration c fitted, or a
// function of fitted numbers alone, so that it can never count as
// validation: Table 2's DeepSeek-V3 terms; the MiniMax column of Table 2
// (the same three differences, which the kit's exact judge scores as it
// scores the fitted ones: a judge check, not a test of the readers);
// Table 3's reverted-revert cell (Table 2's fine-d term again); and Table
// 13's p = 0 cells (fine − coarse on reverted-revert without noise: the
// fitted fine-d term minus the fitted coarse-d term). Unless c dropped
// Table 2; a nil c fitted nothing.
func Fitted(c *Calibration, cell ValidationCell) bool {
	if c == nil || droppedGroup(c, GroupTable2) {
		return false
	}
	switch cell.Table {
	case "Table 2", tableMiniMax:
		return true
	case "Table 3":
		return cell.Cell == string(esr.RevertedRevert)
	case "Table 13":
		return strings.HasSuffix(cell.Cell, " p=0.0")
	}
	return false
}

// OutOfSample are the cells c did not fit.
func OutOfSample(c *Calibration, cells []ValidationCell) []ValidationCell {
	var out []ValidationCell
	for _, x := range cells {
		if !Fitted(c, x) {
			out = append(out, x)
		}
	}
	return out
}

// ValidationTable lays the cells out, one row each, with the error and
// whether the paper's value lies in our interval; panel names the readers.
// Pass OutOfSample's cells: the table calls every cell out of sample.
func ValidationTable(cells []ValidationCell, panel string) *eval.Table {
	t := &eval.Table{ID: "calibration-validation", Title: "Out-of-sample check of " + panel + ": tables no calibration fits, ours beside the paper's",
		Columns: []string{"table", "cell", "ours", "95% CI", "paper", "error (ours − paper)", "paper in our CI"}}
	for _, c := range cells {
		in := "no"
		if c.Paper >= c.Lo && c.Paper <= c.Hi {
			in = "yes"
		}
		ours, paperV := eval.PropCell(c.Ours), eval.PropCell(c.Paper)
		if c.Interval {
			ours, paperV = eval.SignedCell(c.Ours), eval.SignedCell(c.Paper)
		}
		t.AddRow(c.Table, c.Cell, ours, report.Interval(c.Lo, c.Hi), paperV, eval.SignedCell(c.Error()), in)
	}
	t.Notes = []string{"Tables 2 (MiniMax judge), 3, 11, 12, 13: paired differences with question-clustered intervals; Table 5 and Figure 3: accuracies with Wilson intervals",
		"the calibration fits Tables 16, 17 and Table 2's DeepSeek-V3 terms; cells that are those numbers again (Table 2 under the MiniMax judge, Table 3's reverted-revert cell, Table 13 at p = 0) are fitted too: none of them is listed here"}
	return t
}

// ValidationSummary says, per table, the mean absolute error, how many of
// the paper's values lie inside our intervals and the largest error; every
// number comes from cells.
func ValidationSummary(cells []ValidationCell) string {
	type agg struct {
		n, in int
		abs   float64
		worst ValidationCell
	}
	by := map[string]*agg{}
	var tables []string
	for _, c := range cells {
		a := by[c.Table]
		if a == nil {
			a = &agg{}
			by[c.Table] = a
			tables = append(tables, c.Table)
		}
		a.n++
		a.abs += math.Abs(c.Error())
		if c.Paper >= c.Lo && c.Paper <= c.Hi {
			a.in++
		}
		if math.Abs(c.Error()) > math.Abs(a.worst.Error()) || a.n == 1 {
			a.worst = c
		}
	}
	sort.SliceStable(tables, func(i, j int) bool { return tables[i] < tables[j] })
	var parts []string
	for _, tb := range tables {
		a := by[tb]
		parts = append(parts, fmt.Sprintf("%s: mean |error| %.3f over %d cells, the paper's value inside our 95%% interval in %d; largest error %s in %s (ours %.3f, paper %.3f)",
			tb, a.abs/float64(a.n), a.n, a.in, report.Signed(a.worst.Error()), a.worst.Cell, a.worst.Ours, a.worst.Paper))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Out of sample, per table: " + strings.Join(parts, "; ") + "."
}

// The previous panel's validation: the last "esrkit-sim-calibration/2"
// panel (one fit to Tables 16–17 and Table 2, shared costs scaled per
// family by clutter-scale, every raw event line a row of the asked key, a
// conflict settled by a date sort; shipped until commit 3e8be60), measured
// once with that panel by Validate over the render-confound, strata, noise
// and provenance suites on data/synthetic (`esr calibrate --validate` at
// that commit), so that the two-stage panel can be set beside it: the old
// panel cannot be rerun, since its parameters are no longer in the reader
// model. It fitted what the default panel fits, so Fitted marks the same
// cells of both.
//
//go:embed validation-previous.json
var validationPreviousJSON []byte

// PreviousPanelValidation are the previous panel's validation cells (see
// validationPreviousJSON).
func PreviousPanelValidation() []ValidationCell {
	var cells []ValidationCell
	if err := json.Unmarshal(validationPreviousJSON, &cells); err != nil {
		panic("robust: validation-previous.json: " + err.Error())
	}
	return cells
}

// ValidationCompareTable sets two panels' cells side by side, cell by
// cell (the cells of newCells, matched by table and cell to oldCells):
// ours under each, the paper, each error, and whether the paper's value
// lies in each interval. fittedOld and fittedNew say which cells each
// panel's calibration fitted; such a cell is marked, not validated.
func ValidationCompareTable(oldCells, newCells []ValidationCell, oldName, newName string, fittedOld, fittedNew func(ValidationCell) bool) *eval.Table {
	t := &eval.Table{ID: "calibration-validation-compare", Title: "Old and new panel against the paper's tables, cell by cell",
		Columns: []string{"table", "cell", "paper", oldName, "error", "in CI", newName, "error", "in CI"}}
	key := func(c ValidationCell) string { return c.Table + "\x00" + c.Cell }
	old := map[string]ValidationCell{}
	for _, c := range oldCells {
		old[key(c)] = c
	}
	cellOf := func(c ValidationCell, fitted bool) (eval.Cell, eval.Cell, string) {
		v := eval.PropCell(c.Ours)
		if c.Interval {
			v = eval.SignedCell(c.Ours)
		}
		in := "no"
		if c.Paper >= c.Lo && c.Paper <= c.Hi {
			in = "yes"
		}
		if fitted {
			in = "fitted"
		}
		return v, eval.SignedCell(c.Error()), in
	}
	for _, c := range newCells {
		paperV := eval.PropCell(c.Paper)
		if c.Interval {
			paperV = eval.SignedCell(c.Paper)
		}
		ov, oe, oi := eval.TextCell("—"), eval.TextCell(""), ""
		if o, ok := old[key(c)]; ok {
			ov, oe, oi = cellOf(o, fittedOld(o))
		}
		nv, ne, ni := cellOf(c, fittedNew(c))
		t.AddRow(c.Table, c.Cell, paperV, ov, oe, oi, nv, ne, ni)
	}
	t.Notes = []string{"in CI: the paper's value lies inside that panel's 95% interval; fitted: the panel's calibration fitted this number, so it is not a check",
		oldName + ": measured with the panel shipped until commit 0b54e48 (PreviousPanelValidation); — : that panel's run had no such cell"}
	return t
}

// ValidationCompareSummary is, per table, each panel's mean |error| and
// how many of the paper's values lie inside its intervals, over the cells
// neither panel fitted and both have.
func ValidationCompareSummary(oldCells, newCells []ValidationCell, oldName, newName string, fittedOld, fittedNew func(ValidationCell) bool) string {
	key := func(c ValidationCell) string { return c.Table + "\x00" + c.Cell }
	old := map[string]ValidationCell{}
	for _, c := range oldCells {
		old[key(c)] = c
	}
	type agg struct {
		n, inOld, inNew int
		absOld, absNew  float64
	}
	by := map[string]*agg{}
	var tables []string
	for _, c := range newCells {
		o, ok := old[key(c)]
		if !ok || fittedOld(o) || fittedNew(c) {
			continue
		}
		a := by[c.Table]
		if a == nil {
			a = &agg{}
			by[c.Table] = a
			tables = append(tables, c.Table)
		}
		a.n++
		a.absOld += math.Abs(o.Error())
		a.absNew += math.Abs(c.Error())
		if o.Paper >= o.Lo && o.Paper <= o.Hi {
			a.inOld++
		}
		if c.Paper >= c.Lo && c.Paper <= c.Hi {
			a.inNew++
		}
	}
	sort.Strings(tables)
	var parts []string
	for _, tb := range tables {
		a := by[tb]
		parts = append(parts, fmt.Sprintf("%s (%d cells): mean |error| %.3f (%s) vs %.3f (%s), paper inside our interval %d vs %d",
			tb, a.n, a.absOld/float64(a.n), oldName, a.absNew/float64(a.n), newName, a.inOld, a.inNew))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Over the cells neither panel fitted: " + strings.Join(parts, "; ") + "."
}
