package robust

import (
	"github.com/esrkit/esrkit/esr/boundary"
	"github.com/esrkit/esrkit/esr/experiment"

	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/paper"
	"github.com/esrkit/esrkit/internal/report"
)

// Validation checks a reader panel out of sample: the paper's Tables 2, 3,
// 5, 11, 12 and 13, none of which a calibration fits (it fits Tables 16 and
// 17), recomputed with the panel's rows and set beside the paper's, cell by
// cell, with the error (ours − paper).

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
}

// Error is Ours − Paper.
func (c ValidationCell) Error() float64 { return c.Ours - c.Paper }

// ValidationRows are the rows each validated table reads: the
// render-confound suite (Tables 2, 3, 11), the strata suite (Tables 5, 12)
// and the noise suite (Table 13).
type ValidationRows struct {
	RenderConfound, Strata, Noise []eval.Outcome
	// Pure is the pure-monotonic question set (PureMonotonic) and Lengths
	// the stream length per question (StreamLengths).
	Pure    map[string]bool
	Lengths map[string]int
}

// Validate computes every validated cell the rows allow.
func Validate(v ValidationRows, opt eval.StatOptions) []ValidationCell {
	var out []ValidationCell
	diff := func(table, cell string, rows []eval.Outcome, a, b string, f eval.Filter, key string) {
		p, ok := experiment.Paper[key]
		if !ok || len(rows) == 0 {
			return
		}
		c, err := eval.Compare(rows, cell, a, b, f, opt)
		if err != nil {
			return
		}
		out = append(out, ValidationCell{Table: table, Cell: cell, Ours: c.Delta, Lo: c.Lo, Hi: c.Hi, Paper: p, Interval: true})
	}
	rr := eval.And(eval.QueryType("snapshot"), eval.Phenomenon(string(esr.RevertedRevert)))
	diff("Table 2", eval.TermRender, v.RenderConfound, memory.RenderOnly, memory.GraphRAGAbstain, rr, "t2/"+eval.TermRender)
	diff("Table 2", eval.TermFineMechanism, v.RenderConfound, memory.FineLedger, memory.RenderOnly, rr, "t2/"+eval.TermFineMechanism)
	diff("Table 2", eval.TermCoarsePaper, v.RenderConfound, memory.CoarseRetain, memory.RenderOnly, rr, "t2/"+eval.TermCoarsePaper)
	for _, p := range esr.Phenomena {
		diff("Table 3", string(p), v.RenderConfound, memory.FineLedger, memory.RenderOnly, eval.And(eval.QueryType("snapshot"), eval.Phenomenon(string(p))), "t3/"+string(p))
	}
	if v.Pure != nil {
		mono := eval.And(eval.QueryType("snapshot"), eval.Phenomenon(string(esr.Monotonic)))
		notPure := func(o *eval.Outcome) bool { return !v.Pure[o.QID] }
		pure := eval.And(mono, eval.QIDs(v.Pure))
		diff("Table 11", "with deprecated: RL − GRA", v.RenderConfound, memory.FineLedger, memory.GraphRAGAbstain, eval.And(mono, notPure), "t11/with-deprecated")
		diff("Table 11", "pure: RL − GRA", v.RenderConfound, memory.FineLedger, memory.GraphRAGAbstain, pure, "t11/pure/RL − GRA")
		diff("Table 11", "pure: render", v.RenderConfound, memory.RenderOnly, memory.GraphRAGAbstain, pure, "t11/pure/render")
		diff("Table 11", "pure: fine residual", v.RenderConfound, memory.FineLedger, memory.RenderOnly, pure, "t11/pure/fine residual")
	}
	for _, p := range esr.Phenomena {
		f := eval.And(eval.QueryType("snapshot"), eval.Phenomenon(string(p)))
		for _, a := range eval.AccuracyBy(v.Strata, boundary.Table5Memories, nil, f, opt.WithDefaults().Level) {
			if pv, ok := experiment.Paper["t5/"+string(p)+"/"+a.Memory]; ok {
				out = append(out, ValidationCell{Table: "Table 5", Cell: string(p) + " " + a.Memory, Ours: a.Acc, Lo: a.Lo, Hi: a.Hi, Paper: pv})
			}
		}
	}
	if v.Lengths != nil && len(v.Strata) > 0 {
		for i, bin := range boundary.Table12Bins() {
			label := bin
			f := eval.And(eval.QueryType("snapshot"), func(o *eval.Outcome) bool { return boundary.LengthBin(v.Lengths[o.QID]) == label })
			if c, err := eval.Compare(v.Strata, bin, memory.FineLedger, memory.CoarseRetain, f, opt); err == nil {
				out = append(out, ValidationCell{Table: "Table 12", Cell: bin + " events", Ours: c.Delta, Lo: c.Lo, Hi: c.Hi, Paper: paper.Table12[i], Interval: true})
			}
		}
	}
	for _, axis := range []boundary.NoiseAxis{boundary.RelationNoiseAxis, boundary.AtomDropoutAxis} {
		cs := boundary.SweepComparisons(v.Noise, axis, boundary.NoiseLevels, opt)
		for i, p := range boundary.NoiseLevels {
			if c, ok := boundary.AtLevel(cs, p); ok && i < len(paper.Table13[string(axis)]) {
				out = append(out, ValidationCell{Table: "Table 13", Cell: fmt.Sprintf("%s p=%.1f", axis, p), Ours: c.Delta, Lo: c.Lo, Hi: c.Hi,
					Paper: paper.Table13[string(axis)][i], Interval: true})
			}
		}
	}
	return out
}

// ValidationTable lays the cells out, one row each, with the error and
// whether the paper's value lies in our interval; panel names the readers.
func ValidationTable(cells []ValidationCell, panel string) *eval.Table {
	t := &eval.Table{Name: "calibration-validation", Title: "Out-of-sample check of " + panel + ": tables no calibration fits, ours beside the paper's",
		Columns: []string{"table", "cell", "ours", "95% CI", "paper", "error (ours − paper)", "paper in our CI"}}
	for _, c := range cells {
		in := "no"
		if c.Paper >= c.Lo && c.Paper <= c.Hi {
			in = "yes"
		}
		ours, paperV := eval.PropCell(c.Ours), eval.PropCell(c.Paper)
		if c.Interval {
			ours, paperV = report.Signed(c.Ours), report.Signed(c.Paper)
		}
		t.AddRow(c.Table, c.Cell, ours, report.Interval(c.Lo, c.Hi), paperV, report.Signed(c.Error()), in)
	}
	t.Notes = []string{"Tables 2, 3, 11, 12, 13: paired differences with question-clustered intervals; Table 5: accuracies with Wilson intervals",
		"the calibration fits Tables 16 and 17 only: every cell here is out of sample"}
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
