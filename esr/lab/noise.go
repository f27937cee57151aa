package lab

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/report"
	"gonum.org/v1/plot"
)

// noiseSuite is the "noise" experiment of `esr run` and the notebooks.
var noiseSuite = Suite{Name: SuiteNoise, Doc: "§4.2 / Appendix C: relation-noise and atom-dropout sweeps (Table 13, Figure 5)",
	Evaluate: noiseRows, Report: noiseReport, OwnRelations: true}

// noiseSeed is the run seed of the noise sweeps (declared in eval).
const noiseSeed = eval.NoiseSeed

func noiseRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	rel, err := NoiseSweep(ctx, s, eval.RelationNoiseAxis, paper.NoiseLevels, noiseSeed)
	if err != nil {
		return nil, err
	}
	drop, err := NoiseSweep(ctx, s, eval.AtomDropoutAxis, paper.NoiseLevels, noiseSeed)
	if err != nil {
		return nil, err
	}
	return append(rel, drop...), nil
}

// noiseReport is §4.2 / Appendix C: both noise sweeps (Table 13, Figure 5).
func noiseReport(rows []eval.Outcome, s Setup) (*Result, error) {
	relC := eval.SweepComparisons(rows, eval.RelationNoiseAxis, paper.NoiseLevels, s.Stats)
	dropC := eval.SweepComparisons(rows, eval.AtomDropoutAxis, paper.NoiseLevels, s.Stats)
	res := &Result{Name: "noise", Rows: rows, Tables: []*eval.Table{buildTable13(relC, dropC, rows)},
		Comparisons: map[TableID][]eval.Comparison{
			Table13NoiseSweeps.On(string(eval.RelationNoiseAxis)): relC,
			Table13NoiseSweeps.On(string(eval.AtomDropoutAxis)):   dropC}}
	return res, res.draw(Figure5NoiseFigure)
}

// NoiseSweep evaluates fine-ledger and coarse-retain on reverted-revert
// snapshot QAs at each level of one axis, the corruption seeded identically
// in both arms: relation-label noise wraps the relation source with
// relate.RelationNoise (seed, p, atom pair); atom dropout removes the same
// atoms from both arms (seed, p, atom id). It returns the rows, one
// condition per level.
func NoiseSweep(ctx context.Context, s Setup, axis eval.NoiseAxis, levels []float64, seed uint64) ([]eval.Outcome, error) {
	var rows []eval.Outcome
	base := s.Options.Relator
	if base == nil {
		base = relate.Rule{}
	}
	for _, p := range levels {
		cfg := eval.Config{Memories: memory.Specs(memory.FineLedger, memory.CoarseRetain), Readers: s.Readers, Judge: s.Judge,
			QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert},
			Options: s.Options, Variant: eval.NoiseVariant(string(axis), p), Progress: s.Progress}
		switch axis {
		case eval.RelationNoiseAxis:
			cfg.Options.Relator = relate.RelationNoise{Inner: base, P: p, Seed: seed}
		case eval.AtomDropoutAxis:
			level := p
			cfg.Atoms = func(_ string, atoms []esr.Atom) []esr.Atom { return relate.DropAtoms(atoms, level, seed) }
		default:
			return nil, fmt.Errorf("unknown noise axis %q", axis)
		}
		r, err := eval.Evaluate(ctx, s.Bench, cfg)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

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

// NoiseArmsTable shows each arm's accuracy (fine-ledger, coarse-retain) at
// every level of one sweep: whether both arms respond to the noise.
func NoiseArmsTable(rows []eval.Outcome, axis eval.NoiseAxis, levels []float64) *eval.Table {
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

// NoiseSentence says, from the rows, how far each arm falls between the
// lowest and the highest noise level and the sign of fine − coarse at each
// end.
func NoiseSentence(rows []eval.Outcome, axis eval.NoiseAxis, levels []float64, opt eval.StatOptions) string {
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
