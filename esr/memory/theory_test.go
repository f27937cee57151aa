package memory_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/example"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// dBlind are the classes that keep no deprecation marker.
var dBlind = []string{memory.GraphRAGLite, memory.GraphRAGAbstain, memory.RenderOnly}

// P1: over the surface φ@t1, ¬φ@t2, φ@t3, instance (I) (e3 reverts e2) and
// instance (II) (an unresolved cross-source conflict) look alike to every
// d-blind class; the fine ledger answers φ on (I) and ABSTAIN on (II); the
// Graphiti-style coarse classes answer φ on both (they close an edge on a
// contradiction too and have no unresolved status).
func TestP1SymmetricSurface(t *testing.T) {
	one, two, atomsOne, atomsTwo, gold := example.P1Surface()
	opt := memory.Options{Relator: relate.Oracle{Gold: gold}}
	k := atomsOne[0].Key()
	q := esr.Query{Type: esr.Snapshot, Key: k}
	answer := func(class string, s *esr.Stream, atoms []esr.Atom) esr.Answer {
		return memory.MustBuild(class, s, atoms, opt).Answer(q)
	}
	for _, c := range dBlind {
		a1, a2 := answer(c, one, atomsOne), answer(c, two, atomsTwo)
		if a1 != a2 {
			t.Errorf("%s (d-blind) tells the instances apart: %v vs %v", c, a1, a2)
		}
	}
	if got := answer(memory.FineLedger, one, atomsOne); got != esr.Says("thread-safe") {
		t.Errorf("fine-ledger on (I): %v, want thread-safe", got)
	}
	if got := answer(memory.FineLedger, two, atomsTwo); got != esr.Abstain {
		t.Errorf("fine-ledger on (II): %v, want ABSTAIN", got)
	}
	for _, c := range []string{memory.CoarseDiscard, memory.CoarseRetain} {
		for i, in := range []struct {
			s     *esr.Stream
			atoms []esr.Atom
		}{{one, atomsOne}, {two, atomsTwo}} {
			if got := answer(c, in.s, in.atoms); got != esr.Says("thread-safe") {
				t.Errorf("%s on instance %d: %v, want thread-safe", c, i+1, got)
			}
		}
	}
}

// singleSourceHistory draws a random history of one key from one source:
// each step restates the current value, refines it, reverts to an earlier
// value, or sets a new one. With one source and no cue needed, the rule
// scorer's labels are the correct relations of such a history.
func singleSourceHistory(rng *rand.Rand, id string, n int) (*esr.Stream, []esr.Atom) {
	var evs []example.Event
	var values []string
	cur := "v0"
	for i := 0; i < n; i++ {
		switch r := rng.IntN(10); {
		case i == 0:
		case r < 3: // restate
		case r < 4 && len(values) > 1: // revert to an earlier value
			cur = values[rng.IntN(len(values))]
		case r < 5: // refine
			cur = cur + " on linux"
		default:
			cur = fmt.Sprintf("v%d", rng.IntN(50))
		}
		values = append(values, cur)
		evs = append(evs, example.Event{ID: fmt.Sprintf("e%d", i+1), Date: fmt.Sprintf("2024-01-01T%02d:00:00Z", i),
			Actor: "maintainer", Value: cur, Text: "value " + cur})
	}
	return example.Build(id, esr.Key{Entity: "x", Attribute: "a"}, evs)
}

// P2b: with correct relations, the coarse and fine snapshot answers are the
// same on random single-source streams: the binary live/dead partition is
// sufficient for snapshot queries.
func TestP2bCoarseEqualsFineOnSnapshot(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 3000; trial++ {
		s, atoms := singleSourceHistory(rng, fmt.Sprint("s", trial), 1+rng.IntN(12))
		opt := memory.Options{Relator: relate.Rule{}}
		q := esr.Query{Type: esr.Snapshot, Key: atoms[0].Key()}
		fine := memory.MustBuild(memory.FineLedger, s, atoms, opt).Answer(q)
		for _, c := range []string{memory.CoarseRetain, memory.CoarseDiscard} {
			if got := memory.MustBuild(c, s, atoms, opt).Answer(q); got != fine {
				t.Fatalf("trial %d: %s answers %v, fine-ledger %v", trial, c, got, fine)
			}
		}
		if want := atoms[len(atoms)-1].Display(); fine != esr.Says(want) {
			t.Fatalf("trial %d: fine-ledger %v, want the last value %q", trial, fine, want)
		}
	}
}

// P2c: on a→b versus c→b the current value is the same, the prior differs:
// coarse-discard cannot answer provenance, coarse-retain and fine-ledger can.
func TestP2cProvenanceNeedsRetention(t *testing.T) {
	k := esr.Key{Entity: "lib", Attribute: "proposed_workaround"}
	mk := func(id, first string) (*esr.Stream, []esr.Atom) {
		return example.Build(id, k, []example.Event{
			{ID: "e1", Date: "2024-01-01", Actor: "m", Value: first, Text: "Try " + first + "."},
			{ID: "e2", Date: "2024-02-01", Actor: "m", Value: "pin v2", Text: "Use pin v2 instead."},
		})
	}
	q := esr.Query{Type: esr.Provenance, Key: k}
	for _, first := range []string{"downgrade", "clear cache"} {
		s, atoms := mk("s-"+first, first)
		for _, c := range []string{memory.CoarseRetain, memory.FineLedger} {
			if got := memory.MustBuild(c, s, atoms, memory.Options{}).Answer(q); got != esr.Says(first) {
				t.Errorf("%s on %s→pin v2: provenance %v, want %q", c, first, got, first)
			}
		}
		if got := memory.MustBuild(memory.CoarseDiscard, s, atoms, memory.Options{}).Answer(q); got != esr.Abstain {
			t.Errorf("coarse-discard on %s→pin v2: provenance %v, want ABSTAIN (prior value absent)", first, got)
		}
	}
}
