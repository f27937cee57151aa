package experiment

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/report"
)

// IntervalTable shows each term's pair interval (the paper's convention)
// beside its question-clustered interval, with the width ratio: how much
// the correlation of families answering the same question widens it.
func IntervalTable(rows []eval.Outcome, terms []Term, f Filter, opt StatOptions) (*report.Table, error) {
	pair, cluster := opt, opt
	pair.Interval, cluster.Interval = IntervalPair, IntervalCluster
	t := &report.Table{Name: "intervals-pair-vs-cluster", Title: "Pair vs question-clustered bootstrap intervals",
		Columns: []string{"term", "n pairs", "questions", "Δ", "pair CI", "cluster CI", "width ratio"}}
	for _, term := range terms {
		p, err := Compare(rows, term.Label, term.A, term.B, f, pair)
		if err != nil {
			return nil, err
		}
		c, err := Compare(rows, term.Label, term.A, term.B, f, cluster)
		if err != nil {
			return nil, err
		}
		ratio := "—"
		if w := p.Hi - p.Lo; w > 0 {
			ratio = fmt.Sprintf("%.2f", (c.Hi-c.Lo)/w)
		}
		t.AddRow(term.Label, c.N, c.Clusters, fmtSigned(c.Delta), fmtCI(p.Lo, p.Hi), fmtCI(c.Lo, c.Hi), ratio)
	}
	t.Notes = []string{pair.withDefaults().IntervalNote(), cluster.withDefaults().IntervalNote()}
	return t, nil
}

// IntervalWidthSentence says, from the computed intervals, how much wider
// the clustered intervals are than the pair intervals, and why.
func IntervalWidthSentence(rows []eval.Outcome, terms []Term, f Filter, opt StatOptions) (string, error) {
	pair, cluster := opt, opt
	pair.Interval, cluster.Interval = IntervalPair, IntervalCluster
	lo, hi := 0.0, 0.0
	n := 0
	perQ := 0.0
	for _, term := range terms {
		p, err := Compare(rows, term.Label, term.A, term.B, f, pair)
		if err != nil {
			return "", err
		}
		c, err := Compare(rows, term.Label, term.A, term.B, f, cluster)
		if err != nil {
			return "", err
		}
		if p.Hi-p.Lo <= 0 {
			continue
		}
		r := (c.Hi - c.Lo) / (p.Hi - p.Lo)
		if n == 0 || r < lo {
			lo = r
		}
		if n == 0 || r > hi {
			hi = r
		}
		n++
		perQ = float64(c.N) / float64(c.Clusters)
	}
	if n == 0 {
		return "Every pair interval has zero width here, so there is no ratio to report.", nil
	}
	return fmt.Sprintf("The clustered intervals are %.2f–%.2f× as wide as the pair intervals. Each question contributes %.1f rows on average "+
		"(one per family), and those rows move together: a question that is hard for one family tends to be hard for the others, "+
		"so the pair bootstrap, which treats them as independent, understates the uncertainty.", lo, hi, perQ), nil
}
