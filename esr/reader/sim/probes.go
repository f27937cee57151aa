package sim

import (
	"context"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// Probes are issue 54's probes of a panel, set beside each other before
// and after a change to the reader model (`esr calibrate --probes`): per
// family, the exact expectations over the draws on hand-built renders
// (newest of 8 dated rows in a ~150-token flat table; a fine ledger of 8
// rows, its LIVE row on top; a direct-context 2-value key with 0 and 5
// distractor keys, and at ~2,000 tokens), then graphrag-abstain read by
// the panel (one draw per question, seed 0) on b's cross-source-conflict
// snapshot questions: how many answers are a date sort's "newest of N
// dated", how many abstain, how many are right. The readers are
// SIMULATED.
func Probes(ctx context.Context, b *bench.Bench, ps []Profile) (string, error) {
	var out strings.Builder
	expect := func(p Profile, in inputGold) (right, abst float64) {
		f := Features(in.in)
		for _, br := range Branches(p, in.in, true) {
			w := br.Prob(p, f)
			if goldRight(in.gold, br.Answer) {
				right += w
			}
			if br.Answer.Abstain {
				abst += w
			}
		}
		return right, abst
	}
	for _, p := range ps {
		r8 := 0.0
		for pos := 0; pos < 8; pos++ {
			r, _ := expect(p, ig(flatRowsRender(8, pos, 150)))
			r8 += r / 8
		}
		led, _ := expect(p, ig(ledgerRowsRender(8, 150, ledgerTable, true)))
		d0, _ := expect(p, ig(directRender(0, 0)))
		in5 := ig(directRender(5, 0))
		d5, _ := expect(p, in5)
		in2k := ig(directRender(0, 2000))
		l2k, a2k := expect(p, in2k)
		fmt.Fprintf(&out, "%s: newest of 8 dated rows in a ~150-token flat table %.3f; fine ledger, LIVE row first, 8 rows %.3f; direct-context 2-value key with 0 distractor keys %.3f, with 5 %.3f (lapse %.3f); 2-value key at %d tokens %.3f (abstains %.3f)\n",
			p.Name, r8, led, d0, d5, p.Chances(Features(in5.in)).Lapse, Features(in2k.in).Tokens, l2k, a2k)
	}
	items, err := eval.RenderQAs(b, memory.Specs(memory.GraphRAGAbstain), func(qa *esr.QA) bool {
		return qa.Phenomenon == esr.CrossSourceConflict && qa.Type() == esr.Snapshot
	}, memory.Options{})
	if err != nil {
		return "", err
	}
	newest, abst, right, n := 0, 0, 0, 0
	for _, p := range ps {
		r, err := New(p, 0)
		if err != nil {
			return "", err
		}
		for _, it := range items {
			o, err := r.Read(ctx, it.Inputs[0])
			if err != nil {
				return "", err
			}
			n++
			if strings.Contains(o.Decision, "newest of") {
				newest++
			}
			if o.Answer.Abstain {
				abst++
			}
			if (judge.Exact{}).Decide(it.QA.GoldAnswer, it.QA.Aliases, o.Answer).Correct {
				right++
			}
		}
	}
	fmt.Fprintf(&out, "graphrag-abstain on %s's cross-source-conflict snapshot questions, every family, one draw each: %d rows; a date sort's newest of N dated %d; abstained %d; right %d\n", b.Name(), n, newest, abst, right)
	return out.String(), nil
}

// inputGold is a hand-built render with its gold answer.
type inputGold struct {
	in   reader.Input
	gold string
}

func ig(in reader.Input, gold string) inputGold { return inputGold{in, gold} }
