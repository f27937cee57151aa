package relate_test

import (
	"math"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/relate"
)

// pair builds a two-event stream and returns the rule scorer's label for
// its atoms.
func pair(v1, actor1, v2, actor2, text2 string, p2 esr.Polarity) esr.Relation {
	s, atoms := bench.Build("t", esr.Key{Entity: "x", Attribute: "a"}, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Actor: actor1, Value: v1, Text: "It is " + v1 + "."},
		{ID: "e2", Date: "2024-01-02", Actor: actor2, Value: v2, Text: text2, Polarity: p2},
	})
	return relate.Rule{}.ForStream(s, atoms)(&atoms[0], &atoms[1])
}

// Each documented rule of the rule scorer, in order.
func TestRuleScorer(t *testing.T) {
	cases := []struct {
		name                 string
		v1, a1, v2, a2, text string
		p2                   esr.Polarity
		want                 esr.Relation
	}{
		{"restatement", "30 s", "ann", "30 seconds", "bob", "As noted, 30 seconds.", "", esr.SameState},
		{"refinement by containment", "use --no-cache", "ann", "use --no-cache on linux", "bob", "Only on linux.", "", esr.Refines},
		{"too short to refine", "v1", "ann", "v1.2", "ann", "Now v1.2.", "", esr.Supersedes},
		{"update cue across actors", "30 s", "ann", "60 s", "bob", "Use 60 s instead.", "", esr.Supersedes},
		{"revert cue", "60 s", "ann", "30 s", "bob", "Reverted to 30 s.", "", esr.Supersedes},
		{"two-word cue", "30 s", "ann", "60 s", "bob", "We changed it to 60 s.", "", esr.Supersedes},
		{"no longer", "blocked", "ann", "blocked", "bob", "This is no longer blocked.", esr.Negative, esr.Supersedes},
		{"hedge", "30 s", "ann", "45 s", "bob", "Maybe 45 s?", "", esr.Unrelated},
		{"cross-source conflict", "30 s", "ann", "60 s", "bob", "It is 60 s.", "", esr.Contradicts},
		{"same source, no cue", "30 s", "ann", "60 s", "ann", "It is 60 s.", "", esr.Supersedes},
		{"unknown source, no cue", "30 s", "", "60 s", "", "It is 60 s.", "", esr.Supersedes},
		{"negation across sources", "thread-safe", "ann", "thread-safe", "bob", "It is not thread-safe.", esr.Negative, esr.Contradicts},
	}
	for _, c := range cases {
		if got := pair(c.v1, c.a1, c.v2, c.a2, c.text, c.p2); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// Two atoms read off one event with different values contradict each other
// (an intra-passage conflict), whoever wrote it.
func TestRuleSameEvent(t *testing.T) {
	for _, tier := range bench.Tiers()[:1] {
		a := tier.Atoms
		if got := (relate.Rule{}).ForStream(tier.Stream, a)(&a[0], &a[1]); got != esr.Contradicts {
			t.Errorf("same-event pair: %v, want CONTRADICTS", got)
		}
	}
}

// Relation noise is seeded per atom pair: the same (seed, p, pair) always
// gives the same label, a changed label is never the original, and the
// corruption rate is p within sampling error.
func TestRelationNoise(t *testing.T) {
	s, atoms := bench.Figure1()
	var a []esr.Atom
	for i := 0; i < 2000; i++ {
		x := atoms[0]
		x.ID = "n" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
		a = append(a, x)
	}
	for _, p := range []float64{0, 0.1, 0.3, 0.5} {
		n1 := relate.RelationNoise{Inner: relate.SameState{}, P: p, Seed: 9}.ForStream(s, a)
		n2 := relate.RelationNoise{Inner: relate.SameState{}, P: p, Seed: 9}.ForStream(s, a)
		changed := 0
		for i := 0; i+1 < len(a); i += 2 {
			r1, r2 := n1(&a[i], &a[i+1]), n2(&a[i], &a[i+1])
			if r1 != r2 {
				t.Fatalf("p=%v: two arms disagree on pair %d: %v vs %v", p, i, r1, r2)
			}
			if r1 != esr.SameState {
				changed++
			}
		}
		n := float64(len(a) / 2)
		rate := float64(changed) / n
		if se := math.Sqrt(p * (1 - p) / n); math.Abs(rate-p) > 4*se+1e-9 {
			t.Errorf("p=%v: corruption rate %.3f, more than 4 SE (%.3f) away", p, rate, se)
		}
	}
}

func TestDropAtoms(t *testing.T) {
	_, atoms := bench.Figure1()
	var a []esr.Atom
	for i := 0; i < 3000; i++ {
		x := atoms[0]
		x.ID = string(rune('A'+i%26)) + string(rune('A'+i/26%26)) + string(rune('A'+i/676))
		a = append(a, x)
	}
	d1, d2 := relate.DropAtoms(a, 0.3, 4), relate.DropAtoms(a, 0.3, 4)
	if len(d1) != len(d2) {
		t.Fatalf("same seed, different dropout: %d vs %d", len(d1), len(d2))
	}
	for i := range d1 {
		if d1[i].ID != d2[i].ID {
			t.Fatal("same seed, different atoms kept")
		}
	}
	kept := float64(len(d1)) / float64(len(a))
	if math.Abs(kept-0.7) > 4*math.Sqrt(0.21/3000) {
		t.Errorf("kept %.3f of atoms at p=0.3", kept)
	}
	if len(relate.DropAtoms(a, 0, 4)) != len(a) {
		t.Error("p=0 dropped atoms")
	}
}

func TestByName(t *testing.T) {
	for _, n := range []string{"rule", "oracle", "same-state"} {
		if r, err := relate.ByName(n, nil); err != nil || r.Name() != n {
			t.Errorf("%s: %v %v", n, r, err)
		}
	}
	if _, err := relate.ByName("bert", nil); err == nil {
		t.Error("unknown relation source accepted")
	}
}
