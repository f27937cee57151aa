package report_test

import (
	"fmt"
	"testing"

	"github.com/esrkit/esrkit/internal/goldenimg"
	"github.com/esrkit/esrkit/internal/report"
)

// intervalInput has a pooled series listed after the families (drawn
// first), two families, a paper value per label and one estimate below 0.
func intervalInput() []report.IntervalPoint {
	var pts []report.IntervalPoint
	for i, label := range []string{"render", "fine-d\nmechanism", "coarse\nlayout"} {
		s := 0.05 * float64(i)
		pts = append(pts,
			report.IntervalPoint{Label: label, Series: "family A", Est: 0.12 - s, Lo: 0.07 - s, Hi: 0.17 - s},
			report.IntervalPoint{Label: label, Series: "family B", Est: 0.08 - s, Lo: 0.01 - s, Hi: 0.15 - s},
			report.IntervalPoint{Label: label, Series: report.Pooled, Est: 0.10 - s, Lo: 0.06 - s, Hi: 0.14 - s},
			report.IntervalPoint{Label: label, Series: report.PaperSeries, Est: 0.15 - 2*s, Lo: 0.15 - 2*s, Hi: 0.15 - 2*s})
	}
	return pts
}

func TestIntervalPlotGolden(t *testing.T) {
	pts := intervalInput()
	goldenimg.Check(t, report.IntervalPlot("IntervalPlot (golden fixture)", "paired Δ accuracy", pts, true), "interval-plot")
	goldenimg.CheckDiffers(t, report.IntervalPlot("IntervalPlot (golden fixture)", "paired Δ accuracy", pts, false), "interval-plot")
	pts[1].Est += 0.02
	goldenimg.CheckDiffers(t, report.IntervalPlot("IntervalPlot (golden fixture)", "paired Δ accuracy", pts, true), "interval-plot")
}

// barInput has Wilson-like intervals and the paper's value on two bars.
func barInput() []report.IntervalPoint {
	return []report.IntervalPoint{
		{Label: "coarse-discard", Est: 0.26, Lo: 0.20, Hi: 0.32, Paper: 0.243, HasPaper: true},
		{Label: "graphrag-abstain", Est: 0.45, Lo: 0.38, Hi: 0.52},
		{Label: "coarse-retain", Est: 0.59, Lo: 0.52, Hi: 0.66, Paper: 0.604, HasPaper: true},
		{Label: "fine-ledger", Est: 0.70, Lo: 0.64, Hi: 0.76},
	}
}

func TestBarPlotGolden(t *testing.T) {
	pts := barInput()
	goldenimg.Check(t, report.BarPlot("BarPlot (golden fixture)", "accuracy", pts), "bar-plot")
	pts[3].Est += 0.02
	goldenimg.CheckDiffers(t, report.BarPlot("BarPlot (golden fixture)", "accuracy", pts), "bar-plot")
}

// lineInput has two series with intervals and a paper series (rings, no
// intervals) over p = 0 … 0.5.
func lineInput() (map[string][]report.XYInterval, []string) {
	series := map[string][]report.XYInterval{}
	paper := report.PaperSeries + ": rising"
	for i := 0; i <= 5; i++ {
		x := 0.1 * float64(i)
		a, b := 0.2-0.5*x, 0.1+0.1*x
		series["falling"] = append(series["falling"], report.XYInterval{X: x, Est: a, Lo: a - 0.05, Hi: a + 0.05})
		series["rising"] = append(series["rising"], report.XYInterval{X: x, Est: b, Lo: b - 0.03, Hi: b + 0.03})
		series[paper] = append(series[paper], report.XYInterval{X: x, Est: b + 0.02, Lo: b + 0.02, Hi: b + 0.02})
	}
	return series, []string{"falling", "rising", paper}
}

func TestLinePlotGolden(t *testing.T) {
	series, order := lineInput()
	goldenimg.Check(t, report.LinePlot("LinePlot (golden fixture)", "p", "Δ accuracy", series, order, true), "line-plot")
	series["rising"][2].Est += 0.02
	goldenimg.CheckDiffers(t, report.LinePlot("LinePlot (golden fixture)", "p", "Δ accuracy", series, order, true), "line-plot")
}

// heatInput is a 4×3 grid from −0.2 to +0.25, so both label colours (white
// on dark cells, dark on light) appear.
func heatInput() report.HeatCells {
	c := report.HeatCells{X: []float64{0, 0.25, 0.5, 1}, Y: []float64{0, 0.5, 1}}
	for r, y := range c.Y {
		var z []float64
		var labels []string
		for _, x := range c.X {
			v := 0.25*y - 0.2*x + 0.05*float64(r%2)
			z = append(z, v)
			labels = append(labels, fmt.Sprintf("%+.3f", v))
		}
		c.Z, c.Labels = append(c.Z, z), append(c.Labels, labels)
	}
	return c
}

func TestHeatMapGolden(t *testing.T) {
	c := heatInput()
	goldenimg.Check(t, report.HeatMap("HeatMap (golden fixture)", "x skill", "y skill", c), "heat-map")
	c.Z[1][1] += 0.02 // the cell's colour moves, its label stays
	goldenimg.CheckDiffers(t, report.HeatMap("HeatMap (golden fixture)", "x skill", "y skill", c), "heat-map")
}
