package lab

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/report"
)

// This file writes the sentences notebooks show about results: every sign,
// size and significance in them is computed from the comparisons passed in,
// never typed.

// splitVerdict says which of a family's render (r) and fine-d mechanism (m)
// terms carries its gain: the larger by |Δ|, with its sign, or why neither
// can be said.
func splitVerdict(r, m eval.Comparison) string {
	big, name := r, "render"
	if math.Abs(m.Delta) > math.Abs(r.Delta) {
		big, name = m, "mechanism"
	}
	switch {
	case r.TooFew || m.TooFew:
		return eval.FirstTooFew(r, m) + " to say which term carries the gain"
	case !r.Significant() && !m.Significant():
		return "neither term is distinguishable from 0"
	case !big.Significant():
		return "the larger term (" + name + ") is not distinguishable from 0"
	case big.Delta > 0:
		return "the " + name + " term is the larger and positive"
	}
	return "the " + name + " term is the larger and negative: it costs this reader accuracy"
}

// DecompositionSummary reads a render-matched decomposition (renderMatchedTerms's
// output): the pooled render and fine-d mechanism terms, which is larger,
// and, per family, which term carries that family's gain (each family
// named as the reader it is, readerWords; in one line when every family
// has the same verdict). It is the closing sentence of
// notebook 41, computed. When the families are the calibrated panel on the
// bench it was fitted on (benchName), it says first that the pooled split
// was the fit's target, with the paper's values it was fitted to.
func DecompositionSummary(cs []eval.Comparison, benchName string) string {
	var b strings.Builder
	fams := comparisonFamilies(cs)
	if fittedPanel(fams, benchName) {
		fmt.Fprintf(&b, "These readers were fitted to the paper's pooled Table 2 split (render %s, fine-d mechanism %s, coarse-d mechanism %s) on %s, "+
			"so which term carries the gain below is the fit's target met or missed, not a finding about the LLMs.\n\n",
			fmtSigned(paper.Number(paper.T2Render)), fmtSigned(paper.Number(paper.T2FineMechanism)), fmtSigned(paper.Number(paper.T2CoarseMechanism)), benchName)
	}
	// Pooled first, in full; then every family in one line when they share
	// the pooled verdict's larger term and sign, each with its two terms.
	type famTerms struct {
		fam     reader.Family
		r, m    eval.Comparison
		verdict string
	}
	var rows []famTerms
	for _, fam := range fams {
		r, ok1 := eval.FindTerm(cs, eval.TermRender, fam)
		m, ok2 := eval.FindTerm(cs, eval.TermFineMechanism, fam)
		if !ok1 || !ok2 {
			continue
		}
		rows = append(rows, famTerms{fam, r, m, splitVerdict(r, m)})
	}
	var perFam []famTerms
	for _, x := range rows {
		if x.fam == reader.Pooled {
			share := x.verdict
			if strings.HasSuffix(share, "larger and positive") {
				what := "the layout"
				if strings.Contains(share, "mechanism") {
					what = "the status column"
				}
				share += ": " + what + " carries most of the gain"
			}
			fmt.Fprintf(&b, "- **pooled over the families**: render %s %s, fine-d mechanism %s %s; %s.\n",
				fmtSigned(x.r.Delta), x.r.CI(), fmtSigned(x.m.Delta), x.m.CI(), share)
			continue
		}
		perFam = append(perFam, x)
	}
	same := len(perFam) > 1
	for _, x := range perFam {
		same = same && x.verdict == perFam[0].verdict
	}
	if same {
		var parts []string
		for _, x := range perFam {
			parts = append(parts, fmt.Sprintf("%s render %s, fine-d %s", strings.TrimPrefix(readerWords(x.fam), "the simulated reader "), fmtSigned(x.r.Delta), fmtSigned(x.m.Delta)))
		}
		fmt.Fprintf(&b, "- **each of the %d readers**: %s; in every one %s.\n", len(perFam), strings.Join(parts, "; "), perFam[0].verdict)
		return b.String()
	}
	for _, x := range perFam {
		fmt.Fprintf(&b, "- **%s**: render %s %s, fine-d mechanism %s %s; %s.\n", readerWords(x.fam),
			fmtSigned(x.r.Delta), x.r.CI(), fmtSigned(x.m.Delta), x.m.CI(), x.verdict)
	}
	return b.String()
}

// explainGap says, for every pooled term of cs with a paper value in table
// (under the term's Key), how ours compares with the paper's (size and
// interval overlap, paper.Agreement) and which families
// make the pooled number: a pooled term is the mean of the families' terms
// (equal rows per family), so the families whose terms are furthest from 0
// carry its sign. Every number comes from cs and the registry.
func explainGap(cs []eval.Comparison, table paper.Table) string {
	var b strings.Builder
	for _, c := range cs {
		if c.Family != reader.Pooled {
			continue
		}
		k := table.Key(c.Key)
		p, ok := paper.Lookup(k)
		if !ok || c.Key == "" {
			continue
		}
		var fams []eval.Comparison
		for _, f := range cs {
			if f.Of(c.Term) && f.Family != reader.Pooled {
				fams = append(fams, f)
			}
		}
		sort.SliceStable(fams, func(i, j int) bool { return math.Abs(fams[i].Delta) > math.Abs(fams[j].Delta) })
		var parts []string
		for _, f := range fams {
			parts = append(parts, fmt.Sprintf("%s %s", f.Family, fmtSigned(f.Delta)))
		}
		against := "the paper's " + fmtSigned(p)
		if c.TooFew {
			against += ": ours has " + c.TooFewReason() + " to compare"
		} else {
			lo, hi, hasCI := paper.Interval(k)
			against += ": " + paper.Agree(c.Delta, c.Lo, c.Hi, p, lo, hi, hasCI).Words()
		}
		fmt.Fprintf(&b, "- **%s**: ours %s %s against %s. It is the mean of the families' terms: %s.\n",
			c.Label, fmtSigned(c.Delta), c.CI(), against, strings.Join(parts, ", "))
	}
	return b.String()
}

// whoIsRight says which families make a memory's accuracy on the rows kept
// by f: the pooled accuracy and each family's, highest first.
func whoIsRight(rows []eval.Outcome, m memory.Spec, f eval.Filter) string {
	pooled := eval.AccuracyBy(rows, []memory.Spec{m}, nil, f, eval.DefaultStats.Level)
	if len(pooled) == 0 {
		return ""
	}
	fams := eval.AccuracyBy(rows, []memory.Spec{m}, func(o *eval.Outcome) string { return o.Family.String() }, f, eval.DefaultStats.Level)
	sort.SliceStable(fams, func(i, j int) bool { return fams[i].Acc > fams[j].Acc })
	var parts []string
	for _, a := range fams {
		parts = append(parts, fmt.Sprintf("%s %s", a.Group, eval.PropCell(a.Acc)))
	}
	return fmt.Sprintf("%s's pooled accuracy %s is the mean of its families': %s.", m, eval.PropCell(pooled[0].Acc), strings.Join(parts, ", "))
}

// CoarseSplit (§4.1) reads the coarse-d mechanism of a decomposition two ways
// (renderMatchedTerms's pooled rows, or the single family's): the paper's term
// (coarse-retain − the ledger's control) is the matched mechanism
// (coarse-retain − its own control) plus the layout term between the two
// controls, pair by pair; the sentence says which part carries it and
// whether each interval excludes 0, all computed from cs. It returns "" when
// cs lacks the three coarse terms.
func CoarseSplit(cs []eval.Comparison) string {
	fam := reader.Pooled
	if _, ok := eval.FindTerm(cs, eval.TermCoarsePaper, reader.Pooled); !ok && len(cs) > 0 {
		fam = cs[0].Family
	}
	paperC, ok1 := eval.FindTerm(cs, eval.TermCoarsePaper, fam)
	matched, ok2 := eval.FindTerm(cs, eval.TermCoarseMatched, fam)
	layout, ok3 := eval.FindTerm(cs, eval.TermCoarseLayout, fam)
	if !ok1 || !ok2 || !ok3 {
		return ""
	}
	s := fmt.Sprintf("The paper's coarse-d mechanism term (coarse-retain − render-only, the ledger's control) is %s %s (n = %d): "+
		"coarse-retain against its own control (the same facts, ids and order, mechanism off) gives %s %s, "+
		"and coarse-retain's control against the ledger's control (layout alone) gives %s %s. ",
		report.Signed(paperC.Delta), paperC.CI(), paperC.N,
		report.Signed(matched.Delta), matched.CI(), report.Signed(layout.Delta), layout.CI())
	if paperC.N == matched.N && paperC.N == layout.N && math.Abs(paperC.Delta-matched.Delta-layout.Delta) < 1e-9 {
		s += "The two parts add up to the paper's term. "
	} else {
		s += "The three terms are not over the same pairs, so they need not add up. "
	}
	big, name, other, oname := matched, "the matched mechanism", layout, "the layout"
	if math.Abs(layout.Delta) > math.Abs(matched.Delta) {
		big, name, other, oname = layout, "the layout", matched, "the matched mechanism"
	}
	switch {
	case big.TooFew || other.TooFew:
		s += "There are " + eval.FirstTooFew(big, other) + " to say which part carries it."
	case !big.Significant() && !other.Significant():
		s += "Neither part is distinguishable from 0."
	case !other.Significant():
		s += fmt.Sprintf("%s carries it (%s, interval excludes 0); %s is not distinguishable from 0.", capitalize(name), report.Signed(big.Delta), oname)
	case !big.Significant():
		s += fmt.Sprintf("%s is the larger part in size but not distinguishable from 0; %s (%s) is.", capitalize(name), oname, report.Signed(other.Delta))
	case (big.Delta > 0) != (other.Delta > 0):
		s += fmt.Sprintf("The parts pull in opposite directions: %s %s, %s %s, both intervals excluding 0.", name, report.Signed(big.Delta), oname, report.Signed(other.Delta))
	default:
		s += fmt.Sprintf("Both parts are distinguishable from 0; %s is the larger (%s against %s).", name, report.Signed(big.Delta), report.Signed(other.Delta))
	}
	return s
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
