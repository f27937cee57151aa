package lab

import (
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader/sim"

	"context"
	"fmt"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
)

// noiseSuite is the "noise" experiment of `esr run` and the notebooks.
var noiseSuite = Suite{Name: SuiteNoise, Doc: "§4.2 / Appendix C: relation-noise and atom-dropout sweeps (Table 13, Figure 5)",
	Evaluate: noiseRows, Report: noiseReport, OwnRelations: true}

// strataSuite is the "strata" experiment of `esr run` and the notebooks.
var strataSuite = Suite{Name: SuiteStrata, Doc: "§4.4: per-stratum accuracy (Table 5) and stream-length bins (Table 12)",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		return s.Evaluate(ctx, paper.StrataMemories, []esr.QueryType{esr.Snapshot}, s.Options, eval.Variant{})
	},
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		return &Result{Name: "strata", Rows: rows, Figures: map[FigureID]*plot.Plot{},
			Tables: []*eval.Table{buildTable5(rows, s.Stats), buildTable12(rows, bench.StreamLengths(s.Bench), s.Stats)}}, nil
	}}

// checksSuite is the "checks" experiment of `esr run` and the notebooks.
var checksSuite = Suite{Name: SuiteChecks, Doc: "Appendix G/H: Table 20 (permutation + Holm per family), Table 16 (abstain calibration), Table 19 (abstain wording)",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		rows, err := s.Evaluate(ctx, memory.Specs(memory.FineLedger, memory.GraphRAGAbstain), []esr.QueryType{esr.Snapshot}, s.Options, eval.Variant{})
		if err != nil {
			return nil, err
		}
		w, err := wordingRows(ctx, s)
		return append(rows, w...), err
	},
	Report: checksReport}

// externalSuite is the "external" experiment of `esr run` and the notebooks.
var externalSuite = Suite{Name: SuiteExternal, Benches: []string{"dyknow"}, Doc: "Appendix D analogue on an external benchmark: provenance retention ordering and the snapshot ceiling",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		prov, err := provenanceRows(ctx, s)
		if err != nil {
			return nil, err
		}
		snap, err := s.Evaluate(ctx, memory.Specs(memory.DirectContext, memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger, memory.CoarseRetain),
			[]esr.QueryType{esr.Snapshot}, s.Options, eval.Variant{})
		return append(prov, snap...), err
	},
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		res := &Result{Name: "external", Rows: rows, Figures: map[FigureID]*plot.Plot{}}
		name := s.Bench.Name()
		t, err := provenanceTable(rows, name)
		res.Add(AppendixDProvenance.On(name), t, err)
		mems := memory.Specs(memory.DirectContext, memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger, memory.CoarseRetain)
		res.Tables = append(res.Tables, snapshotCeilingTable(rows, name, esr.RevertedRevert, mems))
		res.Tables = append(res.Tables, snapshotCeilingTable(rows, name, esr.Monotonic, mems))
		return res, res.draw(AppendixDProvenanceFigure)
	}}

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

// checksReport is Appendix G: Table 20 (permutation + Holm per family),
// Table 16 (abstain calibration and κ per family) and Table 19 (the abstain
// wording) with its verdict (table19Verdict) as the table's sentence.
func checksReport(rows []eval.Outcome, s Setup) (*Result, error) {
	res := &Result{Name: "checks", Rows: rows, Figures: map[FigureID]*plot.Plot{}}
	main := eval.Select(rows, eval.Variants(eval.Variant{}))
	t, err := buildTable20(main, 0.05)
	res.Add(Table20PermutationHolm, t, err)
	t, err = buildTable16(main)
	res.Add(Table16AbstainCalibration, t, err)
	t, err = buildTable19(rows, s.Stats)
	res.Add(Table19AbstainWording, t, err)
	var verdict []string // none when no (wording, family) cell has both arms
	if v := table19Verdict(rows, s.Stats); v != "" {
		verdict = []string{v}
	}
	res.Verdicts = map[TableID][]string{Table19AbstainWording: verdict}
	return res, nil
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

// wordingRows evaluates fine-ledger and graphrag-abstain on snapshot QAs
// once per wording: LLM readers ask with that wording's template, scripted
// and sim readers get the analogue conflict policy (sim readers keep their
// profile and draws); the oracle has no wording and is left out.
func wordingRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	var rows []eval.Outcome
	for _, v := range wordingVariants {
		var rs []reader.Reader
		for _, r := range s.Readers {
			if l, ok := r.(*reader.LLM); ok {
				vr, err := l.WithTemplate(v.Template)
				if err != nil {
					return nil, err
				}
				rs = append(rs, vr)
				continue
			}
			if sm, ok := r.(*sim.Sim); ok {
				// The sim analogue: the same profile and draws, its conflict
				// policy moved toward the wording (terse: take the first
				// value; conservative: never abstain; verbose: as fitted).
				p := sm.Profile()
				switch v.OnConflict {
				case sim.ConflictFirst:
					p.FirstRowBias = 1
				case sim.ConflictMajority:
					p.AbstainOnConflict = 0
				}
				vr, err := sim.New(p, sm.Seed())
				if err != nil {
					return nil, err
				}
				rs = append(rs, asFamilyOf(renameSim(vr, sm.Spec().Name+"~"+v.OnConflict), r.Family()))
				continue
			}
			sc, ok := r.(*sim.Scripted)
			if !ok {
				continue
			}
			caps := sc.Capabilities()
			caps.OnConflict = v.OnConflict
			vr, err := sim.NewScriptedWith(sc.Spec().Name+"~"+v.OnConflict, caps)
			if err != nil {
				return nil, err
			}
			rs = append(rs, asFamilyOf(vr, r.Family()))
		}
		if len(rs) == 0 {
			return rows, nil
		}
		r, err := eval.Evaluate(ctx, s.Bench, eval.Config{Memories: memory.Specs(memory.FineLedger, memory.GraphRAGAbstain), Readers: rs,
			Judge: s.Judge, QueryTypes: []esr.QueryType{esr.Snapshot}, Options: s.Options, Variant: wordingCondition(v), Progress: s.Progress})
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}
