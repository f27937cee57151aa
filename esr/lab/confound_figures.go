package lab

import (
	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/report"
)

// DecompositionPlot draws the decomposition terms with intervals, one colour
// per family. With a paper table (paper.T2), each term's published value (the
// table's cell under the term's Key) is drawn as an open ring beside ours.
func DecompositionPlot(cs []eval.Comparison, title string, paperTables ...paper.Table) *plot.Plot {
	var pts []report.IntervalPoint
	for _, c := range cs {
		pts = append(pts, report.IntervalPoint{Label: termPlotLabel(c), Est: c.Delta, Lo: c.Lo, Hi: c.Hi, Series: c.Family})
	}
	for _, table := range paperTables {
		seen := map[eval.Term]bool{}
		for _, c := range cs {
			if c.Key == "" {
				continue
			}
			if v, ok := paper.Lookup(table.Key(c.Key)); ok && !seen[c.Term()] {
				seen[c.Term()] = true
				pts = append(pts, report.IntervalPoint{Label: termPlotLabel(c), Est: v, Lo: v, Hi: v, Series: report.PaperSeries})
			}
		}
	}
	return report.IntervalPlot(title, "paired Δ accuracy", pts, true)
}

// termPlotLabels are the x-axis labels of the decomposition terms, short
// enough to sit side by side (the tables keep the full labels), by term.
var termPlotLabels = map[eval.Term]string{
	eval.TermFineMechanism: "fine-d\nmechanism",
	eval.TermCoarsePaper:   "coarse-d mech.\n(paper's)",
	eval.TermCoarseMatched: "coarse-d mech.\n(matched)",
	eval.TermCoarseLayout:  "coarse\nlayout",
}

func termPlotLabel(c eval.Comparison) string {
	if l, ok := termPlotLabels[c.Term()]; ok {
		return l
	}
	return c.Label
}
