package reader

import (
	"context"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

func TestSplitFact(t *testing.T) {
	for s, want := range map[string][2]string{
		"service request_timeout is 30 s":           {"service request_timeout", "30 s"},
		"service request_timeout is now 30 s":       {"service request_timeout", "30 s"},
		"service request_timeout was set to 30 s":   {"service request_timeout", "30 s"},
		"service request_timeout changed to 30 s":   {"service request_timeout", "30 s"},
		"service request_timeout became not 30 s":   {"service request_timeout", "not 30 s"},
		"issue #1 workaround is set to pin what is": {"issue #1 workaround", "pin what is"},
	} {
		k, v, ok := splitFact(s)
		if !ok || [2]string{k, v} != want {
			t.Errorf("splitFact(%q) = %q, %q, %v; want %q", s, k, v, ok, want)
		}
	}
	if _, _, ok := splitFact("no verb here"); ok {
		t.Error("split a sentence without a verb phrase")
	}
}

// A reader reads paraphrased deployed renders as it reads the template:
// every FactVerbs wording gives the same key and value.
func TestScriptedReadsParaphrasedFacts(t *testing.T) {
	s, atoms := bench.Figure1()
	qa := bench.Figure1QA()
	snap := qa.Query(bench.TimeoutKey)
	r, err := NewScripted("status-reader")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range memory.FactVerbs {
		if _, _, ok := splitFact("service request_timeout " + v + " 30 s"); !ok {
			t.Errorf("wording %q not read", v)
		}
	}
	for _, c := range []string{"graphiti@paraphrase=1@dup=0@seed=1", "graphiti@paraphrase=1@dup=0@seed=2", "mem0-update@paraphrase=1@seed=1"} {
		st := memory.MustBuild(c, s, atoms, memory.Options{})
		out, err := r.Read(context.Background(), Input{QID: qa.QID, Question: qa.Question, QueryType: esr.Snapshot,
			Context: st.Render(snap), MayAbstain: true, Memory: c, State: st, Query: snap})
		if err != nil {
			t.Fatal(err)
		}
		if want := st.Answer(snap).String(); out.Answer.String() != want {
			t.Errorf("%s: status-reader answers %s, the state %s (%s)\n%s", c, out.Answer, want, out.Note, st.Render(snap))
		}
	}
}
