package eval

import (
	"context"
	"fmt"
	"sort"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// controlOf is m's render-matched control: m itself when m is a control.
func controlOf(m memory.Spec) memory.Spec {
	if _, ok := controlBase(m); ok {
		return m
	}
	return m.RenderMatched()
}

// compareControls fills rc.Controls: for every pair of two memories, the
// split of ControlSplit over the pairs on which both memories and both
// controls answered, pooled and per family (as ByFamily).
func compareControls(ctx context.Context, rc *RunComparison, rowsA, rowsB []Outcome, opt RunCompareOptions) ([]string, error) {
	var notes []string
	for _, p := range rc.Pairs {
		if p.A == p.B {
			notes = append(notes, fmt.Sprintf("%s: the same memory in both runs, so no render/mechanism split", p.A))
			continue
		}
		ca, cb := controlOf(p.A), controlOf(p.B)
		ctlA, ranA, note, err := controlRows(ctx, "A", rowsA, p.A, ca, opt)
		if err != nil {
			return nil, err
		}
		if note != "" {
			notes = append(notes, note)
			continue
		}
		ctlB, ranB, note, err := controlRows(ctx, "B", rowsB, p.B, cb, opt)
		if err != nil {
			return nil, err
		}
		if note != "" {
			notes = append(notes, note)
			continue
		}
		quads := controlQuads(rowsA, rowsB, ctlA, ctlB, p, ca, cb)
		if len(quads) == 0 {
			notes = append(notes, fmt.Sprintf("%s − %s: no (question, reader, condition) on which both memories and both controls answered", p.B, p.A))
			continue
		}
		splits, err := splitQuads(p, ca, cb, quads, ranA || ranB, opt.Stats)
		if err != nil {
			return nil, err
		}
		rc.Controls = append(rc.Controls, splits...)
	}
	return notes, nil
}

// controlRows returns the rows of run side holding control c of memory m:
// the run's own rows when it holds c, else c answered here over opt.Bench
// by the readers of m's rows (ran). note says why there are none.
func controlRows(ctx context.Context, side string, rows []Outcome, m, c memory.Spec, opt RunCompareOptions) (out []Outcome, ran bool, note string, err error) {
	for i := range rows {
		if rows[i].Memory == c {
			return rows, false, "", nil
		}
	}
	if opt.Bench == nil || len(opt.Readers) == 0 {
		return nil, false, fmt.Sprintf("run %s holds no rows of %s (the control of %s), and it cannot be run here without the benchmark and the readers (esr compare --data DIR): no render/mechanism split", side, c, m), nil
	}
	if a := opt.unnamedAdapter(c); a != "" {
		return nil, false, adapterNote(fmt.Sprintf("run %s holds no rows of %s (the control of %s), and it is not run here: no render/mechanism split", side, c, m), a), nil
	}
	var mine []Outcome
	for i := range rows {
		if rows[i].Memory == m {
			mine = append(mine, rows[i])
		}
	}
	want := map[reader.Spec]bool{}
	for _, s := range Distinct(mine, func(o *Outcome) reader.Spec { return o.Reader }) {
		want[s] = true
	}
	var rs []reader.Reader
	for _, r := range opt.Readers {
		if want[r.Spec()] {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return nil, false, fmt.Sprintf("run %s holds no rows of %s (the control of %s), and none of the readers given is one of its rows' readers: no render/mechanism split", side, c, m), nil
	}
	j := opt.ControlJudge
	if j == nil {
		j = opt.Rejudge
	}
	if j == nil {
		j = judge.Exact{}
	}
	cfg := Config{Memories: []memory.Spec{c}, Readers: rs, Judge: j, Options: opt.MemoryOptions,
		QueryTypes: Distinct(mine, func(o *Outcome) esr.QueryType { return o.QueryType }),
		Phenomena:  Distinct(mine, func(o *Outcome) esr.Phenomenon { return o.Phenomenon })}
	got, err := Evaluate(ctx, opt.Bench, cfg)
	if err != nil {
		return nil, false, "", fmt.Errorf("running %s (the control of %s in run %s): %w", c, m, side, err)
	}
	return got, true, "", nil
}

// controlQuad is one (qid, reader, condition) on which A's memory and
// control and B's memory and control all answered readably.
type controlQuad struct {
	key            runKey
	family         reader.Family
	ma, ca, mb, cb bool
}

// controlQuads pairs the four rows of pair p, in pairRuns's order.
func controlQuads(rowsA, rowsB, ctlA, ctlB []Outcome, p MemoryPair, ca, cb memory.Spec) []controlQuad {
	ima, keys := indexRuns(rowsA, p.A)
	ica, _ := indexRuns(ctlA, ca)
	imb, _ := indexRuns(rowsB, p.B)
	icb, _ := indexRuns(ctlB, cb)
	var out []controlQuad
	for _, k := range keys {
		rs := []*Outcome{ima[k], ica[k], imb[k], icb[k]}
		ok := true
		for _, o := range rs {
			if o == nil || o.Unreadable {
				ok = false
			}
		}
		if ok {
			out = append(out, controlQuad{k, rs[0].Family, rs[0].Correct, rs[1].Correct, rs[2].Correct, rs[3].Correct})
		}
	}
	sort.Slice(out, func(i, j int) bool { return compareOrder(out[i].key, out[i].family, out[j].key, out[j].family) })
	return out
}

// splitQuads computes the split pooled and per family (ByFamily's rule).
func splitQuads(p MemoryPair, ca, cb memory.Spec, quads []controlQuad, ran bool, opt StatOptions) ([]ControlSplit, error) {
	var fams []reader.Family
	seen := map[reader.Family]bool{}
	for _, q := range quads {
		if !seen[q.family] {
			seen[q.family] = true
			fams = append(fams, q.family)
		}
	}
	sort.Slice(fams, func(i, j int) bool { return fams[i].Compare(fams[j]) < 0 })
	scopes := fams
	if len(fams) > 1 {
		scopes = append([]reader.Family{reader.Pooled}, fams...)
	}
	var out []ControlSplit
	for _, fam := range scopes {
		var sel []controlQuad
		for _, q := range quads {
			if fam == reader.Pooled || q.family == fam {
				sel = append(sel, q)
			}
		}
		s, err := splitOf(p, ca, cb, fam, sel, opt)
		if err != nil {
			return nil, err
		}
		s.Ran = ran
		out = append(out, s)
	}
	return out, nil
}

// splitOf is the split over quads qs (see ControlSplit).
func splitOf(p MemoryPair, ca, cb memory.Spec, fam reader.Family, qs []controlQuad, opt StatOptions) (ControlSplit, error) {
	n := len(qs)
	ma, cA, mb, cB := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	qids := make([]string, n)
	netTotal, netRender := 0, 0
	for i, q := range qs {
		ma[i], cA[i], mb[i], cB[i], qids[i] = b2f(q.ma), b2f(q.ca), b2f(q.mb), b2f(q.cb), q.key.qid
		netTotal += int(mb[i] - ma[i])
		netRender += int(cB[i] - cA[i])
	}
	s := ControlSplit{Pair: p, ControlA: ca, ControlB: cb, Family: fam, N: n}
	term := func(label string, xa, xb []float64) (ControlTerm, error) {
		c := Comparison{Term: Term{Label: label}, Scope: Scope{Family: fam}, N: n, Level: opt.Level, Interval: opt.Interval, Resamples: opt.B}
		c, err := comparePairs(c, xa, xb, qids, opt)
		return ControlTerm{Label: label, Delta: c.Delta, Lo: c.Lo, Hi: c.Hi, P: c.P}, err
	}
	var err error
	if s.Total, err = term(fmt.Sprintf("total (%s − %s)", p.B, p.A), mb, ma); err != nil {
		return s, err
	}
	if s.Render, err = term(fmt.Sprintf("render (%s − %s)", cb, ca), cB, cA); err != nil {
		return s, err
	}
	s.Total.Net, s.Render.Net = netTotal, netRender
	// mechanism = (mb − cb) − (ma − ca) = (mb + ca) − (cb + ma), pair by pair.
	xa, xb := make([]float64, n), make([]float64, n)
	for i := range qs {
		xa[i], xb[i] = mb[i]+cA[i], cB[i]+ma[i]
	}
	ci, err := bootstrap(xa, xb, qids, opt)
	if err != nil {
		return s, err
	}
	s.Mechanism = ControlTerm{Label: fmt.Sprintf("mechanism ((%s − %s) − (%s − %s))", p.B, cb, p.A, ca),
		Net: netTotal - netRender, Delta: ci.Estimate, Lo: ci.Lo, Hi: ci.Hi, P: -1}
	return s, nil
}
