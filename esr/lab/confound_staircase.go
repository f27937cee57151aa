package lab

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/paper"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"
)

// staircaseSteps name the step into each memory of Staircase.
var staircaseSteps = []string{"d-blind control", "render step", "mechanism step (fine)", "mechanism (coarse)"}

// StaircaseAccuracy is the accuracy of each staircase memory on the rows
// kept by f, pooled (Group "pooled") and per reader family.
func StaircaseAccuracy(rows []eval.Outcome, f eval.Filter) []eval.Accuracy {
	out := eval.AccuracyBy(rows, Staircase, func(*eval.Outcome) string { return reader.Pooled.String() }, f, eval.DefaultStats.Level)
	return append(out, eval.AccuracyBy(rows, Staircase, func(o *eval.Outcome) string { return o.Family.String() }, f, eval.DefaultStats.Level)...)
}

// paperGroup is the Group of PaperStaircase's accuracies.
const paperGroup = "paper"

// PaperStaircase is the paper's staircase on reverted-revert, from its
// registry: graphrag-abstain, fine-ledger and coarse-retain are Table 5's
// accuracies; render-only is not printed, so it is graphrag-abstain plus
// Table 2's render term (Table 5's fine-ledger then lies Table 2's fine-d
// mechanism above it, up to rounding). StaircasePlot draws it as open rings.
func PaperStaircase() []eval.Accuracy {
	gra := paper.Number(paper.T5Cell(esr.RevertedRevert, memory.SpecOf(memory.GraphRAGAbstain)))
	return []eval.Accuracy{
		{Memory: memory.SpecOf(memory.GraphRAGAbstain), Group: paperGroup, Acc: gra},
		{Memory: memory.SpecOf(memory.RenderOnly), Group: paperGroup, Acc: gra + paper.Number(paper.T2Render)},
		{Memory: memory.SpecOf(memory.FineLedger), Group: paperGroup, Acc: paper.Number(paper.T5Cell(esr.RevertedRevert, memory.SpecOf(memory.FineLedger)))},
		{Memory: memory.SpecOf(memory.CoarseRetain), Group: paperGroup, Acc: paper.Number(paper.T5Cell(esr.RevertedRevert, memory.SpecOf(memory.CoarseRetain)))},
	}
}

// StaircaseTable lays StaircaseAccuracy out, one row per family (pooled
// first), one column per memory, with the two steps as differences.
func StaircaseTable(acc []eval.Accuracy, scope string) *eval.Table {
	t := &eval.Table{ID: "staircase", Title: "The staircase on " + scope + ": accuracy along graphrag-abstain → render-only → fine-ledger (→ coarse-retain)",
		Columns: []string{"family", "n", memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger, memory.CoarseRetain, "render step", "mechanism step"}}
	var groups []string
	by := map[string]map[string]eval.Accuracy{}
	for _, a := range acc {
		if by[a.Group] == nil {
			by[a.Group] = map[string]eval.Accuracy{}
			groups = append(groups, a.Group)
		}
		by[a.Group][a.Memory.String()] = a
	}
	for _, g := range groups {
		m := by[g]
		cell := func(name string) eval.Cell {
			if a, ok := m[name]; ok {
				return eval.PropCell(a.Acc)
			}
			return eval.TextCell("—")
		}
		t.AddRow(g, m[memory.FineLedger].N, cell(memory.GraphRAGAbstain), cell(memory.RenderOnly), cell(memory.FineLedger), cell(memory.CoarseRetain),
			eval.SignedCell(m[memory.RenderOnly].Acc-m[memory.GraphRAGAbstain].Acc), eval.SignedCell(m[memory.FineLedger].Acc-m[memory.RenderOnly].Acc))
	}
	t.Notes = []string{"render step = render-only − graphrag-abstain (same atoms and dates, the ledger's layout); mechanism step = fine-ledger − render-only (same layout, status on); the pooled row is the mix of the families pooled"}
	return t
}

// StaircasePlot draws StaircaseAccuracy: one line per family across the
// staircase memories acc has (a worked question's three, or all four), the
// pooled line in black and thicker, the two steps named on the x axis.
// The families are dodged a little along x around each memory, so readers
// with the same accuracies (four readers wrong everywhere) are each seen
// rather than drawn on top of one another; the paper's rings sit at the
// memory itself. The legend goes where it covers no data
// (report.PlaceLegend).
func StaircasePlot(acc []eval.Accuracy, title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "accuracy"
	var mems []memory.Spec
	var labels []string
	for i, m := range Staircase {
		if slices.ContainsFunc(acc, func(a eval.Accuracy) bool { return a.Memory == m }) {
			mems = append(mems, m)
			labels = append(labels, m.String()+"\n("+staircaseSteps[i]+")")
		}
	}
	var groups []string
	seen := map[string]bool{}
	for _, a := range acc {
		if !seen[a.Group] {
			seen[a.Group] = true
			groups = append(groups, a.Group)
		}
	}
	// Families in their fixed order (report.FamilyStyle), pooled first.
	report.SortFamilies(groups)
	if i := slices.Index(groups, reader.Pooled.String()); i > 0 {
		groups = append([]string{reader.Pooled.String()}, slices.Delete(groups, i, i+1)...)
	}
	// Ours spread over at most 0.36 of a column; the paper's large open
	// rings stay at the memory itself.
	ours := len(groups)
	if seen[paperGroup] {
		ours--
	}
	spread := min(0.36, 0.06*float64(ours-1))
	dodge := func(k int) float64 {
		if ours <= 1 {
			return 0
		}
		return -spread/2 + spread*float64(k)/float64(ours-1)
	}
	fi, k := 0, 0
	for _, g := range groups {
		off := 0.0
		if g != paperGroup {
			off = dodge(k)
			k++
		}
		var xys plotter.XYs
		for i, m := range mems {
			for _, a := range acc {
				if a.Group == g && a.Memory == m {
					xys = append(xys, plotter.XY{X: float64(i) + off, Y: a.Acc})
				}
			}
		}
		line, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			continue
		}
		switch {
		case g == paperGroup:
			pts.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{120, 0, 0, 255}, Radius: vg.Points(6), Shape: draw.RingGlyph{}}
			line.LineStyle.Color = pts.GlyphStyle.Color
			line.LineStyle.Width = vg.Points(1)
			line.LineStyle.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
			p.Add(line, pts)
			p.Legend.Add("paper (render-only = GRA + render term)", line, pts)
			continue
		case g == reader.Pooled.String():
			line.LineStyle.Color, pts.GlyphStyle.Color = color.Black, color.Black
			line.LineStyle.Width = vg.Points(3)
			// A square: a triangle at the end of the thick line read as an arrowhead.
			pts.GlyphStyle.Shape, pts.GlyphStyle.Radius = draw.BoxGlyph{}, vg.Points(5)
		default:
			c, dashes, glyph := report.FamilyStyle(g, fi)
			line.LineStyle.Color, pts.GlyphStyle.Color = c, c
			line.LineStyle.Width = vg.Points(1.2)
			line.LineStyle.Dashes = dashes
			pts.GlyphStyle.Shape = glyph
			fi++
		}
		p.Add(line, pts)
		p.Legend.Add(g, line, pts)
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.3, float64(len(mems))-0.7
	p.Y.Min, p.Y.Max = 0, 1
	p.Add(plotter.NewGrid())
	report.Fit(p, report.FigureWidth, report.FigureHeight)
	report.PlaceLegend(p, report.FigureWidth, report.FigureHeight)
	return p
}

// StaircaseSentence says, from the accuracies, what each step does pooled
// and which families carry it.
func StaircaseSentence(acc []eval.Accuracy) string {
	by := map[string]map[string]float64{}
	var fams []string
	for _, a := range acc {
		if by[a.Group] == nil {
			by[a.Group] = map[string]float64{}
			if a.Group != reader.Pooled.String() {
				fams = append(fams, a.Group)
			}
		}
		by[a.Group][a.Memory.String()] = a.Acc
	}
	fams = slices.DeleteFunc(fams, func(f string) bool { return f == paperGroup })
	p := by[reader.Pooled.String()]
	if p == nil {
		return ""
	}
	s := fmt.Sprintf("Pooled, accuracy goes %s → %s → %s (→ coarse-retain %s): the render step is %s and the mechanism step %s.",
		eval.PropCell(p[memory.GraphRAGAbstain]), eval.PropCell(p[memory.RenderOnly]), eval.PropCell(p[memory.FineLedger]), eval.PropCell(p[memory.CoarseRetain]),
		fmtSigned(p[memory.RenderOnly]-p[memory.GraphRAGAbstain]), fmtSigned(p[memory.FineLedger]-p[memory.RenderOnly]))
	// A calibrated family is named as the simulated reader it is, a model
	// of its LLM (readerWords), once per list.
	models := len(fams) > 0
	for _, f := range fams {
		fam, ok := groupFamily(f)
		models = models && ok && modelOf(fam) != ""
	}
	named := func(f, what string) string {
		if models {
			fam, _ := groupFamily(f)
			return fmt.Sprintf("%s (a model of %s; %s)", fam.Name, modelOf(fam), what)
		}
		return fmt.Sprintf("%s (%s)", f, what)
	}
	list := func(xs []string) string {
		if models {
			return "the simulated readers " + strings.Join(xs, ", ")
		}
		return strings.Join(xs, ", ")
	}
	var up, down, flat []string
	for _, f := range fams {
		r, m := by[f][memory.RenderOnly]-by[f][memory.GraphRAGAbstain], by[f][memory.FineLedger]-by[f][memory.RenderOnly]
		switch {
		case math.Abs(r) < 1e-9 && math.Abs(m) < 1e-9:
			flat = append(flat, named(f, "no change"))
		case math.Abs(m) > math.Abs(r):
			up = append(up, named(f, "mechanism "+fmtSigned(m)))
		default:
			down = append(down, named(f, "render "+fmtSigned(r)))
		}
	}
	if len(up) > 0 {
		s += " The mechanism step is carried by " + list(up) + "."
	}
	if len(down) > 0 {
		s += " The render step moves " + list(down) + "."
	}
	if len(flat) > 0 {
		s += " No step changes " + list(flat) + "."
	}
	return s + " A pooled term is the mix of the readers pooled."
}
