package lab

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"math"
	"runtime"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
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
	// Seed seeds the sim reader's draws: the default panel's draw seed
	// (panelDrawSeed), so that a cell at a fitted reader's own skills is
	// that reader's rows in the notebooks. Stats.Seed seeds the bootstrap.
	Seed  uint64
	Stats eval.StatOptions
	// Questions is the number of reverted-revert snapshot QAs.
	Questions int
	// Cells holds len(Grid)² cells, row-major: Cells[yi*len(Grid)+xi].
	Cells []PhaseCell
	// Marks are the readers PhaseDiagram was asked to mark: each one's own
	// skills on the two axes and its own terms.
	Marks []PhaseMark
}

// PhaseMark is one reader placed on a phase diagram: its skills on the
// two axes and the cell a reader with exactly its profile gives (its other
// skills its own, not the diagram's base).
type PhaseMark struct {
	Name string
	X, Y float64
	Cell PhaseCell
}

// panelDrawSeed is the draw seed of the default simulated panel
// (sim.CalibratedPanel): the phase diagram's readers draw with it, so a
// fitted reader marked on the diagram answers as it does in the suites.
const panelDrawSeed = 0

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
// question; the cells only re-read the renders, so a 7×7 grid on the
// bundled synthetic bench (198 questions) takes seconds. The reader's
// draws are seeded by the default panel's draw seed and keyed by
// base.Name, so every cell sees the same uniforms per question (common
// random numbers: differences between cells come from the skills, not from
// reader noise), and a cell at a fitted profile's own skills, with that
// profile as base, is that reader's rows in the notebooks' suites. Each of
// marks is placed on the diagram at its own skills (Phase.Marks): the terms
// a reader with exactly that profile gives, its other skills its own.
func PhaseDiagram(ctx context.Context, b *bench.Bench, xCap, yCap string, grid []float64, base sim.Profile, opt eval.StatOptions, marks ...sim.Profile) (*Phase, error) {
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
	ph := &Phase{XCap: xCap, YCap: yCap, Grid: append([]float64(nil), grid...), Base: base, Seed: panelDrawSeed,
		Stats: opt, Questions: len(items), Cells: make([]PhaseCell, len(grid)*len(grid))}
	// Every cell's reader and every mark's, in that order.
	profs := make([]sim.Profile, 0, len(ph.Cells)+len(marks))
	for i := range ph.Cells {
		prof, err := cellProfile(base, xCap, yCap, grid[i%len(grid)], grid[i/len(grid)])
		if err != nil {
			return nil, err
		}
		profs = append(profs, prof)
	}
	for _, prof := range marks {
		x, err1 := prof.Get(xCap)
		y, err2 := prof.Get(yCap)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("phase diagram: mark %s: %w", prof.Name, err)
		}
		ph.Marks = append(ph.Marks, PhaseMark{Name: prof.Name, X: x, Y: y})
		profs = append(profs, prof)
	}
	rows, err := readByEvery(ctx, items, profs, ph.Seed)
	if err != nil {
		return nil, err
	}
	cells := make([]PhaseCell, len(profs))
	err = workpool.Run(ctx, len(profs), runtime.GOMAXPROCS(0), func(ctx context.Context, i int) error {
		x, y := 0.0, 0.0
		if i < len(ph.Cells) {
			x, y = grid[i%len(grid)], grid[i/len(grid)]
		} else {
			x, y = ph.Marks[i-len(ph.Cells)].X, ph.Marks[i-len(ph.Cells)].Y
		}
		var err error
		cells[i], err = phaseCell(rows[i], x, y, opt)
		return err
	})
	if err != nil {
		return nil, err
	}
	copy(ph.Cells, cells)
	for i := range ph.Marks {
		ph.Marks[i].Cell = cells[len(ph.Cells)+i]
	}
	return ph, nil
}

// cellProfile is base with capabilities xCap and yCap set to x and y.
func cellProfile(base sim.Profile, xCap, yCap string, x, y float64) (sim.Profile, error) {
	prof, err := base.Set(xCap, x)
	if err == nil {
		prof, err = prof.Set(yCap, y)
	}
	return prof, err
}

// readByEvery reads every item's renders with a sim reader of each
// profile (draws seeded by seed) and returns each reader's outcomes, in
// item and memory order. A question's renders are read by every reader in
// turn, so each render is parsed once (the sim readers' parse memo keeps
// the renders parsed last) however many readers the diagram has: reading
// all items with one reader, then the next, parsed every render once per
// reader, and parsing was most of a diagram's time.
func readByEvery(ctx context.Context, items []eval.RenderedQA, profs []sim.Profile, seed uint64) ([][]eval.Outcome, error) {
	readers := make([]*sim.Sim, len(profs))
	for i, prof := range profs {
		r, err := sim.New(prof, seed)
		if err != nil {
			return nil, err
		}
		readers[i] = r
	}
	nm := 0
	if len(items) > 0 {
		nm = len(items[0].Inputs)
	}
	rows := make([][]eval.Outcome, len(readers))
	for i := range rows {
		rows[i] = make([]eval.Outcome, len(items)*nm)
	}
	// Each goroutine fills its own items' slots: no two write one slot.
	err := workpool.Run(ctx, len(items), runtime.GOMAXPROCS(0), func(ctx context.Context, k int) error {
		it := items[k]
		for mi := range it.Inputs {
			for ri, r := range readers {
				o, err := it.Read(ctx, r, mi)
				if err != nil {
					return err
				}
				rows[ri][k*nm+mi] = o
			}
		}
		return nil
	})
	return rows, err
}

// phaseCell is the cell at (x, y) from its reader's outcomes: the render
// and mechanism terms with opt's intervals.
func phaseCell(rows []eval.Outcome, x, y float64, opt eval.StatOptions) (PhaseCell, error) {
	cell := PhaseCell{X: x, Y: y}
	var err error
	if cell.Render, err = eval.Compare(rows, eval.TermRender, nil, opt); err != nil {
		return cell, err
	}
	if cell.Mechanism, err = eval.Compare(rows, eval.TermFineMechanism, nil, opt); err != nil {
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
		"render = render-only − graphrag-abstain; mechanism = fine-ledger − render-only (fine-d); dominant: the term with the larger |Δ| when its interval lies above 0, marked (negative) when below 0 (it costs accuracy), \"neither\" when it includes 0",
		fmt.Sprintf("reader: sim:%s with %s and %s set per cell; other capabilities: %s; draws seeded by %d per (profile, question), the same in every cell and under every memory", p.Base.Name, p.XCap, p.YCap, p.baseNote(), p.Seed),
		fmt.Sprintf("n = %d reverted-revert snapshot questions per cell; %s", p.Questions, p.Stats.IntervalNote()),
		"sim:* are SIMULATED stochastic readers (the scripted rules with each capability drawn per question), not LLMs: the diagram shows which reader skills make the gain look like render or like mechanism, not the paper's magnitudes",
	}
	if len(p.Marks) > 0 {
		var ms []string
		for _, m := range p.Marks {
			ms = append(ms, fmt.Sprintf("%s (%s %.3f, %s %.3f): render %s %s, mechanism %s %s", m.Name, p.XCap, m.X, p.YCap, m.Y,
				report.Signed(m.Cell.Render.Delta), m.Cell.Render.CI(), report.Signed(m.Cell.Mechanism.Delta), m.Cell.Mechanism.CI()))
		}
		t.Notes = append(t.Notes, "rings, each reader at its own skills (its other skills its own): "+strings.Join(ms, "; "))
	}
	return t
}

// Dominant names the term that carries the cell's gain, with its sign:
// "render" or "mechanism" when that term's |Δ| is the larger and its
// interval lies above 0; "render (negative)" or "mechanism (negative)"
// when the larger term's interval lies below 0 (it costs accuracy, it
// carries no gain); "neither" when the larger term's interval includes 0.
func (c PhaseCell) Dominant() string {
	big, name := c.Render, "render"
	if math.Abs(c.Mechanism.Delta) > math.Abs(c.Render.Delta) {
		big, name = c.Mechanism, "mechanism"
	}
	switch {
	case big.Lo > 0:
		return name
	case big.Hi < 0:
		return name + " (negative)"
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
// signed Δ, starred when its interval excludes 0. Cells are equal in size
// whatever the grid's spacing (the ticks name the grid values), so a grid
// refined near 1 stays readable; each marked reader is a ring at its own
// skills, placed between the ticks by linear interpolation.
func (p *Phase) Plot(term string) *plot.Plot {
	n := len(p.Grid)
	idx := make([]float64, n)
	for i := range idx {
		idx[i] = float64(i)
	}
	cells := report.HeatCells{X: idx, Y: idx, Z: make([][]float64, n), Labels: make([][]string, n)}
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
	pl := report.HeatMap(fmt.Sprintf("%s, sim:%s (* = CI excludes 0)", what, p.Base.Name), capLabel(p.XCap), capLabel(p.YCap), cells)
	var ticks plot.ConstantTicks
	for i, v := range p.Grid {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: strconv.FormatFloat(v, 'g', 3, 64)})
	}
	pl.X.Tick.Marker, pl.Y.Tick.Marker = ticks, ticks
	if len(p.Marks) > 0 {
		var xys plotter.XYs
		for _, m := range p.Marks {
			xys = append(xys, plotter.XY{X: gridIndex(p.Grid, m.X), Y: gridIndex(p.Grid, m.Y)})
		}
		if sc, err := plotter.NewScatter(xys); err == nil {
			sc.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{200, 30, 30, 255}, Radius: vg.Points(5), Shape: draw.RingGlyph{}}
			pl.Add(sc)
			pl.Legend.Add(fmt.Sprintf("fitted readers at their own skills (%d)", len(p.Marks)), sc)
			pl.Legend.Top = true
			// A strip above the cells for the legend, so it hides none.
			pl.Y.Max = float64(n) - 0.5 + 0.5
		}
	}
	return pl
}

// gridIndex is v's position in index space of an increasing grid: i where
// v = grid[i], interpolated linearly between neighbours, clamped to the
// ends.
func gridIndex(grid []float64, v float64) float64 {
	if v <= grid[0] {
		return 0
	}
	for i := 1; i < len(grid); i++ {
		if v <= grid[i] {
			return float64(i-1) + (v-grid[i-1])/(grid[i]-grid[i-1])
		}
	}
	return float64(len(grid) - 1)
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

// steepest is the pair of neighbouring grid values of one axis between
// which term changes most, averaged over the other axis, and that change.
func (p *Phase) steepest(term string, alongX bool) (from, to, change float64) {
	n := len(p.Grid)
	for i := 1; i < n; i++ {
		d := 0.0
		for k := 0; k < n; k++ {
			if alongX {
				d += p.Cell(i, k).term(term).Delta - p.Cell(i-1, k).term(term).Delta
			} else {
				d += p.Cell(k, i).term(term).Delta - p.Cell(k, i-1).term(term).Delta
			}
		}
		if d /= float64(n); math.Abs(d) > math.Abs(change) {
			from, to, change = p.Grid[i-1], p.Grid[i], d
		}
	}
	return from, to, change
}

// halfWidth is the mean half-width of term's intervals over the cells:
// how far a term can move by chance within this diagram.
func (p *Phase) halfWidth(term string) float64 {
	w := 0.0
	for _, c := range p.Cells {
		w += (c.term(term).Hi - c.term(term).Lo) / 2
	}
	return w / float64(len(p.Cells))
}

// Summary states, from the computed grid, where each term is largest, how
// each moves along each axis and between which grid values fastest, in how
// many cells each term carries the gain (positive) or costs accuracy
// (negative), where the marked readers sit and what they give, and which
// capability moves each term by more than its intervals' half-width.
// Every number in it is computed.
func (p *Phase) Summary() string {
	var b strings.Builder
	n := len(p.Grid)
	gmin, gmax := p.Grid[0], p.Grid[n-1]
	fmt.Fprintf(&b, "Phase diagram over %s (x) × %s (y), %d×%d grid, base reader sim:%s (its other skills in the table's notes), n = %d reverted-revert snapshot questions per cell:\n",
		p.XCap, p.YCap, n, n, p.Base.Name, p.Questions)
	at := func(c PhaseCell) string { return fmt.Sprintf("%s = %g, %s = %g", p.XCap, c.X, p.YCap, c.Y) }
	type drive struct {
		axis     string
		lo, hi   float64
		delta    float64
		from, to float64
		step     float64
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
		d := drive{axis: p.XCap, lo: xl, hi: xh, delta: xh - xl}
		d.from, d.to, d.step = p.steepest(term, true)
		if math.Abs(yh-yl) > math.Abs(d.delta) {
			d = drive{axis: p.YCap, lo: yl, hi: yh, delta: yh - yl}
			d.from, d.to, d.step = p.steepest(term, false)
		}
		drives[term] = d
		fmt.Fprintf(&b, "- The %s term ranges from %s at %s to %s at %s. Averaged over the other axis it goes from %s at %s = %g to %s at %s = %g, fastest between %s = %g and %g (%s).\n",
			term, report.Signed(wt.Delta), at(worst), report.Signed(bt.Delta), at(best),
			report.Signed(d.lo), d.axis, gmin, report.Signed(d.hi), d.axis, gmax, d.axis, d.from, d.to, report.Signed(d.step))
	}
	counts := map[string][]PhaseCell{}
	for _, c := range p.Cells {
		counts[c.Dominant()] = append(counts[c.Dominant()], c)
	}
	var parts []string
	for _, dom := range []string{"render", "mechanism"} {
		if cs := counts[dom]; len(cs) > 0 {
			parts = append(parts, fmt.Sprintf("the %s term carries the gain (the larger |Δ|, interval above 0) in %d of %d cells", dom, len(cs), len(p.Cells)))
		}
		if cs := counts[dom+" (negative)"]; len(cs) > 0 {
			parts = append(parts, fmt.Sprintf("the %s term is the larger and below 0 (it costs accuracy; it carries no gain) in %d", dom, len(cs)))
		}
	}
	if cs := counts["neither"]; len(cs) > 0 {
		parts = append(parts, fmt.Sprintf("the larger term's interval includes 0 in %d", len(cs)))
	}
	fmt.Fprintf(&b, "- Signs: %s.\n", strings.Join(parts, "; "))
	if len(p.Marks) > 0 {
		b.WriteString("- " + p.marksSentence() + "\n")
	}
	// The reading: which capability moves each term by more than chance.
	var read []string
	for _, term := range []string{"render", "mechanism"} {
		d, hw := drives[term], p.halfWidth(term)
		if math.Abs(d.delta) <= hw {
			read = append(read, fmt.Sprintf("neither capability moves the %s term by more than its intervals' mean half-width (%.3f) on this grid: for this base reader it comes from its other skills", term, hw))
			continue
		}
		end := "low"
		if d.delta > 0 {
			end = "high"
		}
		read = append(read, fmt.Sprintf("%s moves the %s term most (%s → %s), so on this grid it is largest at %s %s", d.axis, term, report.Signed(d.lo), report.Signed(d.hi), end, d.axis))
	}
	fmt.Fprintf(&b, "- Reading: %s.\n", strings.Join(read, "; "))
	return b.String()
}

// marksSentence says where the marked readers sit (the range of their
// skills and the grid values nearest them) and what each gives at its own
// skills; with several, their mean terms, which are the pooled terms of the
// same rows (every reader answers the same questions).
func (p *Phase) marksSentence() string {
	var xs, ys []float64
	var each []string
	var mr, mm float64
	carries := 0
	for _, m := range p.Marks {
		xs, ys = append(xs, m.X), append(ys, m.Y)
		each = append(each, fmt.Sprintf("%s render %s, mechanism %s", m.Name, report.Signed(m.Cell.Render.Delta), report.Signed(m.Cell.Mechanism.Delta)))
		mr += m.Cell.Render.Delta / float64(len(p.Marks))
		mm += m.Cell.Mechanism.Delta / float64(len(p.Marks))
		if m.Cell.Dominant() == "render" {
			carries++
		}
	}
	nearest := func(v float64) float64 {
		best := p.Grid[0]
		for _, g := range p.Grid {
			if math.Abs(g-v) < math.Abs(best-v) {
				best = g
			}
		}
		return best
	}
	var s string
	switch {
	case len(p.Marks) == 1:
		s = fmt.Sprintf("The ring is %s at its own skills, %s %.3f and %s %.3f, nearest the cell %s = %g, %s = %g. ",
			readerWords(reader.Family{Kind: reader.KindSim, Name: p.Marks[0].Name}), p.XCap, xs[0], p.YCap, ys[0], p.XCap, nearest(xs[0]), p.YCap, nearest(ys[0]))
	case nearest(maxOf(xs)) != nearest(minOf(xs)) || nearest(maxOf(ys)) != nearest(minOf(ys)):
		// "= 1" where the rings' range rounds to one cell on an axis, "= 0.2–0.3" where it spans two.
		cells := func(lo, hi float64) string {
			if lo == hi {
				return fmt.Sprintf("%g", lo)
			}
			return fmt.Sprintf("%g–%g", lo, hi)
		}
		s = fmt.Sprintf("The %d rings (simulated readers, each a model of one LLM of the study) sit at %s %.3f–%.3f and %s %.3f–%.3f, nearest the cells %s = %s, %s = %s. ",
			len(p.Marks), p.XCap, minOf(xs), maxOf(xs), p.YCap, minOf(ys), maxOf(ys), p.XCap, cells(nearest(minOf(xs)), nearest(maxOf(xs))), p.YCap, cells(nearest(minOf(ys)), nearest(maxOf(ys))))
	default:
		s = fmt.Sprintf("The %d rings (simulated readers, each a model of one LLM of the study) sit at %s %.3f–%.3f and %s %.3f–%.3f, all nearest the cell %s = %g, %s = %g. ",
			len(p.Marks), p.XCap, minOf(xs), maxOf(xs), p.YCap, minOf(ys), maxOf(ys), p.XCap, nearest(minOf(xs)), p.YCap, nearest(minOf(ys)))
	}
	if len(p.Marks) == 1 {
		s += "There (every other skill its own too) it gives " + strings.TrimPrefix(each[0], p.Marks[0].Name+" ") + "."
	} else {
		var rs, ms []float64
		for _, m := range p.Marks {
			rs, ms = append(rs, m.Cell.Render.Delta), append(ms, m.Cell.Mechanism.Delta)
		}
		s += fmt.Sprintf("At its own skills (every other skill its own too) each gives render %s to %s and mechanism %s to %s (each one's in the diagram's table, Phase.Table). ",
			report.Signed(minOf(rs)), report.Signed(maxOf(rs)), report.Signed(minOf(ms)), report.Signed(maxOf(ms)))
		s += fmt.Sprintf("Their mean, render %s and mechanism %s, is the pooled Table 2 of the same readers on these questions; the render term carries the gain for %d of %d.", report.Signed(mr), report.Signed(mm), carries, len(p.Marks))
	}
	// The diagram's own reader at the marks' skills: where it differs from
	// the marks by more than chance, their other skills make the difference.
	xi, yi := nearestIndex(p.Grid, (minOf(xs)+maxOf(xs))/2), nearestIndex(p.Grid, (minOf(ys)+maxOf(ys))/2)
	c := p.Cell(xi, yi)
	s += fmt.Sprintf(" The diagram's base reader at %s = %g, %s = %g gives render %s, mechanism %s", p.XCap, p.Grid[xi], p.YCap, p.Grid[yi], report.Signed(c.Render.Delta), report.Signed(c.Mechanism.Delta))
	if math.Abs(c.Render.Delta-mr) > p.halfWidth("render") || math.Abs(c.Mechanism.Delta-mm) > p.halfWidth("mechanism") {
		return s + ": with the same date and status skills, the marked readers' other skills (the table's notes list the base's) make the difference."
	}
	return s + ", within the intervals' mean half-width of the marked readers' mean."
}

// nearestIndex is the index of the grid value nearest v.
func nearestIndex(grid []float64, v float64) int {
	best := 0
	for i, g := range grid {
		if math.Abs(g-v) < math.Abs(grid[best]-v) {
			best = i
		}
	}
	return best
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
