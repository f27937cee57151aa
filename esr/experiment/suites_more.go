package experiment

import (
	"context"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/memory"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
)

// noiseSuite is the "noise" experiment of `esr run` and the notebooks.
var noiseSuite = Suite{Name: "noise", Doc: "§4.2 / Appendix C: relation-noise and atom-dropout sweeps (Table 13, Figure 5)",
	Evaluate: noiseRows, Report: noiseReport}

// strataSuite is the "strata" experiment of `esr run` and the notebooks.
var strataSuite = Suite{Name: "strata", Doc: "§4.4: per-stratum accuracy (Table 5) and stream-length bins (Table 12)",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		return s.evaluate(ctx, Table5Memories, []esr.QueryType{esr.Snapshot}, s.Options, "")
	},
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		return &Result{Name: "strata", Rows: rows, Figures: map[string]*plot.Plot{},
			Tables: []*eval.Table{Table5(rows, s.Stats), Table12(rows, StreamLengths(s.Bench), s.Stats)}}, nil
	}}

// checksSuite is the "checks" experiment of `esr run` and the notebooks.
var checksSuite = Suite{Name: "checks", Doc: "Appendix G/H: Table 20 (permutation + Holm per family), Table 16 (abstain calibration), Table 19 (abstain wording)",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		rows, err := s.evaluate(ctx, []string{memory.FineLedger, memory.GraphRAGAbstain}, []esr.QueryType{esr.Snapshot}, s.Options, "")
		if err != nil {
			return nil, err
		}
		w, err := wordingRows(ctx, s)
		return append(rows, w...), err
	},
	Report: checksReport}

// externalSuite is the "external" experiment of `esr run` and the notebooks.
var externalSuite = Suite{Name: "external", Doc: "Appendix D analogue on an external benchmark: provenance retention ordering and the snapshot ceiling",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		prov, err := provenanceRows(ctx, s)
		if err != nil {
			return nil, err
		}
		snap, err := s.evaluate(ctx, []string{memory.DirectContext, memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger, memory.CoarseRetain},
			[]esr.QueryType{esr.Snapshot}, s.Options, "")
		return append(prov, snap...), err
	},
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		res := &Result{Name: "external", Rows: rows, Figures: map[string]*plot.Plot{}}
		name := s.Bench.Name()
		t, err := ExternalProvenanceTable(rows, name)
		res.add("appendixD-provenance-"+name, t, err)
		mems := []string{memory.DirectContext, memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger, memory.CoarseRetain}
		res.Tables = append(res.Tables, SnapshotCeilingTable(rows, name, string(esr.RevertedRevert), mems))
		res.Tables = append(res.Tables, SnapshotCeilingTable(rows, name, string(esr.Monotonic), mems))
		res.Figures["appendixD-provenance"] = Figure3(ProvenanceAccuracy(rows, StateOnly), "Provenance by retention class (external benchmark; rings: the paper's TempLAMA)", "templama/")
		return res, nil
	}}

// NoiseSeed is the run seed of the noise sweeps.
const NoiseSeed = 2607

func noiseRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	rel, err := NoiseSweep(ctx, s, RelationNoiseAxis, NoiseLevels, NoiseSeed)
	if err != nil {
		return nil, err
	}
	drop, err := NoiseSweep(ctx, s, AtomDropoutAxis, NoiseLevels, NoiseSeed)
	if err != nil {
		return nil, err
	}
	return append(rel, drop...), nil
}

// noiseReport is §4.2 / Appendix C: both noise sweeps (Table 13, Figure 5).
func noiseReport(rows []eval.Outcome, s Setup) (*Result, error) {
	relC := SweepComparisons(rows, RelationNoiseAxis, NoiseLevels, s.Stats)
	dropC := SweepComparisons(rows, AtomDropoutAxis, NoiseLevels, s.Stats)
	return &Result{Name: "noise", Rows: rows, Tables: []*eval.Table{Table13(relC, dropC, rows)},
		Figures: map[string]*plot.Plot{"figure5-noise": Figure5(relC, dropC)}}, nil
}

// checksReport is Appendix G: Table 20 (permutation + Holm per family) and
// Table 16 (abstain calibration and κ per family).
func checksReport(rows []eval.Outcome, s Setup) (*Result, error) {
	res := &Result{Name: "checks", Rows: rows, Figures: map[string]*plot.Plot{}}
	main := eval.Select(rows, eval.Condition(""))
	t, err := Table20(main, 0.05)
	res.add("table20-permutation-holm", t, err)
	t, err = Table16(main)
	res.add("table16-abstain-calibration", t, err)
	t, err = Table19(rows, s.Stats)
	res.add("table19-abstain-wording", t, err)
	return res, nil
}
