package report

import (
	"testing"

	"gonum.org/v1/plot"
)

// With data in every corner, PlaceLegend grows the axis above the data
// and puts the legend there; with a free corner it takes that corner and
// leaves the axis alone.
func TestPlaceLegendClearsTheData(t *testing.T) {
	p := plot.New()
	lineSeries(t, p, "rising", []float64{0, 1, 2}, []float64{0, 0.5, 1})
	lineSeries(t, p, "falling", []float64{0, 1, 2}, []float64{1, 0.5, 0})
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top = false
	if !has(FigureProblems(p, FigureWidth, FigureHeight), "the legend covers") {
		t.Fatalf("fixture: the bottom-right legend should cover the rising line's start... %v", FigureProblems(p, FigureWidth, FigureHeight))
	}
	PlaceLegend(p, FigureWidth, FigureHeight)
	if got := FigureProblems(p, FigureWidth, FigureHeight); len(got) > 0 {
		t.Errorf("after PlaceLegend: %v", got)
	}
	if p.Y.Max <= 1 || !p.Legend.Top {
		t.Errorf("no headroom made: Y.Max %v, top %v", p.Y.Max, p.Legend.Top)
	}
	if tk, ok := p.Y.Tick.Marker.(TicksUpTo); !ok || float64(tk) != 1 {
		t.Errorf("y ticks %#v, want TicksUpTo(1)", p.Y.Tick.Marker)
	}

	q := plot.New()
	lineSeries(t, q, "low", []float64{0, 1, 2}, []float64{0.1, 0.2, 0.1})
	q.Y.Min, q.Y.Max = 0, 1
	q.Legend.Top = false
	PlaceLegend(q, FigureWidth, FigureHeight)
	if !q.Legend.Top || q.Legend.Left || q.Y.Max != 1 {
		t.Errorf("free top-right corner not taken: top %v left %v Y.Max %v", q.Legend.Top, q.Legend.Left, q.Y.Max)
	}
}
