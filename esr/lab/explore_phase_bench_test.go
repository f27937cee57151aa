package lab_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/workpool"
)

// BenchmarkPhaseDiagram measures notebook 40's phase diagram on the
// bundled synthetic bench: the 7×7 date × status grid with the five fitted
// readers marked, the interactive bootstrap, from the benchmark (render,
// read, judge, two terms per cell): what a student's rerun of the phase
// cell computes. It reports
//
//   - s/diagram: seconds per diagram;
//   - x-reader-by-reader: the ratio to a baseline measured in the same run,
//     the same 54 readers reading the same renders one reader after
//     another, as many at once as there are cores (every render parsed
//     once per reader; no terms): how the diagram read them before each
//     question's renders went to every reader in turn.
//
// Run: go test ./esr/lab -run '^$' -bench PhaseDiagram -benchtime 5x
func BenchmarkPhaseDiagram(b *testing.B) {
	bn := loadSynthetic(b)
	ctx := context.Background()
	grid := []float64{0, 0.25, 0.5, 0.75, 0.9, 0.95, 1}
	base := sim.Profile{Name: "phase", FirstRowBias: 0.5, AbstainOnConflict: 0.5}
	marks := sim.CalibratedProfiles()

	// The baseline: reader by reader over the same renders.
	items, err := eval.RenderQAs(bn, lab.PhaseMemories, func(qa *esr.QA) bool {
		return qa.Phenomenon == esr.RevertedRevert && qa.Type() == esr.Snapshot
	}, memory.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var profs []sim.Profile
	for _, y := range grid {
		for _, x := range grid {
			p, _ := base.Set(sim.Date, x)
			p, _ = p.Set(sim.Status, y)
			profs = append(profs, p)
		}
	}
	profs = append(profs, marks...)
	t0 := time.Now()
	err = workpool.Run(ctx, len(profs), runtime.GOMAXPROCS(0), func(ctx context.Context, i int) error {
		r, err := sim.New(profs[i], 0)
		if err != nil {
			return err
		}
		for _, it := range items {
			for mi := range it.Inputs {
				if _, err := it.Read(ctx, r, mi); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	baseline := float64(time.Since(t0).Nanoseconds())

	for b.Loop() {
		if _, err := lab.PhaseDiagram(ctx, bn, sim.Date, sim.Status, grid, base, eval.InteractiveStats, marks...); err != nil {
			b.Fatal(err)
		}
	}
	per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(per/1e9, "s/diagram")
	b.ReportMetric(per/baseline, "x-reader-by-reader")
}
