package lab

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/report"
	"github.com/esrkit/esrkit/internal/workpool"
)

// phaseMemories are the render-matched trio a phase diagram compares.
var phaseMemories = memory.Specs(memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger)

// Phase is a phase diagram of the render-matched decomposition over two
// capabilities of a simulated (sim:) reader: for every grid cell, the
// render term (render-only − graphrag-abstain) and the fine-d mechanism
// term (fine-ledger − render-only), pooled over the reverted-revert
// snapshot questions of a benchmark. It is a SIMULATION: it shows which
// reader skills make the same memory gain look like presentation or like
// mechanism, not what an LLM would score.
type Phase struct {
	XCap, YCap string
	Grid       []float64
	// Base is the profile every cell starts from (its other capabilities).
	Base sim.Profile
	// Seed seeds the sim reader's draws (and the bootstrap, Stats.Seed).
	Seed  uint64
	Stats eval.StatOptions
	// Questions is the number of reverted-revert snapshot QAs.
	Questions int
	// Cells holds len(Grid)² cells, row-major: Cells[yi*len(Grid)+xi].
	Cells []PhaseCell
}

// PhaseCell is one grid cell: the two capability values, the accuracy of
// each memory and the two terms with their intervals.
type PhaseCell struct {
	X, Y                   float64
	AccGRA, AccRO, AccFine float64
	Render, Mechanism      eval.Comparison
}

// Cell is the cell at grid indices (xi, yi).
func (p *Phase) Cell(xi, yi int) PhaseCell { return p.Cells[yi*len(p.Grid)+xi] }

// PhaseDiagram evaluates graphrag-abstain, render-only and fine-ledger on
// the benchmark's reverted-revert snapshot QAs with a sim reader whose
// capabilities xCap and yCap (sim.Capabilities names, e.g.
// sim.Date and sim.Status) take every pair of grid values, the
// rest from base, and records per cell the pooled render and mechanism
// terms with opt's intervals. Every memory is built and rendered once per
// question; the cells only re-read the renders, so a 5×5 grid on the
// bundled synthetic bench (180 questions) takes seconds. The reader's
// draws are seeded by opt.Seed and keyed by base.Name, so every cell sees
// the same uniforms per question (common random numbers: differences
// between cells come from the skills, not from reader noise).
func PhaseDiagram(ctx context.Context, b *bench.Bench, xCap, yCap string, grid []float64, base sim.Profile, opt eval.StatOptions) (*Phase, error) {
	opt = opt.WithDefaults()
	if xCap == yCap {
		return nil, fmt.Errorf("phase diagram: both axes are %q", xCap)
	}
	if len(grid) == 0 {
		return nil, fmt.Errorf("phase diagram: empty grid")
	}
	if base.Name == "" {
		base.Name = "phase"
	}
	for _, c := range []string{xCap, yCap} {
		for _, v := range grid {
			if _, err := base.Set(c, v); err != nil {
				return nil, fmt.Errorf("phase diagram: %w", err)
			}
		}
	}
	items, err := eval.RenderQAs(b, phaseMemories, func(qa *esr.QA) bool {
		return qa.Phenomenon == esr.RevertedRevert && qa.Type() == esr.Snapshot
	}, memory.Options{})
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("phase diagram: the benchmark has no reverted-revert snapshot QAs")
	}
	ph := &Phase{XCap: xCap, YCap: yCap, Grid: append([]float64(nil), grid...), Base: base, Seed: opt.Seed,
		Stats: opt, Questions: len(items), Cells: make([]PhaseCell, len(grid)*len(grid))}
	err = workpool.Run(ctx, len(ph.Cells), runtime.GOMAXPROCS(0), func(ctx context.Context, i int) error {
		var err error
		ph.Cells[i], err = phaseCell(ctx, items, ph, grid[i%len(grid)], grid[i/len(grid)])
		return err
	})
	if err != nil {
		return nil, err
	}
	return ph, nil
}

// phaseCell reads every item's renders with the cell's sim reader.
func phaseCell(ctx context.Context, items []eval.RenderedQA, ph *Phase, x, y float64) (PhaseCell, error) {
	cell := PhaseCell{X: x, Y: y}
	prof, err := ph.Base.Set(ph.XCap, x)
	if err == nil {
		prof, err = prof.Set(ph.YCap, y)
	}
	if err != nil {
		return cell, err
	}
	r, err := sim.New(prof, ph.Seed)
	if err != nil {
		return cell, err
	}
	rows := make([]eval.Outcome, 0, 3*len(items))
	for _, it := range items {
		for mi := range it.Inputs {
			o, err := it.Read(ctx, r, mi)
			if err != nil {
				return cell, err
			}
			rows = append(rows, o)
		}
	}
	if cell.Render, err = eval.Compare(rows, eval.TermRender, nil, ph.Stats); err != nil {
		return cell, err
	}
	if cell.Mechanism, err = eval.Compare(rows, eval.TermFineMechanism, nil, ph.Stats); err != nil {
		return cell, err
	}
	cell.AccGRA, cell.AccRO, cell.AccFine = cell.Render.AccB, cell.Render.AccA, cell.Mechanism.AccA
	return cell, nil
}

// capLabel is an axis label: the capability name and its SimProfile field.
func capLabel(name string) string {
	for _, c := range sim.Capabilities {
		if c.Name == name {
			return name + " (" + c.Field + ")"
		}
	}
	return name
}

// baseNote lists the base profile's capabilities other than the axes.
func (p *Phase) baseNote() string {
	var parts []string
	for _, c := range sim.Capabilities {
		if c.Name == p.XCap || c.Name == p.YCap {
			continue
		}
		v, _ := p.Base.Get(c.Name)
		parts = append(parts, fmt.Sprintf("%s = %g", c.Name, v))
	}
	return strings.Join(parts, ", ")
}

// Table lists every cell: the two capability values, the three accuracies
// and both terms with their intervals.
func (p *Phase) Table() *eval.Table {
	t := &eval.Table{ID: eval.TableID("phase-" + p.XCap + "-" + p.YCap),
		Title:   fmt.Sprintf("Phase diagram: render and mechanism terms over %s × %s (sim reader, reverted-revert snapshot)", p.XCap, p.YCap),
		Columns: []string{p.XCap, p.YCap, "acc GRA", "acc render-only", "acc fine-ledger", "render Δ", "render CI", "mechanism Δ", "mechanism CI", "dominant"}}
	for _, c := range p.Cells {
		t.AddRow(eval.NumberCell("%g", c.X), eval.NumberCell("%g", c.Y), c.AccGRA, c.AccRO, c.AccFine,
			eval.SignedCell(c.Render.Delta), c.Render.CI(), eval.SignedCell(c.Mechanism.Delta), c.Mechanism.CI(), c.Dominant())
	}
	t.Notes = []string{
		"render = render-only − graphrag-abstain; mechanism = fine-ledger − render-only (fine-d); dominant: the term whose interval excludes 0 and whose |Δ| is larger (\"neither\" otherwise)",
		fmt.Sprintf("reader: sim:%s with %s and %s set per cell; other capabilities: %s; draws seeded by %d per (profile, question), the same in every cell and under every memory", p.Base.Name, p.XCap, p.YCap, p.baseNote(), p.Seed),
		fmt.Sprintf("n = %d reverted-revert snapshot questions per cell; %s", p.Questions, p.Stats.IntervalNote()),
		"sim:* are SIMULATED stochastic readers (the scripted rules with each capability drawn per question), not LLMs: the diagram shows which reader skills make the gain look like render or like mechanism, not the paper's magnitudes",
	}
	return t
}

// Dominant names the term that carries the cell's gain: "render" or
// "mechanism" when its interval excludes 0 and its |Δ| is the larger,
// "neither" otherwise.
func (c PhaseCell) Dominant() string {
	r, m := c.Render, c.Mechanism
	switch {
	case r.Significant() && math.Abs(r.Delta) >= math.Abs(m.Delta):
		return "render"
	case m.Significant() && math.Abs(m.Delta) > math.Abs(r.Delta):
		return "mechanism"
	}
	return "neither"
}

// term returns the cell's comparison for term "render" or "mechanism".
func (c PhaseCell) term(term string) eval.Comparison {
	if term == "render" {
		return c.Render
	}
	return c.Mechanism
}

// Plot draws one term ("render" or "mechanism") as a heat map over the two
// capabilities: a diverging palette centred on 0 whose lightness rises
// with the value (readable in greyscale), each cell printed with its
// signed Δ, starred when its interval excludes 0.
func (p *Phase) Plot(term string) *plot.Plot {
	n := len(p.Grid)
	cells := report.HeatCells{X: p.Grid, Y: p.Grid, Z: make([][]float64, n), Labels: make([][]string, n)}
	for yi := 0; yi < n; yi++ {
		cells.Z[yi], cells.Labels[yi] = make([]float64, n), make([]string, n)
		for xi := 0; xi < n; xi++ {
			c := p.Cell(xi, yi).term(term)
			cells.Z[yi][xi] = c.Delta
			cells.Labels[yi][xi] = report.Signed(c.Delta)
			if c.Significant() {
				cells.Labels[yi][xi] += "*"
			}
		}
	}
	what := "render term (render-only − graphrag-abstain)"
	if term != "render" {
		what = "mechanism term (fine-ledger − render-only)"
	}
	return report.HeatMap(fmt.Sprintf("%s, sim:%s (* = CI excludes 0)", what, p.Base.Name), capLabel(p.XCap), capLabel(p.YCap), cells)
}

// axisTrend is a term averaged over the other axis at the lowest and the
// highest grid value of one axis.
func (p *Phase) axisTrend(term string, alongX bool) (lo, hi float64) {
	n := len(p.Grid)
	for k := 0; k < n; k++ {
		var a, b PhaseCell
		if alongX {
			a, b = p.Cell(0, k), p.Cell(n-1, k)
		} else {
			a, b = p.Cell(k, 0), p.Cell(k, n-1)
		}
		lo += a.term(term).Delta
		hi += b.term(term).Delta
	}
	return lo / float64(n), hi / float64(n)
}

// Summary states, from the computed grid, where each term is largest, how
// each moves along each axis, where render and where mechanism dominate,
// and which capabilities make the gain look like render and which like
// mechanism. Every number in it is computed.
func (p *Phase) Summary() string {
	var b strings.Builder
	n := len(p.Grid)
	gmin, gmax := p.Grid[0], p.Grid[n-1]
	fmt.Fprintf(&b, "Phase diagram over %s (x) × %s (y), %d×%d grid, sim:%s (%s), n = %d reverted-revert snapshot questions per cell:\n",
		p.XCap, p.YCap, n, n, p.Base.Name, p.baseNote(), p.Questions)
	at := func(c PhaseCell) string { return fmt.Sprintf("%s = %g, %s = %g", p.XCap, c.X, p.YCap, c.Y) }
	type drive struct {
		axis       string
		lo, hi     float64
		delta, abs float64
	}
	drives := map[string]drive{}
	for _, term := range []string{"render", "mechanism"} {
		best, worst := p.Cells[0], p.Cells[0]
		for _, c := range p.Cells {
			if c.term(term).Delta > best.term(term).Delta {
				best = c
			}
			if c.term(term).Delta < worst.term(term).Delta {
				worst = c
			}
		}
		xl, xh := p.axisTrend(term, true)
		yl, yh := p.axisTrend(term, false)
		bt, wt := best.term(term), worst.term(term)
		fmt.Fprintf(&b, "- The %s term is largest, %s %s, at %s, and smallest, %s %s, at %s. Averaged over %s it goes from %s at %s = %g to %s at %s = %g; averaged over %s, from %s at %s = %g to %s at %s = %g.\n",
			term, report.Signed(bt.Delta), bt.CI(), at(best), report.Signed(wt.Delta), wt.CI(), at(worst),
			p.YCap, report.Signed(xl), p.XCap, gmin, report.Signed(xh), p.XCap, gmax,
			p.XCap, report.Signed(yl), p.YCap, gmin, report.Signed(yh), p.YCap, gmax)
		d := drive{axis: p.XCap, lo: xl, hi: xh, delta: xh - xl}
		if math.Abs(yh-yl) > math.Abs(d.delta) {
			d = drive{axis: p.YCap, lo: yl, hi: yh, delta: yh - yl}
		}
		d.abs = math.Abs(d.delta)
		drives[term] = d
	}
	for _, dom := range []string{"render", "mechanism"} {
		var xs, ys []float64
		for _, c := range p.Cells {
			if c.Dominant() == dom {
				xs, ys = append(xs, c.X), append(ys, c.Y)
			}
		}
		if len(xs) == 0 {
			fmt.Fprintf(&b, "- The %s term dominates (interval excludes 0, larger |Δ|) in no cell.\n", dom)
			continue
		}
		fmt.Fprintf(&b, "- The %s term dominates (interval excludes 0, larger |Δ|) in %d of %d cells, all with %s in [%g, %g] and %s in [%g, %g].\n",
			dom, len(xs), len(p.Cells), p.XCap, minOf(xs), maxOf(xs), p.YCap, minOf(ys), maxOf(ys))
	}
	neither := 0
	for _, c := range p.Cells {
		if c.Dominant() == "neither" {
			neither++
		}
	}
	if neither > 0 {
		fmt.Fprintf(&b, "- Neither term is distinguishable from 0 with the larger |Δ| in %d of %d cells.\n", neither, len(p.Cells))
	}
	// The reading: the axis that moves each term most, and which end of it
	// makes the term large.
	end := func(d drive) string {
		if d.delta > 0 {
			return fmt.Sprintf("high %s", d.axis)
		}
		return fmt.Sprintf("low %s", d.axis)
	}
	r, m := drives["render"], drives["mechanism"]
	const flat = 0.02
	switch {
	case r.abs < flat && m.abs < flat:
		fmt.Fprintf(&b, "- Reading: neither capability moves either term by more than %.2f; this grid does not separate render from mechanism.\n", flat)
	default:
		fmt.Fprintf(&b, "- Reading: %s moves the render term most (%s → %s along it), so readers with %s make the gain look like render; %s moves the mechanism term most (%s → %s), so readers with %s make it look like mechanism.\n",
			r.axis, report.Signed(r.lo), report.Signed(r.hi), end(r), m.axis, report.Signed(m.lo), report.Signed(m.hi), end(m))
	}
	return b.String()
}

func minOf(xs []float64) float64 {
	m := math.Inf(1)
	for _, x := range xs {
		m = math.Min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}
