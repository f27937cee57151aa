package lab

import (
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"

	"fmt"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/stats"
)

// JudgedRows are outcome rows scored by one judge (the run's own rows, or
// Rejudge's output).
type JudgedRows struct {
	Judge string
	Rows  []eval.Outcome
}

// JudgeTerm is one decomposition term under several judges: the term under
// each (Under, parallel to the judges) and, for every judge after the
// first, the judge term: how far the term moves from the first judge's.
// pairKey names one paired comparison: a question under one family and condition.
type pairKey struct {
	qid       string
	family    reader.Family
	condition string
}

type JudgeTerm struct {
	Term   eval.Term
	Judges []string
	Under  []eval.Comparison
	Shift  []JudgeShift // len(Judges) − 1, for Judges[1:]
}

// JudgeShift is the judge term of one judge against the first: over the
// N pairs (qid, family, condition) both judges scored for both memories,
// Δ = mean((a − b) under this judge − (a − b) under the first), with a
// question-clustered percentile bootstrap interval.
type JudgeShift struct {
	Judge          string
	N              int
	Delta, Lo, Hi  float64
	Level          float64
	Resamples      int
	ChangedAnswers int // pairs whose a or b verdict differs between the judges
}

// JudgeTerms computes each term under every judge's rows (kept by f) and
// the judge term of every later judge against the first (runs[0]). A term
// whose memories the first judge's rows lack is skipped (as CompareTerms
// does); one with pairs under the first judge but none under another is an
// error, and so is no term at all.
func JudgeTerms(runs []JudgedRows, terms []eval.Term, f eval.Filter, opt eval.StatOptions) ([]JudgeTerm, error) {
	opt = opt.WithDefaults()
	if len(runs) < 2 {
		return nil, fmt.Errorf("judge terms: %d judges, want at least 2", len(runs))
	}
	var out []JudgeTerm
	var skipped error
	for _, t := range terms {
		jt := JudgeTerm{Term: t}
		if _, err := eval.Compare(runs[0].Rows, t, f, opt); err != nil {
			skipped = err // a term whose memories the rows lack (as CompareTerms)
			continue
		}
		for _, r := range runs {
			c, err := eval.Compare(r.Rows, t, f, opt)
			if err != nil {
				return nil, fmt.Errorf("judge %s: %w", r.Judge, err)
			}
			c.Family = reader.Pooled
			jt.Judges = append(jt.Judges, r.Judge)
			jt.Under = append(jt.Under, c)
		}
		base := pairVerdicts(runs[0].Rows, t, f)
		for _, r := range runs[1:] {
			other := pairVerdicts(r.Rows, t, f)
			var keys []pairKey
			for k := range base {
				if _, ok := other[k]; ok {
					keys = append(keys, k)
				}
			}
			if len(keys) == 0 {
				return nil, fmt.Errorf("judge term %s: no pair scored by both %s and %s", t.Label, runs[0].Judge, r.Judge)
			}
			sortPairKeys(keys)
			dNew, dOld, qids := make([]float64, len(keys)), make([]float64, len(keys)), make([]string, len(keys))
			changed := 0
			for i, k := range keys {
				o, n := base[k], other[k]
				dOld[i], dNew[i], qids[i] = b2f(o[0])-b2f(o[1]), b2f(n[0])-b2f(n[1]), k.qid
				if o != n {
					changed++
				}
			}
			ci, err := stats.PairedClusterBootstrap(dNew, dOld, qids, opt.B, opt.Level, opt.Seed)
			if err != nil {
				return nil, err
			}
			jt.Shift = append(jt.Shift, JudgeShift{Judge: r.Judge, N: len(keys), Delta: ci.Estimate, Lo: ci.Lo, Hi: ci.Hi,
				Level: opt.Level, Resamples: opt.B, ChangedAnswers: changed})
		}
		out = append(out, jt)
	}
	if len(out) == 0 && skipped != nil {
		return nil, skipped
	}
	return out, nil
}

// pairVerdicts maps each pair both memories of t answered (among rows f
// keeps) to their verdicts (a, b).
func pairVerdicts(rows []eval.Outcome, t eval.Term, f eval.Filter) map[pairKey][2]bool {
	a, b := map[pairKey]bool{}, map[pairKey]bool{}
	for i := range rows {
		o := &rows[i]
		if f != nil && !f(o) {
			continue
		}
		k := pairKey{o.QID, o.Family, o.Variant.String()}
		switch o.Memory {
		case t.A:
			a[k] = o.Correct
		case t.B:
			b[k] = o.Correct
		}
	}
	out := map[pairKey][2]bool{}
	for k, va := range a {
		if vb, ok := b[k]; ok {
			out[k] = [2]bool{va, vb}
		}
	}
	return out
}

func sortPairKeys(keys []pairKey) {
	sort.Slice(keys, func(i, j int) bool {
		x, y := keys[i], keys[j]
		if x.qid != y.qid {
			return x.qid < y.qid
		}
		if x.family != y.family {
			return x.family.Compare(y.family) < 0
		}
		return x.condition < y.condition
	})
}

// JudgeTermTable lays the judge terms out like the paper's Table 2 judge
// columns (DeepSeek-V3 vs MiniMax-M2.5): one row per term, the term under
// each judge with its interval, the judge term of each later judge, and
// the paper's two columns where the term is one of Table 2's. rows are any
// of the judged rows (for the family note).
func JudgeTermTable(jts []JudgeTerm, scope string, rows []eval.Outcome) *eval.Table {
	t := &eval.Table{ID: "judge-term", Title: "The judge term: render and mechanism terms under each judge, " + scope,
		Columns: []string{"term", "n"}}
	if len(jts) == 0 {
		return t
	}
	for _, j := range jts[0].Judges {
		t.Columns = append(t.Columns, "Δ under "+j)
	}
	for _, s := range jts[0].Shift {
		t.Columns = append(t.Columns, "judge term ("+s.Judge+" − "+jts[0].Judges[0]+")", "answers rescored differently")
	}
	t.Columns = append(t.Columns, "paper: DeepSeek-V3 → MiniMax-M2.5")
	for _, jt := range jts {
		row := []any{jt.Term.Label, jt.Under[0].N}
		for _, c := range jt.Under {
			row = append(row, report.Signed(c.Delta)+" "+c.CI())
		}
		for _, s := range jt.Shift {
			row = append(row, report.Signed(s.Delta)+" "+report.Interval(s.Lo, s.Hi), fmt.Sprintf("%d of %d pairs", s.ChangedAnswers, s.N))
		}
		paperCell := "—"
		if _, ok := paper.Lookup(paper.T2MiniMax.Key(jt.Term.Key)); ok {
			paperCell = paper.Cell(paper.T2.Key(jt.Term.Key), true).Text + " → " + paper.Cell(paper.T2MiniMax.Key(jt.Term.Key), true).Text
		}
		t.AddRow(append(row, paperCell)...)
	}
	var ci []eval.Comparison
	for _, jt := range jts {
		ci = append(ci, jt.Under...)
	}
	t.Notes = []string{
		"the same stored answers rescored by each judge (eval.Rejudge / esr rejudge: no reader is asked again); judge term = the term under the later judge − the term under the first, over the same pairs, with a question-clustered percentile bootstrap interval",
		eval.IntervalNoteFor(ci), eval.FamilyNote(rows)}
	return t
}

// JudgeTermSummary states, for each term and later judge, how far the term
// moves and whether the move is distinguishable from 0, computed from jts:
// a lead sentence counting the moves whose interval excludes 0, then one
// Markdown list item per term.
func JudgeTermSummary(jts []JudgeTerm) string {
	var items []string
	n, moved := 0, 0
	for _, jt := range jts {
		var parts []string
		for i, s := range jt.Shift {
			what := "not distinguishable from 0"
			switch {
			case s.Lo > 0:
				what, moved = "an increase (its interval excludes 0)", moved+1
			case s.Hi < 0:
				what, moved = "a decrease (its interval excludes 0)", moved+1
			}
			n++
			parts = append(parts, fmt.Sprintf("under %s %s instead of %s under %s (judge term %s %s, %s)",
				s.Judge, report.Signed(jt.Under[i+1].Delta), report.Signed(jt.Under[0].Delta), jt.Judges[0],
				report.Signed(s.Delta), report.Interval(s.Lo, s.Hi), what))
		}
		items = append(items, "- "+jt.Term.Label+": "+strings.Join(parts, "; "))
	}
	lead := fmt.Sprintf("%d of %d judge terms (a term under a later judge minus the same term under the first) have an interval that excludes 0:", moved, n)
	return lead + "\n\n" + strings.Join(items, "\n")
}

// b2f is 1 for a correct verdict, 0 otherwise.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
