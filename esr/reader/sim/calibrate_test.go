package sim_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/synth"
)

// TestCalibrateSmall: on a small generated bench the joint fit is
// deterministic, lowers the weighted error from its start, reports what it
// fitted against what, and refits without Table 2's targets (reporting
// their values all the same); bad options are refused.
func TestCalibrateSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("fits the panel on a small generated bench")
	}
	cfg := synth.DefaultConfig()
	cfg.Seed, cfg.PerStratum = 3, 4
	b, err := synth.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opt := sim.CalibrateOptions{Starts: []int{0}, Iterations: 8}
	c1, err := sim.Calibrate(ctx, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := sim.Calibrate(ctx, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := c1.JSON()
	j2, _ := c2.JSON()
	if string(j1) != string(j2) {
		t.Fatal("two calibrations of one bench differ")
	}
	if len(c1.Families) != 5 || c1.Families[3].Profile.Name != "fit-qwen3-8b" || len(c1.Families[3].Targets) != 8 || len(c1.Panel) != 3 {
		t.Fatalf("fitted %d families (%q with %d targets), %d panel targets", len(c1.Families), c1.Families[3].Profile.Name, len(c1.Families[3].Targets), len(c1.Panel))
	}
	// Stage 2: 40 parameters (8 per family) against 43 targets: 40 singular
	// values; stage 1 fitted every family to the registry.
	if c1.Parameters != 40 || c1.Targets != 43 || c1.Rank < 1 || c1.Rank > 40 || len(c1.SingularValues) != 40 || len(c1.Stage1) != 5 || len(c1.Identification) != 40 {
		t.Errorf("parameters %d, targets %d, rank %d, %d singular values, %d stage-1 families, %d identified", c1.Parameters, c1.Targets, c1.Rank, len(c1.SingularValues), len(c1.Stage1), len(c1.Identification))
	}
	for _, p := range c1.Identification {
		if p.MaxTarget > 0.5+1e-6 {
			t.Errorf("%s: one target carries %.2f of its identification", p.Param, p.MaxTarget)
		}
	}
	zero, err := sim.Calibrate(ctx, b, sim.CalibrateOptions{Starts: []int{0}, Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a, z := sim.SummarizeFit(c1, "", 0, 0).Objective, sim.SummarizeFit(zero, "", 0, 0).Objective; a > z {
		t.Errorf("weighted error after 8 iterations %v, after 1 %v", a, z)
	}
	noT2, err := sim.Calibrate(ctx, b, sim.CalibrateOptions{Starts: []int{0}, Iterations: 8, Drop: []string{sim.GroupTable2}})
	if err != nil {
		t.Fatal(err)
	}
	if noT2.Targets != 40 || len(noT2.Panel) != 3 || len(noT2.Dropped) != 1 {
		t.Errorf("without Table 2: %d targets, %d panel values, dropped %v", noT2.Targets, len(noT2.Panel), noT2.Dropped)
	}
	if !strings.Contains(sim.CalibrationSentence(noT2), "(not fitted)") {
		t.Errorf("the sentence does not say Table 2 was not fitted: %s", sim.CalibrationSentence(noT2))
	}
	for _, bad := range []sim.CalibrateOptions{{Reading: "sideways"}, {Drop: []string{"t9"}}, {AuxNoise: math.NaN()}, {Starts: []int{7}},
		{Families: []string{"Qwen3-8B", "Qwen3-8B"}}, {Ridge: -1}} {
		if _, err := sim.Calibrate(ctx, b, bad); err == nil {
			t.Errorf("options %+v accepted", bad)
		}
	}
}
