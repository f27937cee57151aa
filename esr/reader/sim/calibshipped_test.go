package sim_test

import (
	"context"
	"math"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// TestShippedGrids: the shipped identifiability results belong to the
// shipped calibration. The noise grid's row at the default auxiliary noise
// and the best default-ridge fit of the identifiability grid with Table 2
// are the shipped panel (same Table 2 terms); the grid covers the default
// noise level (a stated rule, not the best fit: DefaultAuxNoise); the
// sensitivity has the calibration's rank; and the lesson the notebook
// draws holds: with and without Table 2 the split keeps its signs.
func TestShippedGrids(t *testing.T) {
	c := sim.Calibrated()
	panel := map[string]float64{}
	for _, tg := range c.Panel {
		panel[tg.Name] = tg.Fit
	}
	same := func(r sim.FitSummary) bool {
		return math.Abs(r.Render-panel[sim.TargetRender]) < 1e-9 && math.Abs(r.Fine-panel[sim.TargetFine]) < 1e-9 &&
			math.Abs(r.Coarse-panel[sim.TargetCoarse]) < 1e-9
	}
	noise := sim.ShippedNoiseGrid()
	if len(noise) != len(sim.NoiseGrid()) {
		t.Fatalf("%d noise fits shipped, the grid has %d", len(noise), len(sim.NoiseGrid()))
	}
	covered := false
	for _, r := range noise {
		if r.AuxNoise == sim.DefaultAuxNoise {
			covered = true
			if !same(r) {
				t.Errorf("noise grid at %v: %+v is not the shipped panel %v", r.AuxNoise, r, panel)
			}
		}
	}
	if !covered {
		t.Errorf("the noise grid has no fit at the default auxiliary noise %v", sim.DefaultAuxNoise)
	}
	ident := sim.ShippedIdentifiability()
	if len(ident) != len(sim.IdentifiabilityGrid()) {
		t.Fatalf("%d identifiability fits shipped, the grid has %d", len(ident), len(sim.IdentifiabilityGrid()))
	}
	found := false
	var spanWith, spanWithout [2]float64 = [2]float64{9, -9}, [2]float64{9, -9}
	for _, r := range ident {
		span := &spanWith
		if len(r.Dropped) > 0 {
			span = &spanWithout
		} else if r.Ridge == sim.CalibrationRidge && same(r) {
			found = true // the start the shipped calibration kept
		}
		span[0], span[1] = math.Min(span[0], r.Render), math.Max(span[1], r.Render)
	}
	if !found {
		t.Errorf("no default-ridge fit with Table 2 in the grid is the shipped panel %v", panel)
	}
	// The lesson notebook 41's exercise draws: the render term stays
	// positive across the grid, and Table 2's targets are what keep the
	// coarse-d term positive (nbhelp's exercise test checks the rest).
	for _, r := range ident {
		if r.Render <= 0 || len(r.Dropped) == 0 && r.Coarse <= 0 {
			t.Errorf("%s: render %+.3f, coarse-d %+.3f", r.Label, r.Render, r.Coarse)
		}
	}
	if spanWith[0] > spanWith[1] || spanWithout[0] > spanWithout[1] {
		t.Errorf("the grid lacks fits with (%v) or without (%v) Table 2", spanWith, spanWithout)
	}
	if s := sim.ShippedSensitivity(); s.Rank != c.Rank || len(s.Params) != c.Parameters {
		t.Errorf("sensitivity rank %d over %d parameters, calibration rank %d over %d", s.Rank, len(s.Params), c.Rank, c.Parameters)
	}
}

// TestShippedCalibration: the calibrated panel shipped with the kit
// (esr/reader/sim/calibrated.json) was fitted on the bundled synthetic bench
// as it is now, and every fitted number it records (each family's targets
// and the panel's Table 2 terms) is what its profiles give on it
// (recomputed, not read back). Regenerate with
// `go run ./cmd/esr calibrate --bench data/synthetic --targets paper --out esr/reader/sim/calibrated.json`.
func TestShippedCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("recomputes the calibration targets on the bundled bench")
	}
	b, err := bench.Load("../../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	c := sim.Calibrated()
	if got := sim.BenchHash(b); got != c.BenchHash {
		t.Fatalf("shipped calibration was fitted on bench %s, data/synthetic is now %s: rerun esr calibrate", c.BenchHash, got)
	}
	if len(c.Families) != 5 || len(c.Dropped) != 0 || c.AuxNoise != sim.DefaultAuxNoise {
		t.Fatalf("%d calibrated families, dropped %v, auxiliary noise %v: want the paper's 5, nothing dropped, noise %v", len(c.Families), c.Dropped, c.AuxNoise, sim.DefaultAuxNoise)
	}
	if c.Parameters != 40 || c.Targets != 43 || len(c.Stage1) != 5 {
		t.Errorf("%d parameters against %d targets, %d stage-1 families: want 40 against 43, 5", c.Parameters, c.Targets, len(c.Stage1))
	}
	fam, panel, err := sim.Refit(context.Background(), b, c)
	if err != nil {
		t.Fatal(err)
	}
	for fi, f := range c.Families {
		want := sim.CalibrationTargets(f.Family, c.Reading)
		if len(want) != len(f.Targets) {
			t.Fatalf("%s: %d targets, want %d", f.Family, len(f.Targets), len(want))
		}
		pred := fam[fi]
		sq := 0.0
		for i, tg := range f.Targets {
			if tg.Name != want[i].Name || tg.Paper != want[i].Paper {
				t.Errorf("%s target %d: %s %v, registry says %s %v", f.Family, i, tg.Name, tg.Paper, want[i].Name, want[i].Paper)
			}
			if math.Abs(pred[i]-tg.Fit) > 1e-9 {
				t.Errorf("%s %s: recorded fit %v, the profile gives %v", f.Family, tg.Name, tg.Fit, pred[i])
			}
			sq += (pred[i] - tg.Paper) * (pred[i] - tg.Paper)
		}
		if rmse := math.Sqrt(sq / float64(len(pred))); math.Abs(rmse-f.RMSE) > 1e-9 {
			t.Errorf("%s: recorded RMSE %v, recomputed %v", f.Family, f.RMSE, rmse)
		}
		// Every fitted skill is set, so a profile that lost one would show.
		for _, name := range []string{sim.KeyStatus, sim.ClutterScale, sim.LengthCost, sim.RowsCost, sim.FlatCost, sim.DistractCost, sim.ProseCost, sim.NestCost, sim.ParaCost, "conflict", "prose"} {
			if v, _ := f.Profile.Get(name); v == 0 {
				t.Errorf("%s: %s is 0", f.Family, name)
			}
		}
		if !f.Profile.KeyStatusSkill.Set {
			t.Errorf("%s: no key-status skill of its own", f.Family)
		}
	}
	want := sim.PanelTargets()
	if len(c.Panel) != len(want) {
		t.Fatalf("%d panel targets, want %d", len(c.Panel), len(want))
	}
	for i, tg := range c.Panel {
		if tg.Name != want[i].Name || tg.Paper != want[i].Paper || math.Abs(panel[i]-tg.Fit) > 1e-9 {
			t.Errorf("panel target %d: %s paper %v fit %v, want %s paper %v fit %v", i, tg.Name, tg.Paper, tg.Fit, want[i].Name, want[i].Paper, panel[i])
		}
	}
}
