package sim_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/goldenimg"
	"github.com/esrkit/esrkit/internal/report"
)

// TestEvidencePlotGolden: the rows anchor of Qwen3-8B (PI-LLM's curve and
// the shipped model over it) matches its reference, and a model whose
// rows cost moved does not; every anchor figure of the shipped panel reads
// at a glance (report.FigureProblems). Regenerate the reference after an
// intended change with
//
//	go test ./esr/reader/sim -run EvidencePlotGolden -update-golden
func TestEvidencePlotGolden(t *testing.T) {
	reg := sim.ShippedEvidence()
	c := sim.Calibrated()
	f, ok := c.Family(sim.FitName("Qwen3-8B"))
	if !ok {
		t.Fatal("no Qwen3-8B in the shipped calibration")
	}
	goldenimg.Check(t, sim.EvidencePlot(reg, f.Family, f.Profile, sim.EvidenceRows), "evidence-rows-qwen3-8b")
	moved := f.Profile
	moved.RowsCost += 0.5
	goldenimg.CheckDiffers(t, sim.EvidencePlot(reg, f.Family, moved, sim.EvidenceRows), "evidence-rows-qwen3-8b")
	plots := sim.EvidencePlots(reg, c)
	if len(plots) != len(c.Families)*len(sim.EvidenceFigureSkills) {
		t.Fatalf("%d figures for %d families and %d skills", len(plots), len(c.Families), len(sim.EvidenceFigureSkills))
	}
	for name, p := range plots {
		for _, problem := range report.FigureProblems(p, report.FigureWidth, report.FigureHeight) {
			t.Errorf("%s: %s", name, problem)
		}
	}
}

// TestAnchorPlotNamesTheProfile: a calibration's anchor figure of a fitted
// profile is that family's sim.EvidencePlot; an unknown profile is an error
// that lists the ones it holds.
func TestAnchorPlotNamesTheProfile(t *testing.T) {
	c := sim.Calibrated()
	f, _ := c.Family(sim.FitName("Qwen3-8B"))
	p, err := c.AnchorPlot(f.Profile.Name, sim.EvidenceRows)
	if err != nil {
		t.Fatal(err)
	}
	goldenimg.Check(t, p, "evidence-rows-qwen3-8b")
	_, err = c.AnchorPlot("fit-gpt-9", sim.EvidenceRows)
	if err == nil || !strings.Contains(err.Error(), f.Profile.Name) {
		t.Fatalf("unknown profile: %v", err)
	}
}
