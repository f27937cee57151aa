package report

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"unsafe"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// CoincideTolerance is how close, as a fraction of each axis's drawn
// length, two series' points must lie at every point for FigureProblems to
// call one hidden under the other: 1% is under 5 pt across a saved figure
// and 3 pt up it, less than a glyph's width.
const CoincideTolerance = 0.01

// drawnSeries is one legend entry's data as drawn on the data canvas: its
// points (a line's vertices, a scatter's glyph centres, a bar's top
// centre), the line segments and bar rectangles the legend may cover.
type drawnSeries struct {
	name      string
	pts       []vg.Point
	glyphs    bool // pts are glyphs (a scatter), not only a line's vertices
	lines     [][]vg.Point
	lineWidth vg.Length // the widest line's
	bars      []vg.Rectangle
}

// plotters are p's plotters in the order they were added. gonum/plot
// (v0.15) keeps them unexported and offers no accessor, so they are read
// through reflection; TestPlotInternalsAreRead fails if a gonum/plot
// upgrade moves them.
func plotters(p *plot.Plot) []plot.Plotter {
	f := reflect.ValueOf(p).Elem().FieldByName("plotters")
	if !f.IsValid() || f.Type() != reflect.TypeOf([]plot.Plotter(nil)) {
		return nil
	}
	return *(*[]plot.Plotter)(unsafe.Pointer(f.UnsafeAddr()))
}

// legendEntry is one line of a legend: its text and the plotters whose
// thumbnails it shows.
type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
}

// legendEntries are l's entries, read through reflection like [plotters].
func legendEntries(l *plot.Legend) []legendEntry {
	f := reflect.ValueOf(l).Elem().FieldByName("entries")
	if !f.IsValid() || f.Kind() != reflect.Slice {
		return nil
	}
	var out []legendEntry
	for i := 0; i < f.Len(); i++ {
		e := f.Index(i)
		text, thumbs := e.FieldByName("text"), e.FieldByName("thumbs")
		if text.Kind() != reflect.String || thumbs.Type() != reflect.TypeOf([]plot.Thumbnailer(nil)) {
			return nil
		}
		out = append(out, legendEntry{name: text.String(), thumbs: *(*[]plot.Thumbnailer)(unsafe.Pointer(thumbs.UnsafeAddr()))})
	}
	return out
}

// seriesOf is every named series of p (one per legend entry that shows a
// line, scatter or bar chart), drawn on the data canvas dc.
func seriesOf(p *plot.Plot, dc draw.Canvas) []drawnSeries {
	trX, trY := p.Transforms(&dc)
	at := func(xy plotter.XY) vg.Point { return vg.Point{X: trX(xy.X), Y: trY(xy.Y)} }
	var out []drawnSeries
	for _, e := range legendEntries(&p.Legend) {
		s := drawnSeries{name: e.name}
		var linePts, barPts []vg.Point // used when no scatter gives the points
		for _, t := range e.thumbs {
			switch v := t.(type) {
			case *plotter.Scatter:
				if s.pts == nil {
					for _, xy := range v.XYs {
						s.pts = append(s.pts, at(xy))
					}
					s.glyphs = true
				}
			case *plotter.Line:
				var l []vg.Point
				for _, xy := range v.XYs {
					l = append(l, at(xy))
				}
				s.lines = append(s.lines, l)
				s.lineWidth = max(s.lineWidth, v.LineStyle.Width)
				if linePts == nil {
					linePts = l
				}
			case *plotter.BarChart:
				if v.Horizontal {
					continue
				}
				for i := range v.Values {
					x := trX(v.XMin+float64(i)) + v.Offset
					lo, hi := trY(v.BarHeight(i)-v.Values[i]), trY(v.BarHeight(i))
					s.bars = append(s.bars, vg.Rectangle{Min: vg.Point{X: x - v.Width/2, Y: min(lo, hi)}, Max: vg.Point{X: x + v.Width/2, Y: max(lo, hi)}})
					barPts = append(barPts, vg.Point{X: x, Y: hi})
				}
			}
		}
		if s.pts == nil {
			s.pts = linePts
		}
		if s.pts == nil {
			s.pts = barPts
		}
		if len(s.pts) > 0 || len(s.lines) > 0 || len(s.bars) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// hiddenSeries groups the series of p that lie on one another: two series
// coincide when they have as many points and each point of one lies within
// CoincideTolerance of each axis of a point of the other, so only the one
// drawn last is seen. It returns each group of two or more, by name, in
// legend order.
func hiddenSeries(series []drawnSeries, dc draw.Canvas) [][]string {
	tx, ty := CoincideTolerance*(dc.Max.X-dc.Min.X), CoincideTolerance*(dc.Max.Y-dc.Min.Y)
	covered := func(a, b []vg.Point) bool {
		for _, p := range a {
			found := false
			for _, q := range b {
				if math.Abs(float64(p.X-q.X)) <= float64(tx) && math.Abs(float64(p.Y-q.Y)) <= float64(ty) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	coincide := func(a, b []vg.Point) bool {
		return len(a) > 0 && len(a) == len(b) && covered(a, b) && covered(b, a)
	}
	var groups [][]string
	done := make([]bool, len(series))
	for i := range series {
		if done[i] {
			continue
		}
		g := []string{series[i].name}
		for j := i + 1; j < len(series); j++ {
			if !done[j] && coincide(series[i].pts, series[j].pts) {
				done[j] = true
				g = append(g, series[j].name)
			}
		}
		if len(g) > 1 {
			groups = append(groups, g)
		}
	}
	return groups
}

// linesUnder pairs each series drawn as a line alone (no glyphs, no bars:
// a reference line such as a baseline) that runs, along its whole length
// inside the data canvas, within CoincideTolerance of the height of
// another series' line at least as wide, with the first such series: the
// other line covers it. It returns "under" → "over" pairs, in legend order.
func linesUnder(series []drawnSeries, dc draw.Canvas) [][2]string {
	tol := CoincideTolerance * (dc.Max.Y - dc.Min.Y)
	near := func(pt vg.Point, l []vg.Point) bool {
		for i := 1; i < len(l); i++ {
			if d := distToSegment(pt, l[i-1], l[i]); d <= tol {
				return true
			}
		}
		return false
	}
	var out [][2]string
	for i, a := range series {
		if a.glyphs || len(a.bars) > 0 || len(a.lines) == 0 {
			continue
		}
	over:
		for j, b := range series {
			if i == j || len(b.lines) == 0 || b.lineWidth < a.lineWidth {
				continue
			}
			seen := 0
			for _, l := range a.lines {
				for k := 1; k < len(l); k++ {
					for f := 0.0; f <= 1; f += 0.05 {
						pt := vg.Point{X: l[k-1].X + vg.Length(f)*(l[k].X-l[k-1].X), Y: l[k-1].Y + vg.Length(f)*(l[k].Y-l[k-1].Y)}
						if !dc.Contains(pt) {
							continue
						}
						seen++
						covered := false
						for _, bl := range b.lines {
							if near(pt, bl) {
								covered = true
								break
							}
						}
						if !covered {
							continue over
						}
					}
				}
			}
			if seen > 0 {
				out = append(out, [2]string{a.name, b.name})
				break
			}
		}
	}
	return out
}

// distToSegment is the distance from p to the segment a–b.
func distToSegment(p, a, b vg.Point) vg.Length {
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = math.Max(0, math.Min(1, (float64(p.X-a.X)*dx+float64(p.Y-a.Y)*dy)/l2))
	}
	x, y := float64(a.X)+t*dx, float64(a.Y)+t*dy
	return vg.Length(math.Hypot(float64(p.X)-x, float64(p.Y)-y))
}

// quoteList is names quoted and joined: "a", "b" and "c".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// segmentHits reports whether the segment a–b crosses or touches r
// (Liang–Barsky clipping).
func segmentHits(a, b vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	for _, c := range [4][2]float64{
		{-dx, float64(a.X - r.Min.X)}, {dx, float64(r.Max.X - a.X)},
		{-dy, float64(a.Y - r.Min.Y)}, {dy, float64(r.Max.Y - a.Y)},
	} {
		p, q := c[0], c[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// overlaps reports whether two rectangles share interior.
func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// clipTo is r cut to c's area (what is drawn of a bar).
func clipTo(r vg.Rectangle, c vg.Rectangle) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: max(r.Min.X, c.Min.X), Y: max(r.Min.Y, c.Min.Y)}, Max: vg.Point{X: min(r.Max.X, c.Max.X), Y: min(r.Max.Y, c.Max.Y)}}
}
