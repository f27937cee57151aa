package sim

import (
	"fmt"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/esrkit/esrkit/internal/report"
)

// The anchor figures: per skill and family, the model's curve beside the
// registry's points, so a reader sees what each curve was fitted to (or is
// held to) rather than a table of numbers. Each published series is drawn
// as its points (glyphs) and the model read in that series' frame
// (Measurement.InFrame: at the source's level for a shape) as a line of
// the same colour, over the regime the points were measured in. Notebook
// 40 and the model card show them; `esr calibrate --figures DIR` writes
// them (EvidenceFigureNames).

// EvidenceFigureSkills are the skills with a figure: the curve-shaped
// ones, and the short-passage and conflict levels together.
var EvidenceFigureSkills = []EvidenceSkill{EvidenceLength, EvidenceRows, EvidenceDistractors, EvidenceConflict}

// EvidenceFigureName is the file name (no suffix) of a family's figure of
// skill: "evidence-rows-qwen3-8b".
func EvidenceFigureName(skill EvidenceSkill, family string) string {
	return "evidence-" + string(skill) + "-" + strings.ToLower(family)
}

// EvidencePlot draws family's model (profile p) beside the registry's
// points of skill; conflict draws the level points (conflict and prose)
// side by side.
func EvidencePlot(reg *EvidenceRegistry, family string, p Profile, skill EvidenceSkill) *plot.Plot {
	if skill == EvidenceConflict || skill == EvidenceProse {
		return levelPlot(reg, family, p)
	}
	return curvePlot(reg, family, p, skill)
}

// curvePlot is a curve skill's figure: x numeric (tokens on a log axis,
// updates on a log axis, distractors linear).
func curvePlot(reg *EvidenceRegistry, family string, p Profile, skill EvidenceSkill) *plot.Plot {
	ms := Measurements(reg, family)
	byID := map[string]*Measurement{}
	for _, m := range ms {
		byID[m.Point.ID] = m
	}
	series := map[string][]*Measurement{}
	var order []string
	for _, m := range ms {
		if m.Point.Skill != skill || !m.Point.HasXNum {
			continue
		}
		k := m.Point.Series
		if _, ok := series[k]; !ok {
			order = append(order, k)
		}
		series[k] = append(series[k], m)
	}
	pl := plot.New()
	xlabel := map[EvidenceSkill]string{EvidenceLength: "context length (K tokens, log scale)", EvidenceRows: "updates of the asked key (log scale)",
		EvidenceDistractors: "distractor documents or needles"}[skill]
	pl.Title.Text = fmt.Sprintf("%s: %s, SIMULATED model (lines) and registry (glyphs)", family, skill)
	pl.X.Label.Text = xlabel
	pl.Y.Label.Text = "accuracy"
	logX := skill == EvidenceLength || skill == EvidenceRows
	if logX {
		pl.X.Scale = plot.LogScale{}
		pl.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for si, k := range order {
		pts := series[k]
		sort.SliceStable(pts, func(i, j int) bool { return pts[i].Point.XNum < pts[j].Point.XNum })
		c, dashes, glyph := report.SeriesStyle(si)
		var pub, mod plotter.XYs
		for _, m := range pts {
			x := plotX(m.Point.XNum, skill)
			pub = append(pub, plotter.XY{X: x, Y: m.Value})
			if v, ok := m.InFrame(p, byID); ok {
				mod = append(mod, plotter.XY{X: x, Y: v})
			}
		}
		sc, err := plotter.NewScatter(pub)
		if err != nil {
			continue
		}
		sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = c, glyph, vg.Points(3)
		pl.Add(sc)
		label := seriesLabel(pts[0].Point)
		if len(mod) > 1 {
			ln, err := plotter.NewLine(mod)
			if err == nil {
				ln.LineStyle.Color, ln.LineStyle.Dashes, ln.LineStyle.Width = c, dashes, vg.Points(1.2)
				pl.Add(ln)
				pl.Legend.Add(label, ln, sc)
				continue
			}
		}
		pl.Legend.Add(label+" (not modelled)", sc)
	}
	pl.Y.Min, pl.Y.Max = 0, 1.55
	pl.Y.Tick.Marker = report.TicksUpTo(1)
	pl.Legend.Top = true
	pl.Legend.Left = true
	pl.Legend.TextStyle.Font.Size = vg.Points(7)
	pl.Add(plotter.NewGrid())
	return pl
}

// plotX is a point's x on the figure's axis (a length of 0K is drawn at
// 0.2K, the bAbI story alone).
func plotX(x float64, skill EvidenceSkill) float64 {
	if skill == EvidenceLength && x <= 0 {
		return 0.2
	}
	return x
}

// seriesLabel names a series in a legend: source and model.
func seriesLabel(p EvidencePoint) string {
	return sourceKey(p) + ": " + p.Model
}

// levelPlot is the levels' figure: each prose and conflict point of the
// family at a categorical x, the published value (glyph) and the model's
// (bar-less cross), so the two can be read off one column.
func levelPlot(reg *EvidenceRegistry, family string, p Profile) *plot.Plot {
	ms := Measurements(reg, family)
	byID := map[string]*Measurement{}
	for _, m := range ms {
		byID[m.Point.ID] = m
	}
	var pub, mod plotter.XYs
	var names []string
	for _, m := range ms {
		if m.Role != roleLevel || (m.Point.Skill != EvidenceProse && m.Point.Skill != EvidenceConflict) {
			continue
		}
		v, ok := m.InFrame(p, byID)
		if !ok {
			continue
		}
		x := float64(len(names))
		pub = append(pub, plotter.XY{X: x, Y: m.Value})
		mod = append(mod, plotter.XY{X: x, Y: v})
		names = append(names, fmt.Sprintf("%s, %s\n%s", m.Point.Skill, sourceKey(m.Point), shortModel(m.Point.Model)))
	}
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("%s: short passages and conflicts, SIMULATED model and registry", family)
	pl.Y.Label.Text = "accuracy (conflict: abstains)"
	if len(pub) > 0 {
		c0, _, g0 := report.SeriesStyle(0)
		c1, _, g1 := report.SeriesStyle(1)
		sp, _ := plotter.NewScatter(pub)
		sp.GlyphStyle.Color, sp.GlyphStyle.Shape, sp.GlyphStyle.Radius = c0, g0, vg.Points(4)
		sm, _ := plotter.NewScatter(mod)
		sm.GlyphStyle.Color, sm.GlyphStyle.Shape, sm.GlyphStyle.Radius = c1, g1, vg.Points(4)
		pl.Add(sp, sm)
		pl.Legend.Add("registry (published)", sp)
		pl.Legend.Add("SIMULATED model", sm)
	}
	ticks := make([]plot.Tick, len(names))
	for i, n := range names {
		ticks[i] = plot.Tick{Value: float64(i), Label: n}
	}
	pl.X.Tick.Marker = plot.ConstantTicks(ticks)
	pl.X.Tick.Label.Font.Size = vg.Points(6.5)
	pl.X.Min, pl.X.Max = -0.5, float64(len(names))-0.5
	pl.Y.Min, pl.Y.Max = 0, 1.3
	pl.Y.Tick.Marker = report.TicksUpTo(1)
	pl.Legend.Top = true
	pl.Legend.TextStyle.Font.Size = vg.Points(8)
	pl.Add(plotter.NewGrid())
	return pl
}

// shortModel cuts a model's name to fit under a tick.
func shortModel(m string) string {
	if r := []rune(m); len(r) > 20 {
		return string(r[:19]) + "…"
	}
	return m
}

// EvidencePlots are every family's figures of every EvidenceFigureSkills
// skill for the calibration c, by EvidenceFigureName.
func EvidencePlots(reg *EvidenceRegistry, c *Calibration) map[string]*plot.Plot {
	out := map[string]*plot.Plot{}
	for _, f := range c.Families {
		for _, s := range EvidenceFigureSkills {
			out[EvidenceFigureName(s, f.Family)] = EvidencePlot(reg, f.Family, f.Profile, s)
		}
	}
	return out
}

// AnchorPlot is the anchor figure of one fitted reader of c: the profile
// named profile (a "fit-…" name, as sim:NAME takes it) beside the shipped
// registry's points of skill for its family. An unknown profile is an
// error naming the ones c holds.
func (c *Calibration) AnchorPlot(profile string, skill EvidenceSkill) (*plot.Plot, error) {
	f, ok := c.Family(profile)
	if !ok {
		var names []string
		for _, f := range c.Families {
			names = append(names, f.Profile.Name)
		}
		return nil, fmt.Errorf("sim: no fitted profile %q (the calibration holds %s)", profile, strings.Join(names, ", "))
	}
	return EvidencePlot(ShippedEvidence(), f.Family, f.Profile, skill), nil
}
