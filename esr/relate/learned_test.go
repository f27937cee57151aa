package relate

import (
	"reflect"
	"slices"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

func logScores(t *testing.T, r *LearnedCV) {
	t.Helper()
	for c, rel := range esr.Relations {
		ru, le := r.Rule.Class[c], r.Learned.Class[c]
		t.Logf("%-12s n=%4d  rule P/R/F1 %.3f/%.3f/%.3f  learned P/R/F1 %.3f/%.3f/%.3f",
			rel, ru.Support, ru.Precision, ru.Recall, ru.F1, le.Precision, le.Recall, le.F1)
	}
	t.Logf("accuracy rule %.3f learned %.3f; macro-F1 rule %.3f learned %.3f (n = %d)",
		r.Rule.Accuracy, r.Learned.Accuracy, r.Rule.MacroF1, r.Learned.MacroF1, r.Rule.N)
}

func TestCrossValidateToy(t *testing.T) {
	b := toyBench(40, 1)
	r, err := CrossValidateLearned(b, 5, 42, LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	logScores(t, r)
	ref := int(esr.Refines)
	if r.Learned.Class[ref].Recall < r.Rule.Class[ref].Recall {
		t.Errorf("learned REFINES recall %.3f < rule %.3f", r.Learned.Class[ref].Recall, r.Rule.Class[ref].Recall)
	}
	if r.Rule.Class[ref].Recall > 0.8 {
		t.Errorf("toy bench too easy for the rule: REFINES recall %.3f", r.Rule.Class[ref].Recall)
	}
	if r.Learned.Accuracy < r.Rule.Accuracy {
		t.Errorf("learned accuracy %.3f < rule %.3f", r.Learned.Accuracy, r.Rule.Accuracy)
	}
	// The rule column must be the rule scorer itself.
	for _, p := range r.Pairs[:20] {
		s := b.Stream(p.StreamID)
		atoms := b.Atoms[p.StreamID]
		f := Rule{}.ForStream(s, atoms)
		a, bb := atomByID(atoms, p.A), atomByID(atoms, p.B)
		if got := f(a, bb); got != p.Rule {
			t.Fatalf("pair %v: rule column %v, rule scorer %v", p, p.Rule, got)
		}
	}
	if len(r.Rule.Class) != len(esr.Relations) || len(r.Learned.Class) != len(esr.Relations) {
		t.Errorf("per-class scores: rule %d, learned %d classes; want %d", len(r.Rule.Class), len(r.Learned.Class), len(esr.Relations))
	}
}

func atomByID(atoms []esr.Atom, id string) *esr.Atom {
	for i := range atoms {
		if atoms[i].ID == id {
			return &atoms[i]
		}
	}
	return nil
}

func TestDeterministic(t *testing.T) {
	b1, b2 := toyBench(30, 2), toyBench(30, 2)
	r1, err := CrossValidateLearned(b1, 4, 7, LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := CrossValidateLearned(b2, 4, 7, LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r1.Pairs, r2.Pairs) || !reflect.DeepEqual(r1.Folds, r2.Folds) ||
		!reflect.DeepEqual(r1.Learned, r2.Learned) || !reflect.DeepEqual(r1.Full.sm.w, r2.Full.sm.w) {
		t.Fatal("same bench and seed gave different results")
	}
	r3, err := CrossValidateLearned(b1, 4, 8, LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(r1.Folds, r3.Folds) {
		t.Error("a different seed gave the same folds")
	}
}

// TestFoldsByStream checks that every labelled stream is tested in exactly
// one fold, never trained on in that fold, and that the out-of-fold labels
// equal a model refitted by hand on the other streams only.
func TestFoldsByStream(t *testing.T) {
	b := toyBench(24, 3)
	r, err := CrossValidateLearned(b, 4, 11, LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]int{}
	for fi, f := range r.Folds {
		for _, s := range f.Test {
			tested[s]++
			if slices.Contains(f.Train, s) {
				t.Errorf("fold %d trains on its test stream %s", fi, s)
			}
		}
		if len(f.Test)+len(f.Train) != len(b.Relations) {
			t.Errorf("fold %d: %d test + %d train streams, want %d", fi, len(f.Test), len(f.Train), len(b.Relations))
		}
	}
	for sid := range b.Relations {
		if tested[sid] != 1 {
			t.Errorf("stream %s tested %d times", sid, tested[sid])
		}
	}
	for _, p := range r.Pairs {
		if !slices.Contains(r.Folds[p.Fold].Test, p.StreamID) {
			t.Fatalf("pair %v predicted by a fold that does not test its stream", p)
		}
	}
	// Refit fold 0 on a bench holding only its training streams.
	f0 := r.Folds[0]
	var streams []*esr.Stream
	atoms := map[string][]esr.Atom{}
	rels := map[string]map[esr.AtomPair]esr.Relation{}
	for _, s := range b.Streams {
		if slices.Contains(f0.Train, s.ID) {
			streams = append(streams, s)
			atoms[s.ID] = b.Atoms[s.ID]
			rels[s.ID] = b.Relations[s.ID]
		}
	}
	sub := bench.New(streams, atoms, nil)
	sub.Relations = rels
	m, err := TrainLearned(sub, LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	oof := r.OutOfFold()
	for _, sid := range f0.Test {
		s, as := b.Stream(sid), b.Atoms[sid]
		want, got := m.ForStream(s, as), oof.ForStream(s, as)
		for pr := range b.Relations[sid] {
			a, bb := atomByID(as, pr.A), atomByID(as, pr.B)
			if w, g := want(a, bb), got(a, bb); w != g {
				t.Errorf("stream %s pair %v: out-of-fold %v, refitted model %v", sid, pr, g, w)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	b := toyBench(3, 1)
	if _, err := CrossValidateLearned(b, 4, 1, LearnedLambda); err == nil {
		t.Error("k > streams accepted")
	}
	if _, err := CrossValidateLearned(b, 2, 1, 0); err == nil {
		t.Error("lambda 0 accepted")
	}
	b.Relations = nil
	if _, err := TrainLearned(b, LearnedLambda); err == nil {
		t.Error("bench without relations accepted")
	}
}
