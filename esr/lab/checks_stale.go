package lab

import (
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"

	"fmt"
	"slices"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/stats"
)

// Metric is what a paired comparison counts on each row.
type Metric string

// Metrics of OnMetric.
const (
	// metricAccuracy: the judge accepted the answer (the row's Correct).
	metricAccuracy Metric = "accuracy"
	// MetricStale: the answer is labelled outdated (judge.LabelOutdated):
	// it names a value the key held before and not the gold.
	MetricStale Metric = "stale"
)

// OnMetric returns a copy of rows whose Correct field holds metric m, so
// that every paired comparison (Compare, CompareTerms, renderMatchedTerms, the
// tables) reads m instead of accuracy. With MetricStale a comparison's
// AccA and AccB are stale-answer rates and its Δ their difference
// (negative: A answers fewer outdated values). Rows without a label
// (written before labels existed; LabelRows fills them) are an error.
func OnMetric(rows []eval.Outcome, m Metric) ([]eval.Outcome, error) {
	switch m {
	case metricAccuracy:
		return rows, nil
	case MetricStale:
	default:
		return nil, fmt.Errorf("metric %q is not %q or %q", m, metricAccuracy, MetricStale)
	}
	out := make([]eval.Outcome, len(rows))
	for i, o := range rows {
		if o.Label == "" {
			return nil, fmt.Errorf("row %d (qid %s, memory %s): no label; fill labels with LabelRows or rescore with Rejudge", i+1, o.QID, o.Memory)
		}
		o.Correct = o.Label == judge.LabelOutdated
		out[i] = o
	}
	return out, nil
}

// CompareTermsOn is CompareTerms on metric m (OnMetric).
func CompareTermsOn(m Metric, rows []eval.Outcome, terms []eval.Term, f eval.Filter, opt eval.StatOptions) ([]eval.Comparison, error) {
	on, err := OnMetric(rows, m)
	if err != nil {
		return nil, err
	}
	return eval.CompareTerms(on, terms, f, opt)
}

// StaleRate is one memory's answers by label, pooled over families: N rows,
// how many are correct, outdated, abstained and wrong, and the stale rate
// Outdated/N with its Wilson interval.
type StaleRate struct {
	Memory                                 string
	N, Correct, Outdated, Abstained, Wrong int
	Rate, Lo, Hi                           float64
}

// StaleRates counts the labels of the rows f keeps, per memory: the
// render-confound memories first, then the others in first-seen order.
// Rows without a label are an error.
func StaleRates(rows []eval.Outcome, f eval.Filter) ([]StaleRate, error) {
	sel := eval.Select(rows, f)
	mems := eval.Distinct(sel, func(o *eval.Outcome) string { return o.Memory.String() })
	var order []string
	for _, m := range paper.RenderConfoundMemories {
		if slices.Contains(mems, m.String()) {
			order = append(order, m.String())
		}
	}
	for _, m := range mems {
		if !slices.Contains(order, m) {
			order = append(order, m)
		}
	}
	by := map[string]*StaleRate{}
	for _, m := range order {
		by[m] = &StaleRate{Memory: m}
	}
	for i, o := range sel {
		r := by[o.Memory.String()]
		r.N++
		switch judge.Label(o.Label) {
		case judge.LabelCorrect:
			r.Correct++
		case judge.LabelOutdated:
			r.Outdated++
		case judge.LabelAbstained:
			r.Abstained++
		case judge.LabelWrong:
			r.Wrong++
		default:
			return nil, fmt.Errorf("row %d (qid %s, memory %s): label %q is not one of %v", i+1, o.QID, o.Memory, o.Label, judge.Labels)
		}
	}
	out := make([]StaleRate, 0, len(order))
	for _, m := range order {
		r := *by[m]
		r.Rate = float64(r.Outdated) / float64(r.N)
		r.Lo, r.Hi = stats.WilsonInterval(r.Outdated, r.N, 0.95)
		out = append(out, r)
	}
	return out, nil
}

// StaleRateTable lays StaleRates out: per memory the rows, the share
// correct (accuracy), outdated (the stale-answer rate, with its 95% Wilson
// interval), abstained and wrong. scope names the rows.
func StaleRateTable(rs []StaleRate, scope string, rows []eval.Outcome) *eval.Table {
	t := &eval.Table{ID: "stale-answer-rate", Title: "Stale-answer rate per memory, " + scope + " (pooled over families)",
		Columns: []string{"memory", "rows", "correct", "outdated (stale rate)", "95% Wilson CI", "abstained", "wrong"}}
	for _, r := range rs {
		share := func(k int) eval.Cell { return eval.PropCell(float64(k) / float64(r.N)) }
		t.AddRow(r.Memory, r.N, share(r.Correct), share(r.Outdated), report.PropInterval(r.Lo, r.Hi), share(r.Abstained), share(r.Wrong))
	}
	t.Notes = []string{"labels (judge.Classify): outdated = rejected, names a value the key held before (judge.PriorValues) and neither the gold nor an alias; wrong = any other rejected value (including \"was A, now B\" under a judge that rejects it); the columns sum to 1",
		"intervals treat rows as independent (several families answer each question, so they are too narrow when families are pooled); the paired comparisons below resample questions",
		eval.FamilyNote(rows)}
	return t
}

// StaleDecompositionTable is Table 2 read on the stale-answer rate: each
// term's paired difference in stale rates (pooled rows only; negative: the
// first memory answers fewer outdated values).
func StaleDecompositionTable(cs []eval.Comparison, scope string, rows []eval.Outcome) *eval.Table {
	t := &eval.Table{ID: "table2-stale-rate", Title: "Table 2 on the stale-answer rate, " + scope + ", pooled",
		Columns: []string{"term", "n", "stale rate A", "stale rate B", "Δ stale rate", "95% CI", "discordant (A✓B✗ / A✗B✓)", "p"}}
	for _, c := range pooledOnly(cs) {
		t.AddRow(c.Label, c.N, eval.PropCell(c.AccA), eval.PropCell(c.AccB), eval.SignedCell(c.Delta), c.CI(), eval.DiscordantCell(c), eval.PValueCell(c.P))
	}
	t.Notes = []string{"a row counts 1 when its answer is labelled outdated (lab.OnMetric(rows, MetricStale)); the paper reports no stale rate",
		eval.IntervalNoteFor(cs), eval.FamilyNote(rows)}
	return t
}

// StaleSummary states, from the rates and the stale-rate decomposition,
// which memory answers the most and the fewest outdated values and how the
// render and mechanism terms move the stale rate.
func StaleSummary(rs []StaleRate, cs []eval.Comparison) string {
	if len(rs) == 0 {
		return ""
	}
	hi, lo := rs[0], rs[0]
	for _, r := range rs[1:] {
		if r.Rate > hi.Rate {
			hi = r
		}
		if r.Rate < lo.Rate {
			lo = r
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s answers an outdated value most often (%.1f%% of its rows), %s least often (%.1f%%).",
		hi.Memory, 100*hi.Rate, lo.Memory, 100*lo.Rate)
	for _, c := range pooledOnly(cs) {
		fmt.Fprintf(&b, " On the stale rate, %s.", eval.Describe(c))
	}
	return b.String()
}

// pooledOnly keeps the pooled comparisons of cs when it has any (a
// renderMatchedTerms over several families), else all of them.
func pooledOnly(cs []eval.Comparison) []eval.Comparison {
	var out []eval.Comparison
	for _, c := range cs {
		if c.Family == reader.Pooled {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return cs
	}
	return out
}
