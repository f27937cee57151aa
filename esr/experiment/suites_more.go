package experiment

import (
	"context"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/report"

	"github.com/esrkit/esrkit/esr"
)

func init() {
	Suites["noise"] = NoiseSuite
	Suites["strata"] = StrataSuite
	Suites["checks"] = ChecksSuite
}

// NoiseSeed is the run seed of the noise sweeps.
const NoiseSeed = 2607

// NoiseSuite is §4.2 / Appendix C: both noise sweeps (Table 13, Figure 5).
func NoiseSuite(ctx context.Context, s Setup) (*Result, error) {
	rel, err := NoiseSweep(ctx, s, RelationNoiseAxis, NoiseLevels, NoiseSeed)
	if err != nil {
		return nil, err
	}
	drop, err := NoiseSweep(ctx, s, AtomDropoutAxis, NoiseLevels, NoiseSeed)
	if err != nil {
		return nil, err
	}
	relC := SweepComparisons(rel, RelationNoiseAxis, NoiseLevels, s.Stats)
	dropC := SweepComparisons(drop, AtomDropoutAxis, NoiseLevels, s.Stats)
	rows := append(rel, drop...)
	return &Result{Name: "noise", Rows: rows, Tables: []*report.Table{Table13(relC, dropC, rows)},
		Figures: map[string]*plot.Plot{"figure5-noise": Figure5(relC, dropC)}}, nil
}

// StrataSuite is §4.4's per-stratum table (Table 5) and the stream-length
// bins of Appendix C (Table 12), on snapshot QAs.
func StrataSuite(ctx context.Context, s Setup) (*Result, error) {
	rows, err := s.evaluate(ctx, Table5Memories, []esr.QueryType{esr.Snapshot}, s.Options, "")
	if err != nil {
		return nil, err
	}
	return &Result{Name: "strata", Rows: rows, Figures: map[string]*plot.Plot{},
		Tables: []*report.Table{Table5(rows, s.Stats), Table12(rows, StreamLengths(s.Bench), s.Stats)}}, nil
}

// ChecksSuite is Appendix G: Table 20 (permutation + Holm per family) and
// Table 16 (abstain calibration and κ per family).
func ChecksSuite(ctx context.Context, s Setup) (*Result, error) {
	rows, err := s.evaluate(ctx, []string{"fine-ledger", "graphrag-abstain"}, []esr.QueryType{esr.Snapshot}, s.Options, "")
	if err != nil {
		return nil, err
	}
	res := &Result{Name: "checks", Rows: rows, Figures: map[string]*plot.Plot{}}
	if t, err := Table20(rows, 0.05); err == nil {
		res.Tables = append(res.Tables, t)
	}
	if t, err := Table16(rows); err == nil {
		res.Tables = append(res.Tables, t)
	}
	return res, nil
}
