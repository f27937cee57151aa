package sim

import (
	"context"
	"testing"

	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/layout"
)

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
		if _, _, ok := layout.SplitFact("service request_timeout " + v + " 30 s"); !ok {
			t.Errorf("wording %q not read", v)
		}
	}
	for _, c := range []string{"graphiti@paraphrase=1@dup=0@seed=1", "graphiti@paraphrase=1@dup=0@seed=2", "mem0-update@paraphrase=1@seed=1"} {
		st := memory.MustBuild(memory.MustParseSpec(c), s, atoms, memory.Options{})
		out, err := r.Read(context.Background(), reader.Input{QID: qa.QID, Question: qa.Question, QueryType: esr.Snapshot,
			Context: st.Render(snap), MayAbstain: true, Memory: memory.MustParseSpec(c), State: st, Query: snap})
		if err != nil {
			t.Fatal(err)
		}
		if want := st.Answer(snap).String(); out.Answer.String() != want {
			t.Errorf("%s: status-reader answers %s, the state %s (%s)\n%s", c, out.Answer, want, out.Note, st.Render(snap))
		}
	}
}
