package lab

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/paper"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/report"
)

// buildTable13 lays both sweeps side by side, ours beside the paper's.
func buildTable13(rel, drop []eval.Comparison, rows []eval.Outcome) *eval.Table {
	t := &eval.Table{ID: Table13NoiseSweeps, Title: "Table 13: fine − coarse under controlled noise (reverted-revert, snapshot)",
		Columns: []string{"p", "relation noise Δ", "95% CI", "paper", "atom dropout Δ", "95% CI", "paper", "n"}}
	for i, p := range paper.NoiseLevels {
		cells := []any{eval.NumberCell("%.1f", p)}
		n := 0
		for _, side := range []struct {
			cs   []eval.Comparison
			axis eval.NoiseAxis
		}{{rel, eval.RelationNoiseAxis}, {drop, eval.AtomDropoutAxis}} {
			c, ok := eval.AtLevel(side.cs, p)
			paper := eval.SignedCell(paper.Table13[string(side.axis)][i])
			if !ok {
				cells = append(cells, "—", "—", paper)
				continue
			}
			cells = append(cells, eval.SignedCell(c.Delta), c.CI(), paper)
			n = c.N
		}
		t.AddRow(append(cells, n)...)
	}
	t.Notes = []string{"noise at level p is injected identically into both arms (seeded per atom pair / atom)", eval.IntervalNoteFor(append(append([]eval.Comparison{}, rel...), drop...)), eval.FamilyNote(rows)}
	return t
}

// sweepPlot is the paper's Figure 5: both sweeps, fine − coarse against p
// with intervals.
func sweepPlot(rel, drop []eval.Comparison) *plot.Plot {
	toXY := func(cs []eval.Comparison) []report.XYInterval {
		var out []report.XYInterval
		for _, c := range cs {
			out = append(out, report.XYInterval{X: c.Variant.Noise.P, Est: c.Delta, Lo: c.Lo, Hi: c.Hi})
		}
		return out
	}
	paperXY := func(vals []float64) []report.XYInterval {
		var out []report.XYInterval
		for i, v := range vals {
			p := 0.1 * float64(i)
			out = append(out, report.XYInterval{X: p, Est: v, Lo: v, Hi: v})
		}
		return out
	}
	const pRel, pDrop = report.PaperSeries + ": relation-label noise", report.PaperSeries + ": atom dropout"
	return report.LinePlot("Fine-d − coarse-d under controlled noise", "corruption probability p", "Δ accuracy (fine − coarse)",
		map[string][]report.XYInterval{"relation-label noise": toXY(rel), "atom dropout": toXY(drop),
			pRel: paperXY(paper.Table13["relation-noise"]), pDrop: paperXY(paper.Table13["atom-dropout"])},
		[]string{"relation-label noise", "atom dropout", pRel, pDrop}, true)
}

// ArmsTable shows each arm's accuracy (fine-ledger, coarse-retain) at
// every level of one sweep: whether both arms respond to the noise.
func ArmsTable(rows []eval.Outcome, axis eval.NoiseAxis, levels []float64) *eval.Table {
	t := &eval.Table{ID: eval.TableID("noise-arms-" + string(axis)), Title: "Accuracy of each arm under " + string(axis) + " (reverted-revert, snapshot)",
		Columns: []string{"p", "n", memory.FineLedger, memory.CoarseRetain}}
	for _, p := range levels {
		acc := map[string]eval.Accuracy{}
		for _, a := range eval.AccuracyBy(rows, memory.Specs(memory.FineLedger, memory.CoarseRetain), nil, eval.Variants(eval.NoiseVariant(string(axis), p)), 0.95) {
			acc[a.Memory.String()] = a
		}
		t.AddRow(eval.NumberCell("%.1f", p), acc[memory.FineLedger].N, eval.PropCell(acc[memory.FineLedger].Acc), eval.PropCell(acc[memory.CoarseRetain].Acc))
	}
	t.Notes = []string{eval.FamilyNote(rows)}
	return t
}

// Sentence says, from the rows, how far each arm falls between the
// lowest and the highest noise level and the sign of fine − coarse at each
// end.
func Sentence(rows []eval.Outcome, axis eval.NoiseAxis, levels []float64, opt eval.StatOptions) string {
	if len(levels) < 2 {
		return ""
	}
	at := func(p float64) map[string]float64 {
		out := map[string]float64{}
		for _, a := range eval.AccuracyBy(rows, memory.Specs(memory.FineLedger, memory.CoarseRetain), nil, eval.Variants(eval.NoiseVariant(string(axis), p)), 0.95) {
			out[a.Memory.String()] = a.Acc
		}
		return out
	}
	p0, p1 := levels[0], levels[len(levels)-1]
	a0, a1 := at(p0), at(p1)
	s := fmt.Sprintf("Under %s, fine-ledger goes from %s at p = %.1f to %s at p = %.1f (%s); coarse-retain from %s to %s (%s).",
		axis, eval.PropCell(a0[memory.FineLedger]), p0, eval.PropCell(a1[memory.FineLedger]), p1, report.Signed(a1[memory.FineLedger]-a0[memory.FineLedger]),
		eval.PropCell(a0[memory.CoarseRetain]), eval.PropCell(a1[memory.CoarseRetain]), report.Signed(a1[memory.CoarseRetain]-a0[memory.CoarseRetain]))
	for _, p := range []float64{p0, p1} {
		if c, err := eval.Compare(rows, eval.TermFineCoarse, eval.Variants(eval.NoiseVariant(string(axis), p)), opt); err == nil {
			s += fmt.Sprintf(" At p = %.1f, %s.", p, eval.Describe(c))
		}
	}
	return s
}
