package sim

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

// Raising BothValues or Hedge only rewords answers, on the questions whose
// phrase draw falls below them: the value answered stays the one the
// reader answers with both at 0, and every other question's answer and
// draws are unchanged (the built-in profiles, at 0, answer as before).
func TestSimBothValuesAndHedge(t *testing.T) {
	b, err := bench.Load("../../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	base, _ := ProfileNamed("careful")
	plain, _ := New(base, 0)
	phr := base
	phr.BothValues, phr.Hedge = 0.3, 0.2
	worded, err := New(phr, 0)
	if err != nil {
		t.Fatal(err)
	}
	var both, hedged, kept, withoutOther, n int
	for i := range b.QAs {
		qa := &b.QAs[i]
		if qa.Type() != esr.Snapshot || qa.Phenomenon != esr.RevertedRevert {
			continue
		}
		key, _ := qa.Locate(b.Atoms[qa.StreamID])
		st := memory.MustBuild(memory.SpecOf(memory.FineLedger), b.Stream(qa.StreamID), b.Atoms[qa.StreamID], memory.Options{})
		in := reader.Input{QID: qa.QID, Question: qa.Question, QueryType: esr.Snapshot, Context: st.Render(qa.Query(key)), MayAbstain: st.MayAbstain(), Memory: memory.SpecOf(memory.FineLedger)}
		a, _ := plain.Read(context.Background(), in)
		w, _ := worded.Read(context.Background(), in)
		d := worded.Draws(qa.QID)
		if d3, d4 := plain.Draws(qa.QID), d; d3.Status != d4.Status || d3.Sort != d4.Sort || d3.Conflict != d4.Conflict {
			t.Fatalf("%s: draws moved", qa.QID)
		}
		n++
		switch {
		case a.Answer.Abstain:
			if w.Answer != a.Answer {
				t.Errorf("%s: an abstention reworded to %v", qa.QID, w.Answer)
			}
		case d.Phrase < phr.BothValues:
			if w.Answer.Value == a.Answer.Value {
				withoutOther++
				if !strings.Contains(w.Note, "read no other value") {
					t.Errorf("%s: both drawn, answer kept without saying why: %s", qa.QID, w.Note)
				}
				continue
			}
			prior, cur, ok := strings.Cut(strings.TrimPrefix(w.Answer.Value, "was "), ", now ")
			if !ok || cur != a.Answer.Value || sameValue(prior, cur) || !strings.Contains(in.Context, prior) {
				t.Errorf("%s: %q is not \"was A, now %s\" with A in the render", qa.QID, w.Answer.Value, a.Answer.Value)
			}
			both++
		case d.Phrase < phr.BothValues+phr.Hedge:
			if w.Answer.Value != "probably "+a.Answer.Value {
				t.Errorf("%s: hedge %q of %q", qa.QID, w.Answer.Value, a.Answer.Value)
			}
			hedged++
		default:
			if w.Answer != a.Answer || w.Note != strings.Replace(a.Note, plain.Spec().String(), worded.Spec().String(), 1) {
				t.Errorf("%s: answer or note changed above the draws: %v / %v", qa.QID, a, w)
			}
			kept++
		}
	}
	t.Logf("%d questions: %d both values, %d hedged, %d kept, %d both drawn without another value", n, both, hedged, kept, withoutOther)
	if both == 0 || hedged == 0 || kept == 0 {
		t.Errorf("draws unused: %d both, %d hedged, %d kept", both, hedged, kept)
	}
	// Provenance answers are never reworded.
	prov := phr
	prov.BothValues, prov.Hedge = 1, 0
	always, err := New(prov, 0)
	if err != nil {
		t.Fatal(err)
	}
	in := figure1Input(t, memory.FineLedger, esr.Provenance, false)
	if out, _ := always.Read(context.Background(), in); strings.HasPrefix(out.Answer.Value, "was ") {
		t.Errorf("provenance answer reworded: %v", out.Answer)
	}
	// A render that shows one value leaves nothing to state beside it.
	latest := figure1Input(t, memory.LatestOnly, esr.Snapshot, false)
	plainLatest, _ := plain.Read(context.Background(), latest)
	if out, _ := always.Read(context.Background(), latest); out.Answer != plainLatest.Answer || !strings.Contains(out.Note, "read no other value") {
		t.Errorf("latest-only: %v (%s), plain %v", out.Answer, out.Note, plainLatest.Answer)
	}
	// On Figure 1's ledger (30 s → 60 s → 30 s) the other value is 60 s.
	if out, _ := always.Read(context.Background(), figure1Input(t, memory.FineLedger, esr.Snapshot, false)); out.Answer.Value != "was 60 s, now 30 s" {
		t.Errorf("Figure 1 ledger: %v (%s)", out.Answer, out.Note)
	}
	if _, err := Parse("careful@both=0.7@hedge=0.4"); err == nil {
		t.Error("both + hedge > 1 accepted")
	}
	if s, err := Parse("careful@both=0.3@hedge=0.2"); err != nil || s.Profile().BothValues != 0.3 || s.Profile().Hedge != 0.2 {
		t.Errorf("Parse: %v %v", s, err)
	}
}
