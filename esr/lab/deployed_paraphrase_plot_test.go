package lab_test

import (
	"math"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// like45 is notebook 45's oracle curve on synthetic: graphiti,
// graphiti-current and mem0-v3 at about 0 at every rate, graphiti@dup=0
// rising, mem0-update high and flat, the d-blind baseline at 0.
func like45() *lab.ParaphraseCurve {
	c := &lab.ParaphraseCurve{Bench: "synthetic", Series: lab.ParaphraseSeries, Rates: lab.ParaphraseRates,
		Baseline: map[string]eval.Accuracy{lab.OracleGroup: {Acc: 0, N: 300}}}
	curves := map[string][]float64{
		lab.ParaphraseSeries[0].String(): {0.01, 0.01, 0.01, 0.01, 0.01},
		lab.ParaphraseSeries[1].String(): {0, 0.43, 0.66, 0.73, 0.70},
		lab.ParaphraseSeries[2].String(): {0.01, 0.01, 0.01, 0.01, 0.01},
		lab.ParaphraseSeries[3].String(): {0, 0, 0, 0, 0},
		lab.ParaphraseSeries[4].String(): {0.88, 0.88, 0.88, 0.88, 0.88},
	}
	for _, s := range lab.ParaphraseSeries {
		for i, r := range c.Rates {
			c.Points = append(c.Points, lab.ParaphrasePoint{Series: s, Class: s, Rate: r, Group: lab.OracleGroup,
				Acc: eval.Accuracy{Acc: curves[s.String()][i], N: 300}})
		}
	}
	return c
}

// Notebook 45's paraphrase plot reads at once: the three series at about
// 0 are each seen (dodged along the rate), the baseline at 0 shows
// around them, and the legend covers no data.
func TestParaphrasePlotShowsEverySeries(t *testing.T) {
	p := like45().Plot(lab.OracleGroup)
	report.Fit(p, report.FigureWidth, report.FigureHeight)
	if got := report.FigureProblems(p, report.FigureWidth, report.FigureHeight); len(got) > 0 {
		t.Errorf("%q", got)
	}
	// Each point its own place: no two glyphs within 1% of each axis.
	var gs []plot.GlyphBox // the scatters' glyphs, not the lines' vertices
	for _, b := range p.GlyphBoxes(p) {
		if b.Rectangle.Max.X == plotter.DefaultGlyphStyle.Radius {
			gs = append(gs, b)
		}
	}
	if len(gs) != 25 {
		t.Errorf("%d glyphs, want 25 (5 series × 5 rates)", len(gs))
	}
	for i := range gs {
		for j := i + 1; j < len(gs); j++ {
			if math.Abs(gs[i].X-gs[j].X) <= 0.01 && math.Abs(gs[i].Y-gs[j].Y) <= 0.01 {
				t.Errorf("glyphs %d and %d lie on one another at (%.3f, %.3f)", i, j, gs[i].X, gs[i].Y)
			}
		}
	}
}
