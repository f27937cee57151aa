package eval

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/textdiff"
)

// pairFlips lists the pairs of ps whose correctness differs, in ps's order.
func pairFlips(p MemoryPair, ps []runPair) []Flip {
	var out []Flip
	for _, rp := range ps {
		a, b := rp.a, rp.b
		if a.Correct == b.Correct {
			continue
		}
		dir := Gained
		if a.Correct {
			dir = Lost
		}
		out = append(out, Flip{Pair: p, QID: a.QID, Stratum: a.Phenomenon, QueryType: a.QueryType,
			Reader: a.Reader, Family: a.Family, Variant: a.Variant, Gold: a.Gold,
			AnswerA: a.Answer, AnswerB: b.Answer, LabelA: a.Label, LabelB: b.Label,
			DecisionA: decision(a), DecisionB: decision(b), Direction: dir})
	}
	return out
}

// decision is what the reader said of how it answered: a scripted
// reader's Reason, else an LLM's own text.
func decision(o *Outcome) string {
	if o.Reason != "" {
		return o.Reason
	}
	return o.RawAnswer
}

// renderFlips fills the renders of flips whose memories differ, rebuilt
// from opt.Bench (renders are not stored in rows), and returns notes on
// what it could not rebuild.
func renderFlips(flips []Flip, opt RunCompareOptions) []string {
	if len(flips) == 0 {
		return nil
	}
	if opt.Bench == nil {
		return []string{"renders of the flipped questions are not shown: they are rebuilt from the benchmark, and none was given (esr compare --data DIR)"}
	}
	question := map[string]string{}
	for i := range opt.Bench.QAs {
		question[opt.Bench.QAs[i].QID] = opt.Bench.QAs[i].Question
	}
	for i := range flips {
		flips[i].Question = question[flips[i].QID]
	}
	byPair := map[MemoryPair][]int{}
	var order []MemoryPair
	for i, f := range flips {
		if _, ok := byPair[f.Pair]; !ok {
			order = append(order, f.Pair)
		}
		byPair[f.Pair] = append(byPair[f.Pair], i)
	}
	var notes []string
	for _, p := range order {
		if p.A == p.B {
			notes = append(notes, fmt.Sprintf("renders of %s are not shown: both runs use that memory, whose build renders the same (what differs is elsewhere: the reader, the judge, the build options)", p.A))
			continue
		}
		if c := opt.unnamedAdapter(p.A); c != "" {
			notes = append(notes, adapterNote(fmt.Sprintf("renders of %s and %s are not shown", p.A, p.B), c))
			continue
		}
		if c := opt.unnamedAdapter(p.B); c != "" {
			notes = append(notes, adapterNote(fmt.Sprintf("renders of %s and %s are not shown", p.A, p.B), c))
			continue
		}
		want := map[string]bool{}
		for _, i := range byPair[p] {
			want[flips[i].QID] = true
		}
		items, err := RenderQAs(opt.Bench, []memory.Spec{p.A, p.B}, func(qa *esr.QA) bool { return want[qa.QID] }, opt.MemoryOptions)
		if err != nil {
			notes = append(notes, fmt.Sprintf("renders of %s and %s are not shown: %v", p.A, p.B, err))
			continue
		}
		renders := map[string][2]string{}
		for _, it := range items {
			renders[it.QA.QID] = [2]string{it.Inputs[0].Context, it.Inputs[1].Context}
		}
		missing := 0
		for _, i := range byPair[p] {
			r, ok := renders[flips[i].QID]
			if !ok {
				missing++
				continue
			}
			flips[i].RenderA, flips[i].RenderB = r[0], r[1]
			flips[i].RenderChanged = changedLines(r[0], r[1])
		}
		if missing > 0 {
			notes = append(notes, fmt.Sprintf("%d flipped questions of %s − %s are not in the benchmark given: no render", missing, p.B, p.A))
		}
	}
	return notes
}

// changedLines are the lines of b that are not in a, as textdiff marks
// them (added, moved or rewritten).
func changedLines(a, b string) []string {
	var out []string
	for _, l := range textdiff.Against(a, b) {
		if l.Changed() {
			out = append(out, l.Text())
		}
	}
	return out
}
