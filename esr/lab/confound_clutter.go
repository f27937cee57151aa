package lab

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"
)

// clutterAll is the Bin of a ClutterCell over every stream length.
const clutterAll = "all"

// ClutterCell is the render term and the fine-d mechanism on one slice of
// one benchmark's questions (every stream length, or one of Table 12's
// stream-length bins), beside the slice's clutter: the mean length in
// tokens of the d-blind control's render (graphrag-abstain), the text a
// reader must search.
type ClutterCell struct {
	Bench string
	Bin   string // clutterAll or an eval.LengthBin label
	// Tokens is the mean ContextTokens of the slice's graphrag-abstain rows.
	Tokens            float64
	Render, Mechanism eval.Comparison
}

// ClutterTerms is the render term (render-only − graphrag-abstain) and the
// fine-d mechanism (fine-ledger − render-only), pooled over reader
// families, on the rows of bench kept by f: first over every stream
// length (Bin clutterAll), then per stream-length bin that has rows.
// lengths maps a QID to its stream's event count (bench.StreamLengths).
func ClutterTerms(bench string, rows []eval.Outcome, lengths map[string]int, f eval.Filter, opt eval.StatOptions) ([]ClutterCell, error) {
	slice := func(bin string, g eval.Filter) (ClutterCell, bool, error) {
		c := ClutterCell{Bench: bench, Bin: bin}
		sum, n := 0, 0
		for i := range rows {
			o := &rows[i]
			if o.Memory == eval.TermRender.B && g(o) {
				sum += o.ContextTokens
				n++
			}
		}
		if n == 0 {
			return c, false, nil
		}
		c.Tokens = float64(sum) / float64(n)
		cs, err := eval.CompareTerms(rows, []eval.Term{eval.TermRender, eval.TermFineMechanism}, g, opt)
		if err != nil {
			return c, false, fmt.Errorf("%s, %s: %w", bench, bin, err)
		}
		c.Render, c.Mechanism = cs[0], cs[1]
		return c, true, nil
	}
	var out []ClutterCell
	c, ok, err := slice(clutterAll, f)
	if err != nil || !ok {
		return nil, err
	}
	out = append(out, c)
	for _, bin := range eval.LengthBinLabels() {
		g := eval.And(f, func(o *eval.Outcome) bool { return eval.LengthBin(lengths[o.QID]) == bin })
		c, ok, err := slice(bin, g)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// ClutterTable sets the cells of several benchmarks side by side, with
// the paper's Table 2 terms (ESR-Bench-GitHub) in the last column of the
// rows over every length.
func ClutterTable(scope string, cells ...[]ClutterCell) *eval.Table {
	t := &eval.Table{ID: "clutter-render-term", Title: "Does the render term grow with clutter? " + scope + ", pooled",
		Columns: []string{"benchmark", "stream length (events)", "d-blind render (tokens)", "n", "render Δ", "95% CI", "fine-d mechanism Δ", "95% CI", "paper render / fine-d (GitHub)"}}
	var all []eval.Comparison
	for _, cs := range cells {
		for _, c := range cs {
			p := "—"
			if c.Bin == clutterAll {
				p = paper.Cell(paper.T2Render, false).Text + " / " + paper.Cell(paper.T2FineMechanism, false).Text
			}
			t.AddRow(c.Bench, c.Bin, eval.NumberCell("%.0f", c.Tokens), c.Render.N, eval.SignedCell(c.Render.Delta), c.Render.CI(),
				eval.SignedCell(c.Mechanism.Delta), c.Mechanism.CI(), p)
			all = append(all, c.Render, c.Mechanism)
		}
	}
	t.Notes = []string{"clutter: the mean length of graphrag-abstain's render, in CountTokens tokens; render = render-only − graphrag-abstain, fine-d mechanism = fine-ledger − render-only, each pair one question and one reader family",
		eval.IntervalNoteFor(all)}
	return t
}

// clutterDifference is a − b for two independent benchmarks' terms, with
// a normal-approximation interval: each interval's half-width over z is
// its standard error, and the two add in quadrature (the benchmarks share
// no question). ok is false when either term has too few questions.
func clutterDifference(a, b eval.Comparison) (d, lo, hi float64, ok bool) {
	if a.TooFew || b.TooFew || a.N == 0 || b.N == 0 {
		return 0, 0, 0, false
	}
	level := a.Level
	if level <= 0 || level >= 1 {
		level = 0.95
	}
	z := zOf(level)
	se := math.Hypot((a.Hi-a.Lo)/(2*z), (b.Hi-b.Lo)/(2*z))
	d = a.Delta - b.Delta
	return d, d - z*se, d + z*se, true
}

// ClutterSentences reads the cells: between benchmarks (each other
// benchmark against the first, over every length), and within each
// benchmark (its longest bin against its shortest). Each states the two
// terms with their intervals, the mean render lengths, and the difference
// with its interval, and calls the render term larger or smaller only
// when that interval excludes 0.
func ClutterSentences(cells ...[]ClutterCell) []string {
	var out []string
	allOf := func(cs []ClutterCell) (ClutterCell, bool) {
		for _, c := range cs {
			if c.Bin == clutterAll {
				return c, true
			}
		}
		return ClutterCell{}, false
	}
	if len(cells) > 1 {
		base, ok := allOf(cells[0])
		for _, cs := range cells[1:] {
			c, ok2 := allOf(cs)
			if ok && ok2 {
				out = append(out, clutterCompare("render term", c.Bench, base.Bench, c, base, c.Render, base.Render))
			}
		}
	}
	for _, cs := range cells {
		var bins []ClutterCell
		for _, c := range cs {
			if c.Bin != clutterAll && !c.Render.TooFew {
				bins = append(bins, c)
			}
		}
		if len(bins) < 2 {
			continue
		}
		short, long := bins[0], bins[len(bins)-1]
		out = append(out, clutterCompare("render term", fmt.Sprintf("%s's %s-event streams", long.Bench, long.Bin),
			fmt.Sprintf("its %s-event streams", short.Bin), long, short, long.Render, short.Render))
	}
	return out
}

// clutterCompare words the difference of one term between two cells.
func clutterCompare(term, aName, bName string, a, b ClutterCell, ca, cb eval.Comparison) string {
	s := fmt.Sprintf("The %s on %s (d-blind render %.0f tokens) is %s %s; on %s (%.0f tokens) %s %s",
		term, aName, a.Tokens, fmtSigned(ca.Delta), ca.CI(), bName, b.Tokens, fmtSigned(cb.Delta), cb.CI())
	d, lo, hi, ok := clutterDifference(ca, cb)
	if !ok {
		return s + ": too few questions to compare."
	}
	s += fmt.Sprintf(": a difference of %s %s", fmtSigned(d), report.Interval(lo, hi))
	switch {
	case lo > 0:
		return s + ", so it is larger where the render is " + longerOrShorter(a.Tokens, b.Tokens) + "."
	case hi < 0:
		return s + ", so it is smaller where the render is " + longerOrShorter(a.Tokens, b.Tokens) + "."
	}
	return s + ", which does not rule out 0: no difference shown."
}

func longerOrShorter(a, b float64) string {
	if a >= b {
		return "longer"
	}
	return "shorter"
}

// zOf is the two-sided normal quantile for confidence level.
func zOf(level float64) float64 {
	return distuv.UnitNormal.Quantile((1 + level) / 2)
}

// FamilyClutter is one reader family's render term on two benchmarks (A,
// then B, over every stream length) and their difference B − A.
type FamilyClutter struct {
	Family   reader.Family
	A, B     eval.Comparison
	D        float64
	Lo, Hi   float64
	Compared bool // false when either term has too few questions
}

// ClutterByFamily is the render term of each reader family in both rows
// (pooled first, then the families in name order) on the questions f
// keeps, with the difference between the benchmarks (clutterDifference).
// A pooled term is a mix of the families: they can move in opposite
// directions and cancel.
func ClutterByFamily(rowsA, rowsB []eval.Outcome, f eval.Filter, opt eval.StatOptions) ([]FamilyClutter, error) {
	fams := map[reader.Family]bool{}
	for i := range rowsA {
		if f(&rowsA[i]) {
			fams[rowsA[i].Family] = true
		}
	}
	names := []reader.Family{reader.Pooled}
	for _, n := range slices.SortedFunc(maps.Keys(fams), reader.Family.Compare) {
		names = append(names, n)
	}
	var out []FamilyClutter
	for _, fam := range names {
		g := f
		if fam != reader.Pooled {
			g = eval.And(f, eval.Family(fam))
		}
		a, err := eval.CompareTerms(rowsA, []eval.Term{eval.TermRender}, g, opt)
		if err != nil {
			return nil, err
		}
		b, err := eval.CompareTerms(rowsB, []eval.Term{eval.TermRender}, g, opt)
		if err != nil {
			return nil, err
		}
		fc := FamilyClutter{Family: fam, A: a[0], B: b[0]}
		fc.D, fc.Lo, fc.Hi, fc.Compared = clutterDifference(b[0], a[0])
		out = append(out, fc)
	}
	return out, nil
}

// clutterReading words a difference B − A of the render term.
func clutterReading(fc FamilyClutter, nameB string) string {
	switch {
	case !fc.Compared:
		return "too few questions"
	case fc.Lo > 0:
		return "larger on " + nameB
	case fc.Hi < 0:
		return "smaller on " + nameB
	}
	return "no difference shown"
}

// ClutterFamilyTable is ClutterByFamily's result as a table.
func ClutterFamilyTable(fcs []FamilyClutter, nameA, nameB, scope string) *eval.Table {
	t := &eval.Table{ID: "clutter-by-family", Title: "Is the render term larger on " + nameB + " than on " + nameA + " for every reader? " + scope,
		Columns: []string{"family", nameA + " render Δ", "95% CI", nameB + " render Δ", "95% CI", nameB + " − " + nameA, "95% CI (normal approx.)", "reading"}}
	var all []eval.Comparison
	for _, fc := range fcs {
		d, ci := eval.TextCell("—"), "—"
		if fc.Compared {
			d, ci = eval.SignedCell(fc.D), report.Interval(fc.Lo, fc.Hi)
		}
		t.AddRow(fc.Family.String(), eval.SignedCell(fc.A.Delta), fc.A.CI(), eval.SignedCell(fc.B.Delta), fc.B.CI(), d, ci, clutterReading(fc, nameB))
		all = append(all, fc.A, fc.B)
	}
	t.Notes = []string{"render = render-only − graphrag-abstain; the difference's interval: each bootstrap interval's half-width over z is its standard error, added in quadrature (the benchmarks share no question)",
		eval.IntervalNoteFor(all)}
	return t
}

// ClutterFamilySentence says which families' render terms are larger,
// smaller or not shown to differ on B, and what that does to the pooled
// term.
func ClutterFamilySentence(fcs []FamilyClutter, nameA, nameB string) string {
	groups := map[string][]string{}
	var pooled *FamilyClutter
	for i, fc := range fcs {
		if fc.Family == reader.Pooled {
			pooled = &fcs[i]
			continue
		}
		r := clutterReading(fc, nameB)
		groups[r] = append(groups[r], fmt.Sprintf("%s (%s %s)", fc.Family, fmtSigned(fc.D), report.Interval(fc.Lo, fc.Hi)))
	}
	var parts []string
	for _, r := range []string{"larger on " + nameB, "smaller on " + nameB, "no difference shown", "too few questions"} {
		if len(groups[r]) > 0 {
			parts = append(parts, r+": "+strings.Join(groups[r], ", "))
		}
	}
	s := "Render term, " + nameB + " − " + nameA + " by family: " + strings.Join(parts, "; ") + "."
	if pooled != nil && pooled.Compared {
		s += fmt.Sprintf(" Pooled over the families the difference is %s %s (%s)", fmtSigned(pooled.D), report.Interval(pooled.Lo, pooled.Hi), clutterReading(*pooled, nameB))
		if len(groups["larger on "+nameB]) > 0 && len(groups["smaller on "+nameB]) > 0 {
			s += ": families that move in opposite directions offset each other in the pooled term"
		}
		s += "."
	}
	return s
}
