package lab

import (
	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/report"
)

// decompositionPlot draws the decomposition terms with intervals, one colour
// per family. With a paper table (paper.T2), each term's published value (the
// table's cell under the term's Key) is drawn as an open ring beside ours.
func decompositionPlot(cs []eval.Comparison, title string, paperTables ...paper.Table) *plot.Plot {
	var pts []report.IntervalPoint
	for _, c := range cs {
		pts = append(pts, report.IntervalPoint{Label: termPlotLabel(c), Est: c.Delta, Lo: c.Lo, Hi: c.Hi, Series: c.Family.String()})
	}
	for _, table := range paperTables {
		seen := map[eval.Term]bool{} // by pair
		for _, c := range cs {
			if c.Key == "" {
				continue
			}
			pair := eval.Term{A: c.A, B: c.B}
			if v, ok := paper.Lookup(table.Key(c.Key)); ok && !seen[pair] {
				seen[pair] = true
				pts = append(pts, report.IntervalPoint{Label: termPlotLabel(c), Est: v, Lo: v, Hi: v, Series: report.PaperSeries})
			}
		}
	}
	return report.IntervalPlot(title, "paired Δ accuracy", pts, true)
}

// termPlotLabels are the x-axis labels of the decomposition terms, short
// enough to sit side by side (the tables keep the full labels), by term.
var termPlotLabels = []struct {
	term  eval.Term
	label string
}{
	{eval.TermFineMechanism, "fine-d\nmechanism"},
	{eval.TermCoarsePaper, "coarse-d mech.\n(paper's)"},
	{eval.TermCoarseMatched, "coarse-d mech.\n(matched)"},
	{eval.TermCoarseLayout, "coarse\nlayout"},
}

// termPlotLabel is c's x-axis label: its term's short label, else its own.
func termPlotLabel(c eval.Comparison) string {
	for _, l := range termPlotLabels {
		if c.Term == l.term {
			return l.label
		}
	}
	return c.Label
}
