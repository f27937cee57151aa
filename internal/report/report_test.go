package report_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/esrkit/esrkit/internal/report"
)

func TestPlotsSave(t *testing.T) {
	pts := []report.IntervalPoint{{Label: "render", Est: 0.16, Lo: 0.11, Hi: 0.21, Series: "a"}, {Label: "render", Est: 0.1, Lo: 0.0, Hi: 0.2, Series: "b"}}
	dir := t.TempDir()
	if _, _, err := report.SaveFigure(report.IntervalPlot("t", "Δ", pts, true), dir, "ip"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := report.SaveFigure(report.BarPlot("t", "acc", pts[:1]), dir, "bar"); err != nil {
		t.Fatal(err)
	}
	lp := report.LinePlot("t", "p", "Δ", map[string][]report.XYInterval{"s": {{X: 0, Est: 0, Lo: -0.1, Hi: 0.1}, {X: 0.5, Est: -0.1, Lo: -0.2, Hi: 0}}}, []string{"s"}, true)
	if _, _, err := report.SaveFigure(lp, dir, "line"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"ip.png", "ip.svg", "bar.png", "line.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// A proportion that rounds to zero never prints a sign.
func TestPropNoNegativeZero(t *testing.T) {
	for _, x := range []float64{-1e-17, -0.0004, 0, 0.0004} {
		if got := report.Prop(x); got != "0.000" {
			t.Errorf("Prop(%g) = %q, want 0.000", x, got)
		}
	}
	if got := report.Prop(-0.0006); got != "-0.001" {
		t.Errorf("Prop(-0.0006) = %q", got)
	}
}
