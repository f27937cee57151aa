package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	gpalette "gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// IntervalPoint is one estimate with its interval, for IntervalPlot and
// BarPlot.
type IntervalPoint struct {
	Label       string
	Est, Lo, Hi float64
	Series      string // points with the same Series share a colour
	// Paper is the paper's value for this label, drawn by BarPlot when
	// HasPaper (IntervalPlot takes the paper's values as PaperSeries points).
	Paper    float64
	HasPaper bool
}

// palette is a colour-blind-safe set (Okabe & Ito 2008).
// The two oranges (vermillion, orange) are far apart in the order, so the
// five families a table usually has never share one.
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{86, 180, 233, 255}, color.RGBA{230, 159, 0, 255},
	color.RGBA{0, 0, 0, 255},
}

// Pooled is the series name IntervalPlot draws apart: first, in black, with
// a larger diamond, so a pooled estimate never reads as one more family.
const Pooled = "pooled"

// PaperSeries is the series name of the paper's published values: drawn as
// large open rings without error bars in every plot that takes it
// (IntervalPlot's points, BarPlot's IntervalPoint.Paper, LinePlot series
// whose name starts with it), so ours and the paper's sit side by side.
const PaperSeries = "paper"

// paperGlyph is how the paper's values are drawn.
func paperGlyph() draw.GlyphStyle {
	return draw.GlyphStyle{Color: color.RGBA{120, 0, 0, 255}, Radius: vg.Points(6), Shape: draw.RingGlyph{}}
}

// shapes give each series its own glyph, so series stay apart in
// greyscale too.
var shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{},
	draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

// IntervalPlot draws estimates with error bars at categorical x positions,
// one colour and glyph per series (the Pooled series first, black, as a
// large diamond), series offset so their bars never overlap, with a dashed
// zero line when zeroLine is set. The y axis is fitted to the intervals
// (a difference of accuracies stays within [−1, 1]).
func IntervalPlot(title, ylabel string, points []IntervalPoint, zeroLine bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	var labels []string
	pos := map[string]int{}
	var series []string
	seen := map[string]bool{}
	for _, pt := range points {
		if _, ok := pos[pt.Label]; !ok {
			pos[pt.Label] = len(labels)
			labels = append(labels, pt.Label)
		}
		if !seen[pt.Series] {
			seen[pt.Series] = true
			series = append(series, pt.Series)
		}
	}
	// The pooled series first, the families after it in their fixed order.
	SortFamilies(series)
	for i, s := range series {
		if s == Pooled && i > 0 {
			series = append([]string{Pooled}, append(series[:i:i], series[i+1:]...)...)
			break
		}
	}
	// The paper's values last, at the label's centre: they are not a series
	// of ours.
	for i, s := range series {
		if s == PaperSeries && i < len(series)-1 {
			series = append(append(series[:i:i], series[i+1:]...), PaperSeries)
			break
		}
	}
	ours := len(series)
	if seen[PaperSeries] {
		ours--
	}
	width := min(0.7, 0.18*float64(ours)) // series side by side, close to their label
	fi := 0                               // family index, for colours and glyphs
	for si, s := range series {
		if s == PaperSeries {
			var xys plotter.XYs
			for _, pt := range points {
				if pt.Series == s {
					xys = append(xys, plotter.XY{X: float64(pos[pt.Label]), Y: pt.Est})
				}
			}
			sc, _ := plotter.NewScatter(xys)
			sc.GlyphStyle = paperGlyph()
			p.Add(sc)
			p.Legend.Add(PaperSeries, sc)
			continue
		}
		var xys plotter.XYs
		var errs plotter.YErrors
		for _, pt := range points {
			if pt.Series != s {
				continue
			}
			off := 0.0
			if ours > 1 {
				off = -width/2 + width*float64(si)/float64(ours-1)
			}
			xys = append(xys, plotter.XY{X: float64(pos[pt.Label]) + off, Y: pt.Est})
			errs = append(errs, struct{ Low, High float64 }{pt.Est - pt.Lo, pt.Hi - pt.Est})
		}
		sc, _ := plotter.NewScatter(xys)
		var c color.Color
		if s == Pooled {
			c = color.Black
			sc.GlyphStyle.Shape = draw.PyramidGlyph{}
			sc.GlyphStyle.Radius = vg.Points(5)
		} else {
			var glyph draw.GlyphDrawer
			c, _, glyph = FamilyStyle(s, fi)
			sc.GlyphStyle.Shape = glyph
			sc.GlyphStyle.Radius = vg.Points(3.5)
			if _, ok := familyRank[s]; !ok {
				fi++
			}
		}
		sc.GlyphStyle.Color = c
		eb, _ := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xys, errs})
		eb.LineStyle.Color = c
		eb.LineStyle.Width = vg.Points(1.2)
		if s == Pooled {
			eb.LineStyle.Width = vg.Points(2)
		}
		p.Add(eb, sc)
		if s != "" {
			p.Legend.Add(s, sc)
		}
	}
	if zeroLine && len(labels) > 0 {
		zl, _ := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: float64(len(labels)) - 0.5, Y: 0}})
		zl.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		zl.LineStyle.Color = color.Gray{Y: 120}
		p.Add(zl)
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
	// Fit the axis to the intervals (and 0), within [−1, 1], and put the
	// legend in a corner that no interval reaches; only when every corner is
	// taken does the axis grow above the data to make room for it.
	hi, lo := 0.0, 0.0
	for _, pt := range points {
		hi, lo = max(hi, pt.Hi), min(lo, pt.Lo)
	}
	span := max(hi-lo, 0.05)
	p.Y.Min = max(-1, lo-0.06*span)
	p.Y.Max = min(1, hi+0.06*span)
	if hi+0.06*span > 1 {
		p.Y.Max = hi + 0.02*span
	}
	placeLegend(p, points, labels, len(series))
	p.Add(plotter.NewGrid())
	return p
}

// placeLegend puts an IntervalPlot's legend (one line per series) in the
// first corner whose edge category has no interval in the legend's band,
// or at the top with extra headroom when none is free.
func placeLegend(p *plot.Plot, points []IntervalPoint, labels []string, nSeries int) {
	if nSeries <= 1 || len(labels) == 0 {
		p.Legend.Top = true
		return
	}
	band := 0.085 * float64(nSeries) * (p.Y.Max - p.Y.Min)
	// The legend is about a third of the plot wide: the categories under it
	// must be free, not only the outermost one.
	k := max(1, (len(labels)+2)/3)
	free := func(under []string, top bool) bool {
		for _, pt := range points {
			if !slices.Contains(under, pt.Label) {
				continue
			}
			if top && pt.Hi > p.Y.Max-band || !top && pt.Lo < p.Y.Min+band {
				return false
			}
		}
		return true
	}
	first, last := labels[:k], labels[len(labels)-k:]
	for _, c := range []struct {
		under     []string
		top, left bool
	}{{first, true, true}, {last, true, false}, {first, false, true}, {last, false, false}} {
		if free(c.under, c.top) {
			p.Legend.Top, p.Legend.Left = c.top, c.left
			return
		}
	}
	p.Legend.Top = true
	// The headroom holds the legend, not data: label the axis to the data.
	p.Y.Tick.Marker = TicksUpTo(p.Y.Max)
	p.Y.Max += band
}

// BarPlot draws one bar per label with error bars (accuracy by class).
func BarPlot(title, ylabel string, points []IntervalPoint) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	vals := make(plotter.Values, len(points))
	labels := make([]string, len(points))
	var xys plotter.XYs
	var errs plotter.YErrors
	for i, pt := range points {
		vals[i], labels[i] = pt.Est, pt.Label
		xys = append(xys, plotter.XY{X: float64(i), Y: pt.Est})
		errs = append(errs, struct{ Low, High float64 }{pt.Est - pt.Lo, pt.Hi - pt.Est})
	}
	bars, _ := plotter.NewBarChart(vals, vg.Points(28))
	bars.Color = palette[0]
	bars.LineStyle.Width = 0
	eb, _ := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{xys, errs})
	eb.LineStyle.Width = vg.Points(1.2)
	p.Add(bars, eb)
	var paper plotter.XYs
	for i, pt := range points {
		if pt.HasPaper {
			paper = append(paper, plotter.XY{X: float64(i), Y: pt.Paper})
		}
	}
	if len(paper) > 0 {
		sc, _ := plotter.NewScatter(paper)
		sc.GlyphStyle = paperGlyph()
		p.Add(sc)
		p.Legend.Add(PaperSeries, sc)
		p.Legend.Top = true
	}
	for i, pt := range points {
		l, _ := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: float64(i), Y: pt.Hi}}, Labels: []string{fmt.Sprintf("%.3f", pt.Est)}})
		l.Offset.Y = vg.Points(3)
		l.Offset.X = -vg.Points(10)
		p.Add(l)
	}
	p.NominalX(labels...)
	// Half a bar's slot beyond the outer bars, so their labels are not cut.
	p.X.Min, p.X.Max = -0.7, float64(len(points))-0.3
	p.Y.Min = 0
	if p.Y.Max < 1 {
		p.Y.Max = 1
	}
	return p
}

// LinePlot draws one line with error bars per series over numeric x.
func LinePlot(title, xlabel, ylabel string, series map[string][]XYInterval, order []string, zeroLine bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	xmin, xmax := 0.0, 0.0
	lo, hi := 0.0, 0.0
	first := true
	for _, name := range order {
		for _, pt := range series[name] {
			if first || pt.X < xmin {
				xmin = pt.X
			}
			if first || pt.X > xmax {
				xmax = pt.X
			}
			lo, hi = min(lo, pt.Lo), max(hi, pt.Hi)
			first = false
		}
	}
	// Offset the series around each x so their error bars never overlap.
	step := 0.0
	if len(order) > 1 && xmax > xmin {
		step = 0.012 * (xmax - xmin)
	}
	for si, name := range order {
		if strings.HasPrefix(name, PaperSeries) {
			var xys plotter.XYs
			for _, pt := range series[name] {
				xys = append(xys, plotter.XY{X: pt.X, Y: pt.Est})
			}
			ln, sc, _ := plotter.NewLinePoints(xys)
			sc.GlyphStyle = paperGlyph()
			ln.LineStyle.Color = paperGlyph().Color
			ln.LineStyle.Width = vg.Points(0.8)
			ln.LineStyle.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
			p.Add(ln, sc)
			p.Legend.Add(name, ln, sc)
			continue
		}
		off := (float64(si) - float64(len(order)-1)/2) * step
		var xys plotter.XYs
		var errs plotter.YErrors
		for _, pt := range series[name] {
			xys = append(xys, plotter.XY{X: pt.X + off, Y: pt.Est})
			errs = append(errs, struct{ Low, High float64 }{pt.Est - pt.Lo, pt.Hi - pt.Est})
		}
		c := palette[si%len(palette)]
		ln, sc, _ := plotter.NewLinePoints(xys)
		ln.LineStyle.Color = c
		ln.LineStyle.Dashes = lineDashes[si%len(lineDashes)]
		sc.GlyphStyle.Color = c
		sc.GlyphStyle.Shape = shapes[si%len(shapes)]
		eb, _ := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xys, errs})
		eb.LineStyle.Color = c
		p.Add(ln, sc, eb)
		p.Legend.Add(name, ln, sc)
	}
	if zeroLine && !first {
		zl, _ := plotter.NewLine(plotter.XYs{{X: xmin, Y: 0}, {X: xmax, Y: 0}})
		zl.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		zl.LineStyle.Color = color.Gray{Y: 120}
		p.Add(zl)
	}
	// Fit the axis to the intervals and 0, with room below for the legend.
	span := max(hi-lo, 0.05)
	p.Y.Min, p.Y.Max = lo-(0.06+0.09*float64(len(order)))*span, hi+0.06*span
	p.Legend.Top = false
	p.Legend.Left = true
	p.Legend.XOffs = vg.Points(8)
	p.Add(plotter.NewGrid())
	return p
}

// lineDashes tell line series apart in greyscale.
var lineDashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)},
	{vg.Points(4), vg.Points(4)}, {vg.Points(1), vg.Points(3)}}

// SeriesStyle is the colour, dash pattern and glyph of the i-th series of
// every plot the kit draws: Okabe–Ito colours, each series also with its
// own dash and glyph, so series stay apart in greyscale.
// Black, the pooled series' colour, is left out of the cycle.
func SeriesStyle(i int) (color.Color, []vg.Length, draw.GlyphDrawer) {
	return palette[i%(len(palette)-1)], lineDashes[i%len(lineDashes)], shapes[i%len(shapes)]
}

// TicksUpTo is the default ticks of the axis cut at m: an axis that
// grows above the data to make room for a legend (an accuracy axis to 1.2)
// is labelled only over the data's range.
type TicksUpTo float64

// Ticks implements plot.Ticker.
func (m TicksUpTo) Ticks(min, max float64) []plot.Tick {
	return (plot.DefaultTicks{}).Ticks(min, math.Min(max, float64(m)))
}

// familyRank fixes the style and order of a named family wherever it is
// drawn: the families registered by RegisterFamilies take the first styles,
// in their order, whatever else a figure shows. Written at package
// initialisation only (eval registers the calibrated families).
var familyRank = map[string]int{}

// RegisterFamilies gives each name, in order, its own fixed style (see
// FamilyStyle). A name registered before keeps its style. Call it from a
// package's init, before any figure is drawn.
func RegisterFamilies(names ...string) {
	for _, n := range names {
		if _, ok := familyRank[n]; !ok {
			familyRank[n] = len(familyRank)
		}
	}
}

// FamilyStyle is the style of the series named name that is the i-th
// series of its plot: a registered family's own style, so a family looks
// the same in every figure and notebook; any other series SeriesStyle(i).
func FamilyStyle(name string, i int) (color.Color, []vg.Length, draw.GlyphDrawer) {
	if r, ok := familyRank[name]; ok {
		return SeriesStyle(r)
	}
	return SeriesStyle(i)
}

// SortFamilies sorts series names in place: registered families in their
// registered order first, the others after them as they came.
func SortFamilies(names []string) {
	slices.SortStableFunc(names, func(a, b string) int {
		ra, oka := familyRank[a]
		rb, okb := familyRank[b]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
}

// XYInterval is a point of a LinePlot series.
type XYInterval struct {
	X, Est, Lo, Hi float64
}

// HeatCells is a regular grid of values for HeatMap: Z[r][c] is the value
// at (X[c], Y[r]); Labels[r][c], when set, is printed in the cell.
type HeatCells struct {
	X, Y   []float64
	Z      [][]float64
	Labels [][]string
}

type heatGrid struct{ HeatCells }

func (g heatGrid) Dims() (c, r int)   { return len(g.HeatCells.X), len(g.HeatCells.Y) }
func (g heatGrid) Z(c, r int) float64 { return g.HeatCells.Z[r][c] }
func (g heatGrid) X(c int) float64    { return g.HeatCells.X[c] }
func (g heatGrid) Y(r int) float64    { return g.HeatCells.Y[r] }

// DivergingGrey is a diverging palette of n colours that stays readable in
// greyscale: blue below the centre, orange above, with lightness rising
// monotonically from dark (most negative) through a mid grey (0) to light
// (most positive), so a greyscale print still orders the values; the sign
// is the hue (and HeatMap prints it in every cell).
func DivergingGrey(n int) gpalette.Palette {
	if n < 2 {
		n = 2
	}
	cs := make([]color.Color, n)
	for i := range cs {
		t := 2*float64(i)/float64(n-1) - 1 // −1 … +1
		L := 60 + 32*t                     // CIE L*: 28 … 92
		C := 42 * math.Abs(t)              // chroma grows away from 0
		h := 255.0                         // blue hue (degrees, LCh)
		if t > 0 {
			h = 70 // orange-yellow
		}
		cs[i] = lchToRGB(L, C, h)
	}
	return colors(cs)
}

type colors []color.Color

func (c colors) Colors() []color.Color { return c }

// lchToRGB converts CIE LCh(ab) (D65) to a clamped sRGB colour.
func lchToRGB(L, C, hDeg float64) color.Color {
	a, b := C*math.Cos(hDeg*math.Pi/180), C*math.Sin(hDeg*math.Pi/180)
	fy := (L + 16) / 116
	fx, fz := fy+a/500, fy-b/200
	finv := func(t float64) float64 {
		if t*t*t > 0.008856 {
			return t * t * t
		}
		return (116*t - 16) / 903.3
	}
	X, Y, Z := 0.95047*finv(fx), finv(fy), 1.08883*finv(fz)
	lin := [3]float64{
		3.2406*X - 1.5372*Y - 0.4986*Z,
		-0.9689*X + 1.8758*Y + 0.0415*Z,
		0.0557*X - 0.2040*Y + 1.0570*Z,
	}
	var out [3]uint8
	for i, v := range lin {
		if v <= 0.0031308 {
			v *= 12.92
		} else {
			v = 1.055*math.Pow(v, 1/2.4) - 0.055
		}
		out[i] = uint8(math.Round(255 * math.Max(0, math.Min(1, v))))
	}
	return color.RGBA{out[0], out[1], out[2], 255}
}

// HeatMap draws cells as a heat map with the DivergingGrey palette centred
// on 0 (the colour scale runs from −m to +m, m the largest |value|, at
// least 0.05), each cell's label printed in it (dark text on light cells,
// white on dark), and the grid values as ticks.
func HeatMap(title, xlabel, ylabel string, cells HeatCells) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	m := 0.05
	for _, row := range cells.Z {
		for _, v := range row {
			m = math.Max(m, math.Abs(v))
		}
	}
	pal := DivergingGrey(255)
	hm := plotter.NewHeatMap(heatGrid{cells}, pal)
	hm.Min, hm.Max = -m, m
	p.Add(hm)
	if cells.Labels != nil {
		var dark, light plotter.XYLabels
		for r, row := range cells.Labels {
			for c, text := range row {
				xy := plotter.XY{X: cells.X[c], Y: cells.Y[r]}
				if cells.Z[r][c] < -0.35*m { // dark cell: white text
					light.XYs, light.Labels = append(light.XYs, xy), append(light.Labels, text)
				} else {
					dark.XYs, dark.Labels = append(dark.XYs, xy), append(dark.Labels, text)
				}
			}
		}
		for _, set := range []struct {
			l plotter.XYLabels
			c color.Color
		}{{dark, color.Black}, {light, color.White}} {
			if len(set.l.Labels) == 0 {
				continue
			}
			l, err := plotter.NewLabels(set.l)
			if err != nil {
				continue
			}
			for i := range l.TextStyle {
				l.TextStyle[i].Color = set.c
				l.TextStyle[i].XAlign = draw.XCenter
				l.TextStyle[i].YAlign = draw.YCenter
			}
			p.Add(l)
		}
	}
	ticks := func(vs []float64) plot.ConstantTicks {
		var t plot.ConstantTicks
		for _, v := range vs {
			t = append(t, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 3, 64)})
		}
		return t
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = ticks(cells.X), ticks(cells.Y)
	return p
}
