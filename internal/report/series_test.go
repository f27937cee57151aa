package report

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// lineSeries adds a named line-and-points series through xs, ys to p.
func lineSeries(t *testing.T, p *plot.Plot, name string, xs, ys []float64) {
	t.Helper()
	var xys plotter.XYs
	for i := range xs {
		xys = append(xys, plotter.XY{X: xs[i], Y: ys[i]})
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l, s)
	p.Legend.Add(name, l, s)
}

// The check reads gonum/plot's unexported plotters and legend entries; a
// gonum/plot upgrade that moves them must fail here, not silently turn
// the hidden-series and legend rules off.
func TestPlotInternalsAreRead(t *testing.T) {
	p := plot.New()
	lineSeries(t, p, "a", []float64{0, 1}, []float64{0, 1})
	p.Add(plotter.NewGrid())
	if got := len(plotters(p)); got != 3 {
		t.Errorf("plotters: %d, want 3 (line, scatter, grid)", got)
	}
	es := legendEntries(&p.Legend)
	if len(es) != 1 || es[0].name != "a" || len(es[0].thumbs) != 2 {
		t.Fatalf("legend entries: %+v, want one entry \"a\" with two thumbnails", es)
	}
	if _, ok := es[0].thumbs[0].(*plotter.Line); !ok {
		t.Errorf("first thumbnail is %T, want *plotter.Line", es[0].thumbs[0])
	}
}

// Like notebook 00's staircase: four readers right on no memory lie along
// 0 under one another. The check names them; dodged a little along x, as
// the kit's builders now draw them, every glyph is seen and nothing is
// reported.
func TestFigureProblemsNamesSeriesThatHideOneAnother(t *testing.T) {
	xs := []float64{0, 1, 2}
	build := func(dodge float64) *plot.Plot {
		p := plot.New()
		lineSeries(t, p, "pooled", xs, []float64{0, 0.2, 0.2})
		lineSeries(t, p, "qwen3-8b", xs, []float64{0, 1, 1})
		for i, n := range []string{"llama", "mistral", "qwen2.5"} {
			off := dodge * float64(i)
			lineSeries(t, p, n, []float64{off, 1 + off, 2 + off}, []float64{0, 0, 0.001})
		}
		p.X.Min, p.X.Max = -0.3, 2.3
		p.Y.Min, p.Y.Max = 0, 1
		return p
	}
	got := FigureProblems(build(0), FigureWidth, FigureHeight)
	if !has(got, `series "llama", "mistral" and "qwen2.5" lie on one another`) {
		t.Errorf("coinciding readers not named: %v", got)
	}
	if has(got, `series "pooled"`) || has(got, `series "qwen3-8b"`) {
		t.Errorf("a series that is seen was reported: %v", got)
	}
	if got := FigureProblems(build(0.06), FigureWidth, FigureHeight); has(got, "series") {
		t.Errorf("dodged series still reported: %v", got)
	}
	// Thinned: one of the three drawn, the others left out, is seen too.
	p := plot.New()
	lineSeries(t, p, "llama, mistral and qwen2.5 (3 series coincide)", xs, []float64{0, 0, 0})
	lineSeries(t, p, "pooled", xs, []float64{0, 0.2, 0.2})
	p.Y.Min, p.Y.Max = 0, 1
	if got := FigureProblems(p, FigureWidth, FigureHeight); has(got, "series") {
		t.Errorf("thinned series reported: %v", got)
	}
}

// Series apart by more than the tolerance on one axis at one point only
// are not hidden; apart by less at every point they are.
func TestHiddenSeriesTolerance(t *testing.T) {
	for _, c := range []struct {
		name   string
		second []float64
		hidden bool
	}{
		{"identical", []float64{0.5, 0.5, 0.5}, true},
		{"half a percent off", []float64{0.505, 0.495, 0.5}, true},
		{"apart at one point", []float64{0.5, 0.5, 0.53}, false},
		{"apart everywhere", []float64{0.6, 0.6, 0.6}, false},
	} {
		p := plot.New()
		lineSeries(t, p, "a", []float64{0, 1, 2}, []float64{0.5, 0.5, 0.5})
		lineSeries(t, p, "b", []float64{0, 1, 2}, c.second)
		p.Y.Min, p.Y.Max = 0, 1
		if got := has(FigureProblems(p, FigureWidth, FigureHeight), "series"); got != c.hidden {
			t.Errorf("%s: hidden = %v, want %v", c.name, got, c.hidden)
		}
	}
}

// A legend over a series' line (no glyph under it) or over a bar is
// found; moved to where no line or bar runs it is not.
func TestLegendOverALineOrBar(t *testing.T) {
	p := plot.New()
	l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l)
	p.Legend.Add("line along the bottom", l)
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top = true
	if got := FigureProblems(p, FigureWidth, FigureHeight); has(got, "the legend covers") {
		t.Errorf("legend at the top, away from the line, reported: %v", got)
	}
	p.Legend.Top = false
	if got := FigureProblems(p, FigureWidth, FigureHeight); !has(got, "the legend covers") || !strings.Contains(strings.Join(got, "\n"), `lines or bars of "line along the bottom"`) {
		t.Errorf("legend over the line not found: %v", got)
	}

	b := plot.New()
	bars, err := plotter.NewBarChart(plotter.Values{1, 1, 1}, vg.Points(40))
	if err != nil {
		t.Fatal(err)
	}
	b.Add(bars)
	b.Legend.Add("bars", bars)
	b.Y.Min, b.Y.Max = 0, 1
	b.Legend.Top = true
	if got := FigureProblems(b, FigureWidth, FigureHeight); !has(got, "the legend covers") || !strings.Contains(strings.Join(got, "\n"), `lines or bars of "bars"`) {
		t.Errorf("legend over a bar not found: %v", got)
	}
	b.Y.Max = 1.6 // headroom above the bars
	if got := FigureProblems(b, FigureWidth, FigureHeight); has(got, "the legend covers") {
		t.Errorf("legend in the headroom reported: %v", got)
	}
}

func TestSegmentHits(t *testing.T) {
	r := vg.Rectangle{Min: vg.Point{X: 10, Y: 10}, Max: vg.Point{X: 20, Y: 20}}
	for _, c := range []struct {
		a, b vg.Point
		want bool
	}{
		{vg.Point{X: 0, Y: 0}, vg.Point{X: 30, Y: 30}, true},   // through
		{vg.Point{X: 12, Y: 12}, vg.Point{X: 15, Y: 15}, true}, // inside
		{vg.Point{X: 0, Y: 15}, vg.Point{X: 5, Y: 15}, false},  // stops short
		{vg.Point{X: 0, Y: 25}, vg.Point{X: 30, Y: 25}, false}, // passes above
		{vg.Point{X: 0, Y: 30}, vg.Point{X: 30, Y: 0}, true},   // diagonal across
		{vg.Point{X: 0, Y: 40}, vg.Point{X: 40, Y: 30}, false}, // diagonal clear
	} {
		if got := segmentHits(c.a, c.b, r); got != c.want {
			t.Errorf("segment %v–%v: %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestQuoteList(t *testing.T) {
	for in, want := range map[string]string{"a": `"a"`, "a|b": `"a" and "b"`, "a|b|c": `"a", "b" and "c"`} {
		if got := quoteList(strings.Split(in, "|")); got != want {
			t.Errorf("quoteList(%s) = %s, want %s", in, got, want)
		}
	}
}

// Like notebook 45's paraphrase plot: a baseline drawn as a plain line at
// 0 runs under a series at 0 and is not seen; drawn wider than the
// series' line, it shows around it and is not reported.
func TestFigureProblemsFindsALineUnderASeries(t *testing.T) {
	build := func(width vg.Length) *plot.Plot {
		p := plot.New()
		lineSeries(t, p, "graphiti", []float64{0, 0.5, 1}, []float64{0, 0, 0})
		lineSeries(t, p, "mem0-update", []float64{0, 0.5, 1}, []float64{0.9, 0.9, 0.9})
		base, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}})
		if err != nil {
			t.Fatal(err)
		}
		base.LineStyle.Width = width
		p.Add(base)
		p.Legend.Add("baseline", base)
		p.Y.Min, p.Y.Max = 0, 1.5
		p.Legend.Top = true
		return p
	}
	got := FigureProblems(build(vg.Points(1)), FigureWidth, FigureHeight)
	if !has(got, `series "baseline" runs under "graphiti"`) {
		t.Errorf("baseline under graphiti not found: %v", got)
	}
	if got := FigureProblems(build(vg.Points(5)), FigureWidth, FigureHeight); len(got) > 0 {
		t.Errorf("wide baseline reported: %v", got)
	}
}
