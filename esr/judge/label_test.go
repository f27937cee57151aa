package judge

import (
	"context"
	"slices"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

func TestClassify(t *testing.T) {
	qa := &esr.QA{QID: "q", GoldAnswer: "30 s", Aliases: []string{"thirty seconds"}}
	prior := []string{"60 s", "10 s"}
	for _, c := range []struct {
		answer esr.Answer
		want   Label
	}{
		{esr.Says("30 seconds"), LabelCorrect},
		{esr.Says("The timeout is 30 s."), LabelCorrect},
		{esr.Abstain, LabelAbstained},
		{esr.Says("I don't know"), LabelAbstained},
		{esr.Says("60 s"), LabelOutdated},
		{esr.Says("one minute"), LabelOutdated},      // the judge folds units: one minute is 60 s
		{esr.Says("It was 10 s."), LabelOutdated},    // names a prior, not the gold
		{esr.Says("was 60 s, now 30 s"), LabelWrong}, // names the gold too: not stale, and the exact judge rejects it
		{esr.Says("not 60 s"), LabelWrong},           // denies the prior
		{esr.Says("90 s"), LabelWrong},
		{esr.Says("INCORRECT"), LabelWrong},
	} {
		v, _ := Exact{}.Judge(context.Background(), qa, c.answer)
		if got := Classify(v, qa, prior, c.answer); got != c.want {
			t.Errorf("%q: %s, want %s (verdict %+v)", c.answer.Value, got, c.want, v)
		}
	}
	// The label never changes a verdict: a lenient judge's "correct" stays
	// correct.
	both := esr.Says("was 60 s, now 30 s")
	v, _ := ExactLenient{}.Judge(context.Background(), qa, both)
	if got := Classify(v, qa, prior, both); got != LabelCorrect {
		t.Errorf("lenient verdict relabelled: %s", got)
	}
	// No prior values (and ABSTAIN golds): never outdated.
	if got := Classify(Verdict{}, qa, nil, esr.Says("60 s")); got != LabelWrong {
		t.Errorf("without priors: %s", got)
	}
	abst := &esr.QA{GoldAnswer: esr.AbstainText}
	if got := Classify(Verdict{}, abst, prior, esr.Says("60 s")); got != LabelWrong {
		t.Errorf("ABSTAIN gold: %s", got)
	}
}

func TestPriorValues(t *testing.T) {
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*esr.QA{}
	for i := range b.QAs {
		byID[b.QAs[i].QID] = &b.QAs[i]
	}
	// critical → medium → critical (restored): the prior is medium, and
	// the restored gold is not a prior value.
	qa := byID["syn-gh-0001-k1-snap"]
	if got := PriorValues(qa, b.Atoms[qa.StreamID]); !slices.Equal(got, []string{"medium"}) {
		t.Errorf("reverted revert priors %q, want [medium]", got)
	}
	// Provenance and relation-type questions have none (their golds are
	// not the key's current value).
	for _, id := range []string{"syn-gh-0001-k1-prov", "syn-gh-0001-k1-rel"} {
		if got := PriorValues(byID[id], b.Atoms[byID[id].StreamID]); got != nil {
			t.Errorf("%s: priors %q", id, got)
		}
	}
	// Every snapshot QA with a value gold and a deprecated event whose
	// atoms of the key the extraction kept (the bundled bench's extraction
	// is lossy) has a prior value, and no prior value is the gold's state.
	n, lost := 0, 0
	for i := range b.QAs {
		q := &b.QAs[i]
		if q.Type() != esr.Snapshot || q.GoldAbstain() {
			continue
		}
		ps := PriorValues(q, b.Atoms[q.StreamID])
		kept := false
		for _, a := range b.Atoms[q.StreamID] {
			if a.Entity == q.Entity && a.Attribute == q.Attribute && slices.Contains(q.GoldDeprecatedEventIDs, a.EventID) {
				kept = true
			}
		}
		if len(q.GoldDeprecatedEventIDs) > 0 && !kept {
			lost++
		}
		if kept && len(ps) == 0 {
			t.Errorf("%s: deprecated events with atoms of the key but no prior value", q.QID)
		}
		for _, p := range ps {
			if esr.StateOf(p, esr.Positive) == esr.StateOf(q.GoldAnswer, esr.Positive) {
				t.Errorf("%s: prior %q is the gold", q.QID, p)
			}
		}
		n++
	}
	if n < 1000 || lost == 0 {
		t.Errorf("only %d snapshot value QAs checked (%d whose deprecated events lost their atoms)", n, lost)
	}
}
