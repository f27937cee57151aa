package report

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

func has(problems []string, prefix string) bool {
	for _, p := range problems {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// A title wider than the canvas is found, and Fit wraps it until it fits.
func TestFitWrapsALongTitle(t *testing.T) {
	p := IntervalPlot(strings.Repeat("a long title that says what the figure asks ", 3), "Δ", []IntervalPoint{{Label: "x", Est: 0.1, Lo: 0, Hi: 0.2}}, true)
	w, h := FigureWidth/2, FigureHeight/2
	if !has(FigureProblems(p, w, h), "title") {
		t.Fatalf("no title problem at half width: %v", FigureProblems(p, w, h))
	}
	Fit(p, w, h)
	if got := FigureProblems(p, w, h); len(got) > 0 {
		t.Errorf("after Fit: %v (title %q)", got, p.Title.Text)
	}
	if !strings.Contains(p.Title.Text, "\n") {
		t.Errorf("Fit did not break the title: %q", p.Title.Text)
	}
}

// Long x labels on a narrow canvas overlap; Fit breaks them at hyphens
// and spaces, then slants them, until they clear each other.
func TestFitClearsOverlappingLabels(t *testing.T) {
	var pts []IntervalPoint
	for _, l := range []string{"graphrag-abstain-with-a-long-name", "render-only-with-a-long-name", "fine-ledger-with-a-long-name", "coarse-retain-with-a-long-name", "coarse-discard-with-a-long-name"} {
		pts = append(pts, IntervalPoint{Label: l, Est: 0.5, Lo: 0.4, Hi: 0.6})
	}
	p := BarPlot("Bars", "accuracy", pts)
	w, h := FigureWidth/2, FigureHeight/2
	if !has(FigureProblems(p, w, h), "x labels") {
		t.Fatalf("no label overlap found: %v", FigureProblems(p, w, h))
	}
	Fit(p, w, h)
	if got := FigureProblems(p, w, h); has(got, "x labels") {
		t.Errorf("after Fit: %v", got)
	}
}

// A legend placed over the points is found.
func TestLegendOverData(t *testing.T) {
	p := plot.New()
	sc, err := plotter.NewScatter(plotter.XYs{{X: 0, Y: 1}, {X: 0.02, Y: 0.98}, {X: 1, Y: 0}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(sc)
	p.Legend.Add("series", sc)
	p.Legend.Top, p.Legend.Left = true, true
	if !has(FigureProblems(p, FigureWidth, FigureHeight), "the legend covers") {
		t.Errorf("legend over the top-left points not found: %v", FigureProblems(p, FigureWidth, FigureHeight))
	}
	p.Legend.Top = false // bottom left: no point there
	if got := FigureProblems(p, FigureWidth, FigureHeight); has(got, "the legend covers") {
		t.Errorf("bottom-left legend reported over data: %v", got)
	}
}
