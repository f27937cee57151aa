package report

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// PlaceLegend puts p's legend where, drawn at w × h, it covers no data, so
// a reader never has to guess what lies under it: the first free corner
// of top right, top left, bottom right and bottom left; when none is free,
// at the top right above the data, the y axis grown until the legend
// clears it (its ticks, when they are gonum's default, then stop at the
// data's top: the headroom holds the legend, not values). Call it after
// the data and the axis ranges are set.
func PlaceLegend(p *plot.Plot, w, h vg.Length) {
	covers := func() bool {
		dc := p.DataCanvas(draw.New(vgimg.New(w, h)))
		return legendProblem(p, dc, seriesOf(p, dc)) != ""
	}
	p.Legend.XOffs, p.Legend.YOffs = 0, 0
	for _, c := range []struct{ top, left bool }{{true, false}, {true, true}, {false, false}, {false, true}} {
		if p.Legend.Top, p.Legend.Left = c.top, c.left; !covers() {
			return
		}
	}
	p.Legend.Top, p.Legend.Left = true, false
	top, span := p.Y.Max, p.Y.Max-p.Y.Min
	if _, ok := p.Y.Tick.Marker.(plot.DefaultTicks); ok {
		p.Y.Tick.Marker = TicksUpTo(top)
	}
	for i := 1; i <= 60 && covers(); i++ {
		p.Y.Max = top + 0.05*float64(i)*span
	}
}
