package lab

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"
)

// ParaphraseRates are the paraphrase rates notebook 45 sweeps.
var ParaphraseRates = []float64{0, 0.25, 0.5, 0.75, 1}

// ParaphraseSeries are the classes notebook 45 sweeps over the paraphrase
// rate: each deployed class at its other defaults, and graphiti with dup=0
// (an LLM that never calls a restated fact a duplicate of its old edge),
// which shows what the dup assumption carries.
var ParaphraseSeries = []memory.Spec{memory.SpecOf(memory.Graphiti),
	{Class: memory.Graphiti, Params: memory.Params{Assumed: memory.Assumed{Dup: memory.Some(0.0)}}},
	memory.SpecOf(memory.GraphitiCurrent), memory.SpecOf(memory.Mem0V3), memory.SpecOf(memory.Mem0Update)}

// Reader groups of a ParaphraseCurve.
const (
	OracleGroup  = "oracle read-out"
	ReadersGroup = "default readers"
)

// ParaphrasePoint is one series' reverted-revert snapshot accuracy at one
// paraphrase rate, for one reader group.
type ParaphrasePoint struct {
	Series memory.Spec // the class without paraphrase=
	Class  memory.Spec // the class evaluated (Series with paraphrase=Rate)
	Rate   float64     // paraphrase
	Group  string      // OracleGroup or ReadersGroup
	Acc    eval.Accuracy
}

// ParaphraseCurve is each series' reverted-revert snapshot accuracy over
// the paraphrase rate, with the d-blind baseline's (which has no
// paraphrase) per group.
type ParaphraseCurve struct {
	Bench    string
	Series   []memory.Spec
	Rates    []float64
	Readers  []reader.Family // the default readers' families
	Points   []ParaphrasePoint
	Baseline map[string]eval.Accuracy // by group
}

// EvaluateParaphraseCurve evaluates every series at every rate, and the
// d-blind baseline, on b's reverted-revert snapshot QAs with the oracle
// reader (the structured read-out) and readers (pooled), under
// DeployedOptions.
func EvaluateParaphraseCurve(ctx context.Context, b *bench.Bench, series []memory.Spec, rates []float64, readers []reader.Reader) (*ParaphraseCurve, error) {
	c := &ParaphraseCurve{Bench: b.Name(), Series: series, Rates: rates, Baseline: map[string]eval.Accuracy{}}
	mems := []memory.Spec{paper.DeployedBaseline}
	type point struct {
		series memory.Spec
		rate   string
	}
	name := map[point]memory.Spec{} // (series, rate) → class
	for _, s := range series {
		for _, r := range rates {
			n, err := s.With(memory.ParamParaphrase, strconv.FormatFloat(r, 'g', -1, 64))
			if err != nil {
				return nil, err
			}
			name[point{s, fmtRate(r)}] = n
			mems = append(mems, n)
		}
	}
	for _, r := range readers {
		c.Readers = append(c.Readers, r.Family())
	}
	counts, err := curveCounts(ctx, b, mems, readers)
	if err != nil {
		return nil, err
	}
	if n := counts[paper.DeployedBaseline][OracleGroup]; n.N+n.Unreadable == 0 {
		return nil, fmt.Errorf("%s: no reverted-revert snapshot QAs", b.Name())
	}
	acc := map[[2]string]eval.Accuracy{} // (group, class)
	for m, byGroup := range counts {
		for g, n := range byGroup {
			if n.N+n.Unreadable > 0 {
				acc[[2]string{g, m.String()}] = eval.AccuracyOfCounts(g, m, n, 0)
			}
		}
	}
	for _, g := range []string{OracleGroup, ReadersGroup} {
		if len(readers) == 0 && g == ReadersGroup {
			continue
		}
		c.Baseline[g] = acc[[2]string{g, paper.DeployedBaseline.String()}]
		for _, s := range series {
			for _, r := range rates {
				n := name[point{s, fmtRate(r)}]
				c.Points = append(c.Points, ParaphrasePoint{Series: s, Class: n, Rate: r, Group: g, Acc: acc[[2]string{g, n.String()}]})
			}
		}
	}
	return c, nil
}

// curveCounts are each class's accuracy counts per reader group on b's
// reverted-revert snapshot QAs under DeployedOptions, read by readers
// (ReadersGroup, pooled) and the oracle read-out (OracleGroup): from the
// counts memo (SetCountsMemo) where it holds a class, the other classes
// evaluated together, on as many streams at once as there are cores.
func curveCounts(ctx context.Context, b *bench.Bench, mems []memory.Spec, readers []reader.Reader) (map[memory.Spec]map[string]eval.Counts, error) {
	out := map[memory.Spec]map[string]eval.Counts{}
	memo, useMemo, err := newCurveMemo(b, readers)
	if err != nil {
		return nil, err
	}
	var todo []memory.Spec
	for _, m := range mems {
		if _, ok := out[m]; ok || slices.Contains(todo, m) {
			continue // a class asked for twice is evaluated once
		}
		if useMemo {
			if c, ok := memo.recall(m); ok {
				out[m] = c
				continue
			}
		}
		todo = append(todo, m)
	}
	if len(todo) == 0 {
		return out, nil
	}
	rows, err := eval.Evaluate(ctx, b, eval.Config{Memories: todo, Readers: append(append([]reader.Reader{}, readers...), reader.Oracle{}),
		QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}, Options: paper.DeployedOptions,
		Concurrency: runtime.GOMAXPROCS(0)})
	if err != nil {
		return nil, err
	}
	for _, m := range todo {
		out[m] = map[string]eval.Counts{OracleGroup: {}, ReadersGroup: {}}
	}
	for i := range rows {
		o := &rows[i]
		g := ReadersGroup
		if o.Family == (reader.Oracle{}).Family() {
			g = OracleGroup
		}
		n := out[o.Memory][g]
		n.Add(o)
		out[o.Memory][g] = n
	}
	if useMemo {
		for _, m := range todo {
			memo.keep(m, out[m])
		}
	}
	return out, nil
}

func fmtRate(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }

// groups are the reader groups the curve has, oracle first.
func (c *ParaphraseCurve) groups() []string {
	var out []string
	for _, g := range []string{OracleGroup, ReadersGroup} {
		if _, ok := c.Baseline[g]; ok {
			out = append(out, g)
		}
	}
	return out
}

func (c *ParaphraseCurve) point(series memory.Spec, group string, rate float64) ParaphrasePoint {
	for _, p := range c.Points {
		if p.Series == series && p.Group == group && p.Rate == rate {
			return p
		}
	}
	return ParaphrasePoint{}
}

// assumptions are a series' parameters other than paraphrase.
func (c *ParaphraseCurve) assumptions(series memory.Spec) string {
	as := series.Assumptions(paper.DeployedOptions)
	var keep []string
	for _, p := range strings.Split(as, ", ") {
		if !strings.HasPrefix(p, memory.ParamParaphrase+"=") {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, ", ")
}

// Table is the curve as a table: one row per series and reader group, one
// column per rate, the baseline's row last.
func (c *ParaphraseCurve) Table() *eval.Table {
	t := &eval.Table{ID: eval.TableID("deployed-paraphrase-" + c.Bench),
		Title:   "Reverted-revert snapshot accuracy of the deployed-system models over the paraphrase rate: " + c.Bench,
		Columns: []string{"class", "other assumptions", "read by", "n"}}
	for _, r := range c.Rates {
		t.Columns = append(t.Columns, "paraphrase="+fmtRate(r))
	}
	for _, s := range c.Series {
		for _, g := range c.groups() {
			row := []any{s, c.assumptions(s), g, c.point(s, g, c.Rates[0]).Acc.N}
			for _, r := range c.Rates {
				row = append(row, eval.PropCell(c.point(s, g, r).Acc.Acc))
			}
			t.AddRow(row...)
		}
	}
	for _, g := range c.groups() {
		row := []any{paper.DeployedBaseline, "(no paraphrase)", g, c.Baseline[g].N}
		for range c.Rates {
			row = append(row, eval.PropCell(c.Baseline[g].Acc))
		}
		t.AddRow(row...)
	}
	t.Notes = []string{"paraphrase = probability per episode that the fact (Graphiti) or memory (Mem0) text is written differently from the template ENTITY ATTRIBUTE is VALUE, drawn per (seed, stream, atom); 0 is the kit's earlier fixed template",
		"oracle read-out = the class's structured read-out; default readers = " + joinFamilies(c.Readers) + ", pooled" + simulatedNote(c.Readers),
		"n = (question, reader) pairs per cell; accuracy against the gold current value"}
	return t
}

// joinFamilies lists families for a note, comma-separated.
func joinFamilies(fams []reader.Family) string {
	s := make([]string, len(fams))
	for i, f := range fams {
		s[i] = f.String()
	}
	return strings.Join(s, ", ")
}

func simulatedNote(fams []reader.Family) string {
	for _, f := range fams {
		if f.Simulated() {
			return " (SIMULATED readers: text rules, not LLMs)"
		}
	}
	return ""
}

// Plot draws the curve for one reader group (OracleGroup or ReadersGroup):
// accuracy against the paraphrase rate, one line per series, the d-blind
// baseline as a wide light grey band under them. The series are dodged a
// little along the rate (1.5% of its range apart), so series with the same
// accuracies (several classes at 0) are each seen, and the baseline is
// wider than their lines, so it shows around a series lying on it. The
// legend goes where it covers no data (report.PlaceLegend).
func (c *ParaphraseCurve) Plot(group string) *plot.Plot {
	p := plot.New()
	p.Title.Text = "Deployed-system models, reverted-revert snapshot, " + group + ": " + c.Bench + " (seed=" + strconv.FormatUint(paper.DeployedOptions.RenderSeed, 10) + ")"
	p.X.Label.Text = "paraphrase rate (probability an episode's fact text differs from the template)"
	p.Y.Label.Text = "accuracy"
	lo, hi := c.Rates[0], c.Rates[len(c.Rates)-1]
	step := 0.015 * (hi - lo)
	half := step * float64(len(c.Series)-1) / 2
	p.X.Min, p.X.Max = lo-half, hi+half
	// A little room below 0, so series and the baseline at 0 are not cut
	// by the axis.
	p.Y.Min, p.Y.Max = -0.03, 1
	if b, ok := c.Baseline[group]; ok {
		base, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: b.Acc}, {X: p.X.Max, Y: b.Acc}})
		if err == nil {
			base.LineStyle.Color = color.Gray{Y: 200}
			base.LineStyle.Width = vg.Points(6)
			p.Add(base)
			p.Legend.Add(paper.DeployedBaseline.String()+" (d-blind baseline)", base)
		}
	}
	for i, s := range c.Series {
		off := float64(i)*step - half
		var xys plotter.XYs
		for _, r := range c.Rates {
			xys = append(xys, plotter.XY{X: r + off, Y: c.point(s, group, r).Acc.Acc})
		}
		line, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			continue
		}
		col, dashes, glyph := report.SeriesStyle(i)
		line.LineStyle.Color, pts.GlyphStyle.Color = col, col
		line.LineStyle.Width, line.LineStyle.Dashes = vg.Points(1.5), dashes
		pts.GlyphStyle.Shape = glyph
		p.Add(line, pts)
		label := s.String()
		if as := strings.TrimSuffix(c.assumptions(s), ", seed="+strconv.FormatUint(paper.DeployedOptions.RenderSeed, 10)); as != "" {
			label += " (" + as + ")"
		}
		p.Legend.Add(label, line, pts)
	}
	p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 0.2}, {Value: 0.4, Label: "0.4"}, {Value: 0.6},
		{Value: 0.8, Label: "0.8"}, {Value: 1, Label: "1"}}
	p.Add(plotter.NewGrid())
	report.Fit(p, report.FigureWidth, report.FigureHeight)
	report.PlaceLegend(p, report.FigureWidth, report.FigureHeight)
	return p
}

// Sentences say, per series and reader group, the accuracy at the lowest
// and highest rate with the series' other assumptions, and how far the
// paraphrase rate moves it.
func (c *ParaphraseCurve) Sentences() []string {
	lo, hi := c.Rates[0], c.Rates[len(c.Rates)-1]
	var out []string
	for _, s := range c.Series {
		as := c.assumptions(s)
		var parts []string
		for _, g := range c.groups() {
			a, b := c.point(s, g, lo).Acc, c.point(s, g, hi).Acc
			move := "does not move it"
			if d := b.Acc - a.Acc; math.Abs(d) >= 0.0005 {
				move = "moves it by " + report.Signed(d)
			}
			verb := "scores"
			if g == ReadersGroup {
				verb = "score"
			}
			parts = append(parts, fmt.Sprintf("the %s %s %s at paraphrase=%s and %s at paraphrase=%s (n = %d; the rate %s; %s: %s)",
				g, verb, eval.PropCell(a.Acc), fmtRate(lo), eval.PropCell(b.Acc), fmtRate(hi), a.N, move, paper.DeployedBaseline, eval.PropCell(c.Baseline[g].Acc)))
		}
		sentence := fmt.Sprintf("On %s's reverted-revert snapshot questions, %s with %s: %s.", c.Bench, s, as, strings.Join(parts, "; "))
		out = append(out, sentence)
	}
	return append(out, c.contrasts()...)
}

// contrasts compare, at the default paraphrase rate (or the highest swept),
// each series with the first earlier series of the same class, naming the
// assumptions they differ in.
func (c *ParaphraseCurve) contrasts() []string {
	at := c.Rates[len(c.Rates)-1]
	for _, r := range c.Rates {
		if r == 0.5 {
			at = r
		}
	}
	var out []string
	for i, s := range c.Series {
		for _, t := range c.Series[:i] {
			if t.Class != s.Class {
				continue
			}
			var parts []string
			for _, g := range c.groups() {
				a, b := c.point(s, g, at).Acc, c.point(t, g, at).Acc
				parts = append(parts, fmt.Sprintf("the %s %s (%s) against %s (%s), a difference of %s", g, eval.PropCell(a.Acc), s, eval.PropCell(b.Acc), t, report.Signed(a.Acc-b.Acc)))
			}
			out = append(out, fmt.Sprintf("At paraphrase=%s on %s, %s (%s) and %s (%s) differ only in %s: %s.",
				fmtRate(at), c.Bench, s, c.assumptions(s), t, c.assumptions(t), differing(c.assumptions(s), c.assumptions(t)), strings.Join(parts, "; ")))
			break
		}
	}
	return out
}

// differing names the parameters two assumption lists ("k=v, k=v") set
// differently.
func differing(a, b string) string {
	bs := map[string]bool{}
	for _, p := range strings.Split(b, ", ") {
		bs[p] = true
	}
	var keys []string
	for _, p := range strings.Split(a, ", ") {
		if !bs[p] {
			k, _, _ := strings.Cut(p, "=")
			keys = append(keys, k)
		}
	}
	return strings.Join(keys, ", ")
}
