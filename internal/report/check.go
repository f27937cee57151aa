package report

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// FigureProblems lists what keeps p from reading at a glance when drawn at
// w × h: a title wider than the canvas (it would be clipped), x tick
// labels that overlap their neighbours, series that hide one another (two
// or more legend entries whose points coincide, within CoincideTolerance,
// at every point, so only the last drawn is seen), and a legend drawn over
// data (a glyph or error bar of a plotter that reports its glyph boxes, or
// a named series' line or bar, lies under the legend's box). It measures with p's own fonts and layout, as
// gonum/plot draws it; an empty list means none was found.
func FigureProblems(p *plot.Plot, w, h vg.Length) []string {
	var out []string
	c := draw.New(vgimg.New(w, h))
	if p.Title.Text != "" {
		if tw := p.Title.TextStyle.Rectangle(p.Title.Text).Size().X; tw > w {
			out = append(out, fmt.Sprintf("title %q is %.0f pt wide on a %.0f pt canvas: it is clipped", p.Title.Text, tw.Points(), w.Points()))
		}
	}
	dc := p.DataCanvas(c)
	// x tick labels: each labelled tick's text centred on its position.
	type label struct {
		text   string
		x, wid vg.Length
	}
	var labels []label
	for _, t := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if t.Label == "" || t.Value < p.X.Min || t.Value > p.X.Max {
			continue
		}
		labels = append(labels, label{t.Label, dc.X(p.X.Norm(t.Value)), p.X.Tick.Label.Rectangle(t.Label).Size().X})
	}
	for i := 1; i < len(labels); i++ {
		a, b := labels[i-1], labels[i]
		need := (a.wid + b.wid) / 2
		if rot := math.Abs(p.X.Tick.Label.Rotation); rot > 0.05 {
			// Slanted labels lie parallel: they clear each other when
			// their baselines are a line height apart across the slant.
			need = p.X.Tick.Label.Rectangle("M").Size().Y / vg.Length(math.Sin(rot))
		}
		if gap := b.x - a.x; gap < need {
			out = append(out, fmt.Sprintf("x labels %q and %q overlap (%.0f pt apart, %.0f pt needed)", a.text, b.text, gap.Points(), need.Points()))
		}
	}
	series := seriesOf(p, dc)
	for _, g := range hiddenSeries(series, dc) {
		out = append(out, fmt.Sprintf("series %s lie on one another at every point (within %g%% of each axis): only one of them is seen", quoteList(g), 100*CoincideTolerance))
	}
	for _, u := range linesUnder(series, dc) {
		out = append(out, fmt.Sprintf("series %q runs under %q along its whole length: it is not seen", u[0], u[1]))
	}
	if pr := legendProblem(p, dc, series); pr != "" {
		out = append(out, pr)
	}
	return out
}

// legendProblem says what data p's legend covers on the data canvas dc:
// glyph boxes, and the lines and bars of the named series; "" if none.
func legendProblem(p *plot.Plot, dc draw.Canvas, series []drawnSeries) string {
	size := p.Legend.Rectangle(dc).Size()
	if size.X <= 0 || size.Y <= 0 {
		return ""
	}
	lr := clipTo(legendBox(&p.Legend, dc, size), dc.Rectangle)
	n := 0
	for _, g := range p.GlyphBoxes(p) {
		if g.X < 0 || g.X > 1 || g.Y < 0 || g.Y > 1 {
			continue
		}
		x, y := dc.X(g.X), dc.Y(g.Y)
		r := vg.Rectangle{Min: vg.Point{X: x + g.Rectangle.Min.X, Y: y + g.Rectangle.Min.Y}, Max: vg.Point{X: x + g.Rectangle.Max.X, Y: y + g.Rectangle.Max.Y}}
		if overlaps(r, lr) {
			n++
		}
	}
	var lines []string
	for _, s := range series {
		hit := false
		for _, l := range s.lines {
			for i := 1; i < len(l) && !hit; i++ {
				hit = segmentHits(l[i-1], l[i], lr)
			}
		}
		for _, b := range s.bars {
			hit = hit || overlaps(clipTo(b, dc.Rectangle), lr)
		}
		if hit {
			lines = append(lines, s.name)
		}
	}
	switch {
	case n > 0 && len(lines) > 0:
		return fmt.Sprintf("the legend covers %d data glyph(s) and the lines or bars of %s", n, quoteList(lines))
	case n > 0:
		return fmt.Sprintf("the legend covers %d data glyph(s)", n)
	case len(lines) > 0:
		return fmt.Sprintf("the legend covers the lines or bars of %s", quoteList(lines))
	}
	return ""
}

// legendBox is where Legend.Draw puts a legend of the given size on c:
// the left or right edge and the top or bottom, moved by XOffs and YOffs.
// (Legend.Rectangle measures the size but, in gonum/plot v0.15–v0.17, mirrors
// Left and ignores the offsets.)
func legendBox(l *plot.Legend, c draw.Canvas, size vg.Point) vg.Rectangle {
	var r vg.Rectangle
	if l.Left {
		r.Min.X = c.Min.X
	} else {
		r.Min.X = c.Max.X - size.X
	}
	if l.Top {
		r.Min.Y = c.Max.Y - size.Y
	} else {
		r.Min.Y = c.Min.Y
	}
	r.Min.X += l.XOffs
	r.Min.Y += l.YOffs
	r.Max = vg.Point{X: r.Min.X + size.X, Y: r.Min.Y + size.Y}
	return r
}

// Fit makes p read at w × h where it can without changing what it shows:
// a title wider than w is broken into lines at spaces, and x tick labels
// that overlap are broken at their spaces and hyphens into at most two
// lines or, if they still overlap, slanted as little as clears them, and
// a legend that covers data is moved where it covers none (PlaceLegend).
// FigureProblems says what is left.
func Fit(p *plot.Plot, w, h vg.Length) {
	defer func() {
		dc := p.DataCanvas(draw.New(vgimg.New(w, h)))
		if legendProblem(p, dc, seriesOf(p, dc)) != "" {
			PlaceLegend(p, w, h)
		}
	}()
	if p.Title.Text != "" && p.Title.TextStyle.Rectangle(p.Title.Text).Size().X > w {
		p.Title.Text = wrapWords(p.Title.Text, " ", func(s string) bool { return p.Title.TextStyle.Rectangle(s).Size().X <= w*0.95 })
	}
	overlaps := func() bool {
		for _, pr := range FigureProblems(p, w, h) {
			if strings.HasPrefix(pr, "x labels") {
				return true
			}
		}
		return false
	}
	if !overlaps() {
		return
	}
	ticks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
	n := 0
	for _, t := range ticks {
		if t.Label != "" {
			n++
		}
	}
	if n == 0 {
		return
	}
	slot := w / vg.Length(n+1)
	wrapped := append([]plot.Tick(nil), ticks...)
	for i, t := range wrapped {
		if t.Label == "" || strings.Contains(t.Label, "\n") {
			continue
		}
		// At most two lines: a label broken further reads worse than a
		// slanted one.
		if l := wrapWords(t.Label, " -", func(s string) bool { return p.X.Tick.Label.Rectangle(s).Size().X <= slot }); strings.Count(l, "\n") <= 1 {
			wrapped[i].Label = l
		}
	}
	p.X.Tick.Marker = plot.ConstantTicks(wrapped)
	if !overlaps() {
		return
	}
	// Slant the labels as written, as little as clears them.
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	for _, rot := range []float64{math.Pi / 6, math.Pi / 4, math.Pi / 3, math.Pi / 2} {
		if p.X.Tick.Label.Rotation = rot; !overlaps() {
			return
		}
	}
}

// wrapWords breaks s into lines after any of the separator characters
// (a space is dropped, a hyphen kept) so that each line fits, greedily;
// a word longer than a line stays whole.
func wrapWords(s, seps string, fits func(string) bool) string {
	var words []string
	start := 0
	for i, r := range s {
		if strings.ContainsRune(seps, r) {
			end := i + 1
			if r == ' ' {
				words = append(words, s[start:i])
			} else {
				words = append(words, s[start:end])
			}
			start = end
		}
	}
	words = append(words, s[start:])
	var lines []string
	line := ""
	join := func(a, b string) string {
		if a == "" || strings.HasSuffix(a, "-") {
			return a + b
		}
		return a + " " + b
	}
	for _, wd := range words {
		if wd == "" {
			continue
		}
		if line != "" && !fits(join(line, wd)) {
			lines = append(lines, line)
			line = wd
			continue
		}
		line = join(line, wd)
	}
	if line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
