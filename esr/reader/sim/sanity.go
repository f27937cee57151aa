package sim

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// This file is the reader model's sanity suite: hand-built renders on
// which any 7–14B instruct model answers well, and the bounds a plausible
// simulated reader must meet on them. The renders are written here by
// hand (not by the memory classes), padded with other keys' rows to the
// bench's median render length, so the suite tests the reader model
// alone. The bounds are the issue's, not fitted: a calibration that cannot
// meet them reports its residuals; the suite is never relaxed to reach a
// target.

// sanityBound is one check of the suite: what is measured, the bound and
// whether it is a floor (≥) or a ceiling (≤).
type sanityBound struct {
	Name  string
	Bound float64
	Floor bool
}

// The suite's checks. The date-sort floors come from the evidence on 7–14B
// instruct models picking the newest of a few dated items (the model card
// cites it): 0.8, 0.7 and 0.6 for 2, 3 and 4 rows are below every range it
// supports, so a reader under them cannot read a date.
var (
	sanityNewest2   = sanityBound{"newest of 2 dated flat rows", 0.8, true}
	sanityNewest3   = sanityBound{"newest of 3 dated flat rows", 0.7, true}
	sanityNewest4   = sanityBound{"newest of 4 dated flat rows", 0.6, true}
	sanityLiveFirst = sanityBound{"fine ledger, LIVE row first", 0.9, true}
	sanityStale     = sanityBound{"found the value, answered a stale one", 0.15, false}
)

// sanityResult is one check of one reader: the probability measured (the
// exact expectation over the reader's draws) and whether it meets the
// bound.
type sanityResult struct {
	sanityBound
	Value float64
}

// Pass reports whether the value meets the bound.
func (r sanityResult) Pass() bool {
	if r.Floor {
		return r.Value >= r.Bound
	}
	return r.Value <= r.Bound
}

func (r sanityResult) String() string {
	op := "≥"
	if !r.Floor {
		op = "≤"
	}
	verdict := "pass"
	if !r.Pass() {
		verdict = "FAIL"
	}
	return fmt.Sprintf("%s: %.3f (%s %.2f) %s", r.Name, r.Value, op, r.Bound, verdict)
}

// sanityValues are the asked key's distinct values, newest last.
var sanityValues = []string{"30 s", "45 s", "60 s", "90 s"}

// sanityDates are their dates, oldest first.
var sanityDates = []string{"2024-01-04", "2024-02-11", "2024-03-19", "2024-04-23"}

const sanityQuestion = "What is the current request timeout of the service?"

// distractorRow is the i-th row of another key, in the flat fact table.
func distractorRow(i int) string {
	return fmt.Sprintf("d%d|service|retry_limit_%d|%d|2024-0%d-%02d", i, i%7, 3+i%5, 1+i%6, 1+i%27)
}

// flatRender is a GraphRAG-style flat fact table: the asked key's n rows
// (values sanityValues[:n], newest at position newestAt among them, the
// others in date order) spread among other keys' rows until the render
// has at least tokens tokens.
func flatRender(n, newestAt, tokens int) string {
	var key []string
	for i := 0; i < n-1; i++ {
		key = append(key, fmt.Sprintf("a%d|service|request_timeout|%s|%s", i+1, sanityValues[i], sanityDates[i]))
	}
	newest := fmt.Sprintf("a%d|service|request_timeout|%s|%s", n, sanityValues[n-1], sanityDates[n-1])
	key = append(key[:newestAt], append([]string{newest}, key[newestAt:]...)...)
	return padRows("-----Facts-----\nid|entity|attribute|value|time\n", key, distractorRow, tokens)
}

// padRows writes head, then the key's rows spread evenly among other rows
// until the text has at least tokens tokens (the key's rows all shown).
func padRows(head string, key []string, other func(int) string, tokens int) string {
	var rows []string
	for i := 0; ; i++ {
		rows = append(rows, other(i))
		all := interleave(key, rows)
		if reader.CountTokens(head+strings.Join(all, "\n")+"\n") >= tokens || i > 2000 {
			return head + strings.Join(all, "\n") + "\n"
		}
	}
}

// interleave spreads key's rows evenly among rows, in order: one after
// every len(rows)/(len(key)+1) other rows, the rest at the end.
func interleave(key, rows []string) []string {
	out := make([]string, 0, len(key)+len(rows))
	gap := len(rows) / (len(key) + 1)
	k := 0
	for i, r := range rows {
		if gap > 0 && i > 0 && i%gap == 0 && k < len(key) {
			out = append(out, key[k])
			k++
		}
		out = append(out, r)
	}
	return append(out, key[k:]...)
}

// ledgerRender is a fine-ledger block for the asked key with n rows, the
// newest (LIVE) first and the others DEPRECATED, then other keys' blocks
// until the render has at least tokens tokens.
func ledgerRender(n, tokens int) string {
	var b strings.Builder
	b.WriteString("key: service / request_timeout   status: ok\ntime       | event | value | status\n")
	for i := n - 1; i >= 0; i-- {
		st := "DEPRECATED"
		if i == n-1 {
			st = "LIVE"
		}
		fmt.Fprintf(&b, "%s | e%d    | %s  | %s\n", sanityDates[i], i+1, sanityValues[i], st)
	}
	text := b.String()
	for i := 0; reader.CountTokens(text) < tokens && i < 500; i++ {
		text += fmt.Sprintf("\nkey: service / retry_limit_%d   status: ok\ntime       | event | value | status\n%s | e%d    | %d  | LIVE\n",
			i, fmt.Sprintf("2024-0%d-%02d", 1+i%6, 1+i%27), 100+i, 3+i%5)
	}
	return text
}

// sanityRender is one hand-built render of the suite with the branches of
// a sim reader on it, flagged (right, a stale value after a lapse).
type sanityRender struct {
	check  sanityBound
	scored scoredBranches
}

// sanitySet are the suite's renders at one render length: flat tables of
// 2, 3 and 4 dated rows with the newest at each position, and the ledger
// whose first row is LIVE.
type sanitySet struct{ renders []sanityRender }

func newSanitySet(tokens int) *sanitySet {
	set := &sanitySet{}
	add := func(check sanityBound, context, gold string) {
		in := reader.Input{QID: "sanity", Question: sanityQuestion, QueryType: esr.Snapshot, Context: context, MayAbstain: true}
		r := sanityRender{check: check, scored: scoredBranches{feat: Features(in)}}
		for _, b := range Branches(Profile{}, in, true) {
			ok := judge.Exact{}.Decide(gold, nil, b.Answer).Correct
			r.scored.branches = append(r.scored.branches, scoredBranch{b: b, x: ok, y: !ok && b.Lapse && !b.Answer.Abstain})
		}
		set.renders = append(set.renders, r)
	}
	for _, c := range []struct {
		n     int
		bound sanityBound
	}{{2, sanityNewest2}, {3, sanityNewest3}, {4, sanityNewest4}} {
		for pos := 0; pos < c.n; pos++ {
			add(c.bound, flatRender(c.n, pos, tokens), sanityValues[c.n-1])
		}
	}
	add(sanityLiveFirst, ledgerRender(3, tokens), sanityValues[2])
	return set
}

// results are the suite's checks under p: each check's mean P(right) over
// its renders, then the largest P(stale) over every render.
func (set *sanitySet) results(p Profile) []sanityResult {
	var out []sanityResult
	sum, n := map[string]float64{}, map[string]int{}
	var order []sanityBound
	stale := 0.0
	for i := range set.renders {
		r := &set.renders[i]
		right, st := r.scored.expect(p)
		if n[r.check.Name] == 0 {
			order = append(order, r.check)
		}
		sum[r.check.Name] += right
		n[r.check.Name]++
		stale = math.Max(stale, st)
	}
	for _, c := range order {
		out = append(out, sanityResult{c, sum[c.Name] / float64(n[c.Name])})
	}
	return append(out, sanityResult{sanityStale, stale})
}

// sanityMargin is how far inside each bound the calibration keeps the
// panel (its penalty starts there), so that rounding cannot push a fitted
// reader over a bound.
const sanityMargin = 0.01

// violations are how far each check of p falls short of its bound plus
// sanityMargin (0 when it meets it): the calibration's penalty residuals.
func (set *sanitySet) violations(p Profile) []float64 {
	rs := set.results(p)
	out := make([]float64, len(rs))
	for i, r := range rs {
		if r.Floor {
			out[i] = math.Max(0, r.Bound+sanityMargin-r.Value)
		} else {
			out[i] = math.Max(0, r.Value-(r.Bound-sanityMargin))
		}
	}
	return out
}

// Sanity runs the suite for profile p at render length tokens (the bench's
// median, medianRenderTokens): the mean over the newest row's positions
// of P(right) on flat tables of 2, 3 and 4 dated rows, P(right) on a fine
// ledger of three rows whose first row is LIVE, and the largest P(a stale
// value after a lapse) over all those renders. Each is an exact
// expectation over the reader's draws.
func sanity(p Profile, tokens int) []sanityResult {
	return newSanitySet(tokens).results(p)
}

// medianRenderTokens is the median length in tokens of the d-blind
// control's (graphrag-abstain's) renders over b's snapshot questions: the
// render length the sanity suite pads to.
func medianRenderTokens(b *bench.Bench) (int, error) {
	items, err := eval.RenderQAs(b, memory.Specs(memory.GraphRAGAbstain), func(qa *esr.QA) bool { return qa.Type() == esr.Snapshot }, memory.Options{})
	if err != nil {
		return 0, err
	}
	if len(items) == 0 {
		return 0, fmt.Errorf("sanity: %s has no snapshot questions", b.Name())
	}
	n := make([]int, len(items))
	for i, it := range items {
		n[i] = reader.CountTokens(it.Inputs[0].Context)
	}
	sort.Ints(n)
	return n[len(n)/2], nil
}
