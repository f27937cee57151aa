package eval

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// CompareRuns sets run b beside run a, question by question.
//
// Pairing: rows pair by (question id, reader spec, condition). When each
// run holds exactly one memory, that memory of A pairs with that of B
// (what changed between the runs may be the memory itself). Otherwise both
// runs must hold the same set of memories, and each memory pairs with
// itself across the runs (B − A per memory); other sets are an error. With
// opt.Controls, a memory's render-matched control held beside it (M and
// M~render-only) is set aside as its control, not paired on its own.
//
// Refusals (*mismatchError): runs whose shared questions differ in gold,
// stratum or query type, or that share no question, are on different
// benchmarks (rows do not record a hash of their benchmark); runs whose
// rows were scored by different judges (a row's Judge, else its run's
// Judge) are refused unless opt.Rejudge rescores both first. Rows only one
// run holds are listed (OnlyA, OnlyB) and left out; so are pairs with an
// unreadable row (Unreadable), as Compare leaves them out.
//
// Every difference is B − A, computed as eval.Compare computes it (pairs
// sorted by qid, family, condition; the same bootstrap, seed and exact
// test), so it equals Compare(rows, label, memB, memA, …) on one run that
// holds both memories' rows.
func CompareRuns(ctx context.Context, a, b *StoredRun, opt RunCompareOptions) (*RunComparison, error) {
	if a == nil || b == nil {
		return nil, errors.New("CompareRuns: a run is nil")
	}
	opt.Stats = opt.Stats.WithDefaults()
	rowsA, rowsB := a.Rows, b.Rows
	for _, s := range []struct {
		run  *StoredRun
		rows []Outcome
	}{{a, rowsA}, {b, rowsB}} {
		if err := CheckConflicts(s.rows, s.run.Name); err != nil {
			return nil, err
		}
	}
	if opt.Rejudge != nil {
		if opt.Bench == nil {
			return nil, errors.New("rescoring both runs needs the benchmark their rows answer")
		}
		var err error
		if rowsA, err = RejudgeRows(ctx, opt.Bench, rowsA, opt.Rejudge); err != nil {
			return nil, fmt.Errorf("run A (%s): %w", a.Name, err)
		}
		if rowsB, err = RejudgeRows(ctx, opt.Bench, rowsB, opt.Rejudge); err != nil {
			return nil, fmt.Errorf("run B (%s): %w", b.Name, err)
		}
	}
	rc := &RunComparison{A: runSide(a, rowsA), B: runSide(b, rowsB), Interval: opt.Stats.IntervalNote()}
	if ja, jb := strings.Join(rc.A.Judges, ", "), strings.Join(rc.B.Judges, ", "); ja != jb {
		return nil, &mismatchError{Field: "judge", A: "judge " + ja, B: "judge " + jb,
			Detail: "rescore both with one judge (esr compare --rejudge JUDGE)"}
	}
	if err := sameBench(rowsA, rowsB); err != nil {
		return nil, err
	}
	for _, s := range []struct {
		name string
		run  *StoredRun
		rows []Outcome
	}{{"A", a, rowsA}, {"B", b, rowsB}} {
		if opt.Rejudge == nil && assumesJudge(s.rows) && s.run.Judge == DefaultRunJudge {
			rc.Notes = append(rc.Notes, fmt.Sprintf("run %s's rows name no judge: taken as scored by %s (esr eval's default --judge; rows do not record it)", s.name, DefaultRunJudge))
		}
	}
	mainA, _ := splitControls(rc.A.Memories, opt.Controls)
	mainB, _ := splitControls(rc.B.Memories, opt.Controls)
	pairs, err := pairMemories(mainA, mainB)
	if err != nil {
		return nil, err
	}
	rc.Pairs = pairs
	for _, p := range pairs {
		ps, onlyA, onlyB, unreadable := pairRuns(rowsA, rowsB, p.A, p.B)
		rc.OnlyA, rc.OnlyB = append(rc.OnlyA, onlyA...), append(rc.OnlyB, onlyB...)
		if unreadable > 0 {
			rc.Notes = append(rc.Notes, fmt.Sprintf("%s − %s: %d pairs left out, a row unreadable (the reader could not read the render's layout)", p.B, p.A, unreadable))
		}
		if len(ps) == 0 {
			rc.Notes = append(rc.Notes, fmt.Sprintf("%s − %s: no (question, reader, condition) both runs answered", p.B, p.A))
			continue
		}
		ds, err := runDiffs(p, ps, opt.Stats)
		if err != nil {
			return nil, err
		}
		rc.Diffs = append(rc.Diffs, ds...)
		rc.Flips = append(rc.Flips, pairFlips(p, ps)...)
	}
	if len(rc.OnlyA)+len(rc.OnlyB) > 0 {
		rc.Notes = append(rc.Notes, fmt.Sprintf("%d rows only in A and %d only in B are left out (OnlyA, OnlyB)", len(rc.OnlyA), len(rc.OnlyB)))
	}
	rc.Notes = append(rc.Notes, renderFlips(rc.Flips, opt)...)
	if opt.Controls {
		notes, err := compareControls(ctx, rc, rowsA, rowsB, opt)
		if err != nil {
			return nil, err
		}
		rc.Notes = append(rc.Notes, notes...)
	}
	return rc, nil
}

// runJudge is the judge that scored o in run r: its own, else the run's.
func runJudge(o *Outcome, run string) string {
	if o.Judge != "" {
		return o.Judge
	}
	return run
}

// assumesJudge reports whether any row names no judge.
func assumesJudge(rows []Outcome) bool {
	for i := range rows {
		if rows[i].Judge == "" {
			return true
		}
	}
	return false
}

// runSide summarises rows of run r (rescored or not).
func runSide(r *StoredRun, rows []Outcome) RunSide {
	s := RunSide{Name: r.Name, Files: r.Files, Rows: len(rows)}
	s.Memories = sortedBy(Distinct(rows, func(o *Outcome) memory.Spec { return o.Memory }), memory.Spec.String)
	s.Readers = sortedBy(Distinct(rows, func(o *Outcome) reader.Spec { return o.Reader }), reader.Spec.String)
	s.Judges = sortedBy(Distinct(rows, func(o *Outcome) string { return runJudge(o, r.Judge) }), func(x string) string { return x })
	s.Sources = sortedBy(Distinct(rows, func(o *Outcome) string { return o.Source }), func(x string) string { return x })
	return s
}

func sortedBy[T any](xs []T, key func(T) string) []T {
	sort.SliceStable(xs, func(i, j int) bool { return key(xs[i]) < key(xs[j]) })
	return xs
}

// question is what a row records of its question: rows of one benchmark
// agree on it for every qid.
type question struct {
	gold   string
	phen   esr.Phenomenon
	qtype  esr.QueryType
	source string
}

// sameBench refuses rows of two benchmarks: no shared qid, or a shared qid
// whose gold, stratum or query type differs.
func sameBench(rowsA, rowsB []Outcome) error {
	index := func(rows []Outcome) map[string]question {
		m := map[string]question{}
		for i := range rows {
			o := &rows[i]
			if _, ok := m[o.QID]; !ok {
				m[o.QID] = question{o.Gold, o.Phenomenon, o.QueryType, o.Source}
			}
		}
		return m
	}
	qa, qb := index(rowsA), index(rowsB)
	describe := func(m map[string]question) string {
		seen := map[string]bool{}
		var srcs []string
		for _, q := range m {
			if !seen[q.source] {
				seen[q.source] = true
				srcs = append(srcs, q.source)
			}
		}
		sort.Strings(srcs)
		return fmt.Sprintf("%d questions of source %s", len(m), strings.Join(srcs, ", "))
	}
	var shared []string
	for id := range qa {
		if _, ok := qb[id]; ok {
			shared = append(shared, id)
		}
	}
	sort.Strings(shared)
	if len(shared) == 0 {
		return &mismatchError{Field: "benchmark", A: describe(qa), B: describe(qb), Detail: "no question id in common"}
	}
	for _, id := range shared {
		x, y := qa[id], qb[id]
		var detail string
		switch {
		case x.gold != y.gold:
			detail = fmt.Sprintf("qid %s: gold %q in A, %q in B", id, x.gold, y.gold)
		case x.phen != y.phen:
			detail = fmt.Sprintf("qid %s: stratum %s in A, %s in B", id, x.phen, y.phen)
		case x.qtype != y.qtype:
			detail = fmt.Sprintf("qid %s: query type %s in A, %s in B", id, x.qtype, y.qtype)
		default:
			continue
		}
		return &mismatchError{Field: "benchmark", A: describe(qa), B: describe(qb), Detail: detail}
	}
	return nil
}

// controlBase is the memory whose render-matched control m is, if m is one.
func controlBase(m memory.Spec) (memory.Spec, bool) {
	switch {
	case m.Is(memory.RenderOnly):
		return memory.SpecOf(memory.FineLedger), true
	case m.Control:
		m.Control = false
		return m, true
	}
	return memory.Spec{}, false
}

// splitControls sets aside, when controls is set, the memories of mems that
// are the render-matched control of another memory of mems.
func splitControls(mems []memory.Spec, controls bool) (main, ctl []memory.Spec) {
	if !controls {
		return mems, nil
	}
	has := map[memory.Spec]bool{}
	for _, m := range mems {
		has[m] = true
	}
	for _, m := range mems {
		if base, ok := controlBase(m); ok && has[base] {
			ctl = append(ctl, m)
			continue
		}
		main = append(main, m)
	}
	return main, ctl
}

// pairMemories is CompareRuns's pairing rule over each run's memories.
func pairMemories(a, b []memory.Spec) ([]MemoryPair, error) {
	names := func(ms []memory.Spec) string {
		s := make([]string, len(ms))
		for i, m := range ms {
			s[i] = m.String()
		}
		return strings.Join(s, ", ")
	}
	switch {
	case len(a) == 0 || len(b) == 0:
		return nil, errors.New("a run holds no rows")
	case len(a) == 1 && len(b) == 1:
		return []MemoryPair{{a[0], b[0]}}, nil
	case names(a) == names(b):
		out := make([]MemoryPair, len(a))
		for i, m := range a {
			out[i] = MemoryPair{m, m}
		}
		return out, nil
	}
	return nil, fmt.Errorf("run A holds memories %s and run B %s: compare runs of one memory each, or of the same memories", names(a), names(b))
}

// runKey is what pairs rows across runs.
type runKey struct {
	qid    string
	reader reader.Spec
	cond   string
}

// compareOrder orders pairs as Compare pairs rows (qid, family,
// condition, then reader), so the bootstrap draws the same questions.
func compareOrder(x runKey, xf reader.Family, y runKey, yf reader.Family) bool {
	if x.qid != y.qid {
		return x.qid < y.qid
	}
	if xf != yf {
		return xf.Compare(yf) < 0
	}
	if x.cond != y.cond {
		return x.cond < y.cond
	}
	return x.reader.String() < y.reader.String()
}

// runPair is one (qid, reader, condition) both runs answered.
type runPair struct {
	key    runKey
	family reader.Family
	a, b   *Outcome
}

// indexRuns maps the rows of memory m by runKey (the first of agreeing
// duplicates), with the keys in row order.
func indexRuns(rows []Outcome, m memory.Spec) (map[runKey]*Outcome, []runKey) {
	idx := map[runKey]*Outcome{}
	var keys []runKey
	for i := range rows {
		o := &rows[i]
		if o.Memory != m {
			continue
		}
		k := runKey{o.QID, o.Reader, o.Variant.String()}
		if _, dup := idx[k]; !dup {
			idx[k] = o
			keys = append(keys, k)
		}
	}
	return idx, keys
}

// pairRuns pairs memory ma's rows of A with mb's of B, in Compare's order
// (qid, family, condition; then reader), and lists the rows without a
// counterpart.
func pairRuns(rowsA, rowsB []Outcome, ma, mb memory.Spec) (ps []runPair, onlyA, onlyB []RowKey, unreadable int) {
	ia, ka := indexRuns(rowsA, ma)
	ib, kb := indexRuns(rowsB, mb)
	for _, k := range ka {
		o, p := ia[k], ib[k]
		switch {
		case p == nil:
			onlyA = append(onlyA, o.Key())
		case o.Unreadable || p.Unreadable:
			unreadable++
		default:
			ps = append(ps, runPair{k, o.Family, o, p})
		}
	}
	for _, k := range kb {
		if ia[k] == nil {
			onlyB = append(onlyB, ib[k].Key())
		}
	}
	sort.Slice(ps, func(i, j int) bool { return compareOrder(ps[i].key, ps[i].family, ps[j].key, ps[j].family) })
	return ps, onlyA, onlyB, unreadable
}

// runScope is one scope of a pair's differences and the pairs it keeps.
type runScope struct {
	Scope
	keep func(*runPair) bool
}

// runScopes are the scopes of pairs ps: pooled and per family (as
// ByFamily), then per stratum and per query type over every reader.
func runScopes(ps []runPair) []runScope {
	all := func(*runPair) bool { return true }
	var fams []reader.Family
	var strata []esr.Phenomenon
	var qtypes []esr.QueryType
	seenF, seenS, seenQ := map[reader.Family]bool{}, map[esr.Phenomenon]bool{}, map[esr.QueryType]bool{}
	for _, p := range ps {
		if !seenF[p.family] {
			seenF[p.family] = true
			fams = append(fams, p.family)
		}
		if s := p.a.Phenomenon; !seenS[s] {
			seenS[s] = true
			strata = append(strata, s)
		}
		if q := p.a.QueryType; !seenQ[q] {
			seenQ[q] = true
			qtypes = append(qtypes, q)
		}
	}
	sort.Slice(fams, func(i, j int) bool { return fams[i].Compare(fams[j]) < 0 })
	sort.Slice(strata, func(i, j int) bool { return strata[i] < strata[j] })
	sort.Slice(qtypes, func(i, j int) bool { return qtypes[i] < qtypes[j] })
	var out []runScope
	top := reader.Pooled
	if len(fams) == 1 {
		top = fams[0]
	} else {
		out = append(out, runScope{Scope{Family: reader.Pooled}, all})
	}
	for _, f := range fams {
		out = append(out, runScope{Scope{Family: f}, func(p *runPair) bool { return p.family == f }})
	}
	for _, s := range strata {
		out = append(out, runScope{Scope{Family: top, Stratum: s}, func(p *runPair) bool { return p.a.Phenomenon == s }})
	}
	for _, q := range qtypes {
		out = append(out, runScope{Scope{Family: top, QueryType: q}, func(p *runPair) bool { return p.a.QueryType == q }})
	}
	return out
}

// runDiffs computes pair p's differences B − A in every scope of ps: each
// the comparison Compare returns for B − A (term A is run B's memory).
func runDiffs(p MemoryPair, ps []runPair, opt StatOptions) ([]Comparison, error) {
	var out []Comparison
	t := Term{Label: p.B.String() + " (B) − " + p.A.String() + " (A)", A: p.B, B: p.A}
	for _, sc := range runScopes(ps) {
		var xb, xa []float64
		var qids []string
		for i := range ps {
			if sc.keep(&ps[i]) {
				xb, xa, qids = append(xb, b2f(ps[i].b.Correct)), append(xa, b2f(ps[i].a.Correct)), append(qids, ps[i].key.qid)
			}
		}
		c := Comparison{Term: t, Scope: sc.Scope, N: len(xb), Level: opt.Level, Interval: opt.Interval, Resamples: opt.B}
		c, err := comparePairs(c, xb, xa, qids, opt)
		if err != nil {
			return nil, fmt.Errorf("%s, %s %s: %w", t.Label, sc.Family, sc.Scope, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// Below reports whether c's interval lies below −margin: the first term
// of c (run B's memory in a RunComparison) is worse than the second by more
// than margin with the interval's confidence (margin ≥ 0; 0 asks only that
// the interval exclude 0). A comparison over too few questions (TooFew) is
// never below.
func (c Comparison) Below(margin float64) bool { return !c.TooFew && c.Hi < -margin }

// Regressions are the differences over every row of a memory pair (all
// readers pooled, or the one family the rows hold; every stratum and query
// type) in which run B is worse than run A beyond margin (Comparison.Below):
// what `esr compare --fail-on-regression` fails on.
func (rc *RunComparison) Regressions(margin float64) []Comparison {
	pooled := map[MemoryPair]bool{}
	for _, d := range rc.Diffs {
		if d.Family == reader.Pooled {
			pooled[MemoryPair{A: d.B, B: d.A}] = true
		}
	}
	var out []Comparison
	for _, d := range rc.Diffs {
		if d.Stratum != "" || d.QueryType != "" || !d.Variant.IsZero() {
			continue
		}
		if pooled[MemoryPair{A: d.B, B: d.A}] && d.Family != reader.Pooled {
			continue
		}
		if d.Below(margin) {
			out = append(out, d)
		}
	}
	return out
}
