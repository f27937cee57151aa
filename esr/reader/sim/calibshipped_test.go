package sim_test

import (
	"math"
	"testing"

	"github.com/esrkit/esrkit/esr/reader/sim"
)

// TestShippedGrids: the shipped identifiability results belong to the
// shipped calibration. The noise grid's row at the default auxiliary noise
// and the best default-ridge fit of the identifiability grid with Table 2
// are the shipped panel (same Table 2 terms); the grid covers the default
// noise level (a stated rule, not the best fit: DefaultAuxNoise); the
// sensitivity has the calibration's rank; and the lesson the notebook
// draws holds: without Table 2 the render term wanders further than with
// it.
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
	if spanWithout[1]-spanWithout[0] <= spanWith[1]-spanWith[0] {
		t.Errorf("render spans %v with Table 2 and %v without: it does not wander further without", spanWith, spanWithout)
	}
	if s := sim.ShippedSensitivity(); s.Rank != c.Rank || len(s.Params) != c.Parameters {
		t.Errorf("sensitivity rank %d over %d parameters, calibration rank %d over %d", s.Rank, len(s.Params), c.Rank, c.Parameters)
	}
}
