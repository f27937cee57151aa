package memory_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// dBlind are the classes that keep no deprecation marker.
var dBlind = []memory.Class{memory.GraphRAGLite, memory.GraphRAGAbstain, memory.RenderOnly}

// P1: over the surface φ@t1, ¬φ@t2, φ@t3, instance (I) (e3 reverts e2) and
// instance (II) (an unresolved cross-source conflict) look alike to every
// d-blind class; the fine ledger answers φ on (I) and ABSTAIN on (II); the
// Graphiti-style coarse classes answer φ on both (they close an edge on a
// contradiction too and have no unresolved status).
func TestP1SymmetricSurface(t *testing.T) {
	one, two, atomsOne, atomsTwo, gold := bench.P1Surface()
	opt := memory.Options{Relator: relate.Oracle{Gold: gold}}
	k := atomsOne[0].Key()
	q := esr.Query{Type: esr.Snapshot, Key: k}
	answer := func(class string, s *esr.Stream, atoms []esr.Atom) esr.Answer {
		return memory.MustBuild(memory.MustParseSpec(class), s, atoms, opt).Answer(q)
	}
	for _, c := range dBlind {
		a1, a2 := answer(string(c), one, atomsOne), answer(string(c), two, atomsTwo)
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
	for _, c := range []memory.Class{memory.CoarseDiscard, memory.CoarseRetain} {
		for i, in := range []struct {
			s     *esr.Stream
			atoms []esr.Atom
		}{{one, atomsOne}, {two, atomsTwo}} {
			if got := answer(string(c), in.s, in.atoms); got != esr.Says("thread-safe") {
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
	var evs []bench.Event
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
		evs = append(evs, bench.Event{ID: fmt.Sprintf("e%d", i+1), Date: fmt.Sprintf("2024-01-01T%02d:00:00Z", i),
			Actor: "maintainer", Value: cur, Text: "value " + cur})
	}
	return bench.Build(id, esr.Key{Entity: "x", Attribute: "a"}, evs)
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
		fine := memory.MustBuild(memory.SpecOf(memory.FineLedger), s, atoms, opt).Answer(q)
		for _, c := range []memory.Class{memory.CoarseRetain, memory.CoarseDiscard} {
			if got := memory.MustBuild(memory.SpecOf(c), s, atoms, opt).Answer(q); got != fine {
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
		return bench.Build(id, k, []bench.Event{
			{ID: "e1", Date: "2024-01-01", Actor: "m", Value: first, Text: "Try " + first + "."},
			{ID: "e2", Date: "2024-02-01", Actor: "m", Value: "pin v2", Text: "Use pin v2 instead."},
		})
	}
	q := esr.Query{Type: esr.Provenance, Key: k}
	for _, first := range []string{"downgrade", "clear cache"} {
		s, atoms := mk("s-"+first, first)
		for _, c := range []memory.Class{memory.CoarseRetain, memory.FineLedger} {
			if got := memory.MustBuild(memory.SpecOf(c), s, atoms, memory.Options{}).Answer(q); got != esr.Says(first) {
				t.Errorf("%s on %s→pin v2: provenance %v, want %q", c, first, got, first)
			}
		}
		if got := memory.MustBuild(memory.SpecOf(memory.CoarseDiscard), s, atoms, memory.Options{}).Answer(q); got != esr.Abstain {
			t.Errorf("coarse-discard on %s→pin v2: provenance %v, want ABSTAIN (prior value absent)", first, got)
		}
	}
}

// hedgedHistory draws a random history of one key whose gold relations
// include UNRELATED atoms: hedges ("maybe it is v7?") and recollections of
// an old value ("it used to be v2"), which carry a value but change nothing.
// It returns the stream, its atoms and the gold label of every co-keyed
// pair (earlier, later), as the generator's relations.jsonl would: a real
// update SUPERSEDES every earlier atom of another value and is SAME_STATE
// with equal ones; a hedge is UNRELATED to everything before it.
func hedgedHistory(rng *rand.Rand, id string, n int) (*esr.Stream, []esr.Atom, map[string]map[esr.AtomPair]esr.Relation, int) {
	var evs []bench.Event
	var values []string
	hedge := make([]bool, n)
	cur := "v0"
	hedges := 0
	for i := 0; i < n; i++ {
		v := cur
		switch r := rng.IntN(10); {
		case i == 0:
		case r < 2: // restate
		case r < 5: // hedge or recollection: UNRELATED, a value other than the current one
			hedge[i] = true
			hedges++
			if len(values) > 1 && rng.IntN(2) == 0 {
				v = values[rng.IntN(len(values))]
			} else {
				v = fmt.Sprintf("v%d", 50+rng.IntN(50))
			}
		case r < 6 && len(values) > 1: // revert to an earlier value
			cur = values[rng.IntN(len(values))]
			v = cur
		default:
			cur = fmt.Sprintf("v%d", rng.IntN(50))
			v = cur
		}
		if !hedge[i] {
			values = append(values, cur)
		}
		evs = append(evs, bench.Event{ID: fmt.Sprintf("e%d", i+1), Date: fmt.Sprintf("2024-01-01T%02d:00:00Z", i),
			Actor: "maintainer", Value: v, Text: "value " + v})
	}
	s, atoms := bench.Build(id, esr.Key{Entity: "x", Attribute: "a"}, evs)
	gold := map[esr.AtomPair]esr.Relation{}
	for j := range atoms {
		for i := 0; i < j; i++ {
			r := esr.Supersedes
			switch {
			case hedge[j] || hedge[i]:
				r = esr.Unrelated
			case atoms[i].State() == atoms[j].State():
				r = esr.SameState
			}
			gold[esr.AtomPair{A: atoms[i].ID, B: atoms[j].ID}] = r
		}
	}
	return s, atoms, map[string]map[esr.AtomPair]esr.Relation{id: gold}, hedges
}

// P2b on histories with hedges and recollections (spec §3): with gold
// relations, coarse and fine give the same snapshot wherever fine answers,
// and coarse is not latest-only: a trailing hedge is set aside by both.
func TestP2bCoarseEqualsFineWithHedges(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	differFromLatest, answered := 0, 0
	for trial := 0; trial < 3000; trial++ {
		id := fmt.Sprint("h", trial)
		s, atoms, gold, _ := hedgedHistory(rng, id, 1+rng.IntN(12))
		opt := memory.Options{Relator: relate.Oracle{Gold: gold}}
		q := esr.Query{Type: esr.Snapshot, Key: atoms[0].Key()}
		fine := memory.MustBuild(memory.SpecOf(memory.FineLedger), s, atoms, opt).Answer(q)
		latest := memory.MustBuild(memory.SpecOf(memory.LatestOnly), s, atoms, opt).Answer(q)
		if fine.Abstain {
			continue
		}
		answered++
		for _, c := range []memory.Class{memory.CoarseRetain, memory.CoarseDiscard} {
			if got := memory.MustBuild(memory.SpecOf(c), s, atoms, opt).Answer(q); got != fine {
				t.Fatalf("trial %d: %s answers %v, fine-ledger %v", trial, c, got, fine)
			}
		}
		if fine != latest {
			differFromLatest++
		}
	}
	if answered < 2500 {
		t.Errorf("fine-ledger answered only %d of 3000 histories", answered)
	}
	// A history ending in a hedge of another value makes latest-only wrong;
	// about a third of the histories end in a hedge.
	if differFromLatest < answered/10 {
		t.Errorf("coarse differs from latest-only on %d of %d answered histories; want the hedged ones", differFromLatest, answered)
	}
	t.Logf("coarse = fine on %d answered histories; both differ from latest-only on %d", answered, differFromLatest)
}

// A registered memory that wraps fine-ledger gets, from
// RegisterRenderMatched, a control whose render is byte-identical to
// render-only's: the mechanism-off switch reaches registered builds.
func TestRegisteredControlMatchesRenderOnly(t *testing.T) {
	const name = "wrapped-fine-ledger"
	if err := memory.Register(name, func(s *esr.Stream, atoms []esr.Atom, opt memory.Options) memory.State {
		return memory.MustBuild(memory.SpecOf(memory.FineLedger), s, atoms, opt)
	}); err != nil {
		t.Fatal(err)
	}
	control, err := memory.RegisterRenderMatched(name)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	streams := []struct {
		s     *esr.Stream
		atoms []esr.Atom
		opt   memory.Options
	}{}
	s1, a1 := bench.Figure1()
	streams = append(streams, struct {
		s     *esr.Stream
		atoms []esr.Atom
		opt   memory.Options
	}{s1, a1, memory.Options{}})
	one, two, atomsOne, atomsTwo, gold := bench.P1Surface()
	for _, x := range []struct {
		s     *esr.Stream
		atoms []esr.Atom
	}{{one, atomsOne}, {two, atomsTwo}} {
		streams = append(streams, struct {
			s     *esr.Stream
			atoms []esr.Atom
			opt   memory.Options
		}{x.s, x.atoms, memory.Options{Relator: relate.Oracle{Gold: gold}}})
	}
	for i := 0; i < 200; i++ {
		s, atoms, g, _ := hedgedHistory(rng, fmt.Sprint("w", i), 2+rng.IntN(10))
		streams = append(streams, struct {
			s     *esr.Stream
			atoms []esr.Atom
			opt   memory.Options
		}{s, atoms, memory.Options{Relator: relate.Oracle{Gold: g}}})
	}
	for _, x := range streams {
		q := esr.Query{Type: esr.Snapshot, Key: x.atoms[0].Key()}
		for _, format := range memory.LedgerFormats {
			opt := x.opt
			opt.LedgerFormat = format
			want := memory.MustBuild(memory.SpecOf(memory.RenderOnly), x.s, x.atoms, opt)
			got := memory.MustBuild(control, x.s, x.atoms, opt)
			if got.Render(q) != want.Render(q) {
				t.Fatalf("%s, format %s: control render\n%s\nwant render-only's\n%s", x.s.ID, format, got.Render(q), want.Render(q))
			}
			if got.Answer(q) != want.Answer(q) {
				t.Fatalf("%s: control answers %v, render-only %v", x.s.ID, got.Answer(q), want.Answer(q))
			}
			for _, bad := range []string{"unresolved", "DEPRECATED", "REFINED", "UNRELATED"} {
				if strings.Contains(got.Render(q), bad) {
					t.Fatalf("%s: control render shows %q:\n%s", x.s.ID, bad, got.Render(q))
				}
			}
			for _, r := range got.Rows() {
				if r.Status != "neutral" || len(r.Deprecated) != 0 {
					t.Fatalf("%s: control row %+v is not neutral", x.s.ID, r)
				}
			}
		}
	}
}

// The dated d-blind control (spec §3, correction): graphrag-abstain shows
// every atom with its date, in a permutation drawn per (seed, stream, key)
// that is not time order; its read-out stays d-blind, the same for every
// seed and format; the dateless variant is the same table without the time
// column.
func TestGraphRAGAbstainDatedSeededOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sorted, long, seedChanges := 0, 0, 0
	for i := 0; i < 300; i++ {
		s, atoms, gold, _ := hedgedHistory(rng, fmt.Sprint("g", i), 4+rng.IntN(8))
		q := esr.Query{Type: esr.Snapshot, Key: atoms[0].Key()}
		render := func(seed uint64, format string) (string, esr.Answer) {
			st := memory.MustBuild(memory.SpecOf(memory.GraphRAGAbstain), s, atoms, memory.Options{RenderSeed: seed, FactFormat: format, Relator: relate.Oracle{Gold: gold}})
			return st.Render(q), st.Answer(q)
		}
		r1, a1 := render(1, "")
		r1again, _ := render(1, memory.FactsDated)
		r2, a2 := render(2, "")
		rd, ad := render(1, memory.FactsDateless)
		if r1 != r1again {
			t.Fatalf("%s: same seed, different renders", s.ID)
		}
		if a1 != a2 || a1 != ad {
			t.Fatalf("%s: read-out depends on the seed or format: %v %v %v", s.ID, a1, a2, ad)
		}
		if r1 != r2 {
			seedChanges++
		}
		lines := strings.Split(strings.TrimSuffix(r1, "\n"), "\n")
		if lines[1] != "id|entity|attribute|value|time" {
			t.Fatalf("header %q", lines[1])
		}
		var stripped []string
		times := map[string]string{}
		for j := range atoms {
			ts := atoms[j].Timestamp
			times[atoms[j].ID] = ts.Format("2006-01-02 15:04")
			if ts.Hour() == 0 && ts.Minute() == 0 {
				times[atoms[j].ID] = ts.Format("2006-01-02")
			}
		}
		inOrder := true
		prev := ""
		for _, l := range lines[2:] {
			cells := strings.Split(l, "|")
			if got, want := cells[len(cells)-1], times[cells[0]]; got != want {
				t.Fatalf("%s: row %q shows time %q, atom has %q", s.ID, l, got, want)
			}
			if cells[len(cells)-1] < prev {
				inOrder = false
			}
			prev = cells[len(cells)-1]
			stripped = append(stripped, strings.Join(cells[:len(cells)-1], "|"))
		}
		if len(lines)-2 != len(atoms) {
			t.Fatalf("%s: %d rows for %d atoms", s.ID, len(lines)-2, len(atoms))
		}
		if want := "-----Facts-----\nid|entity|attribute|value\n" + strings.Join(stripped, "\n") + "\n"; rd != want {
			t.Fatalf("%s: dateless render\n%s\nwant\n%s", s.ID, rd, want)
		}
		if len(atoms) >= 5 {
			long++
			if inOrder {
				sorted++
			}
		}
	}
	// A random order of ≥5 rows is time order with probability ≤ 1/120.
	if sorted*10 > long {
		t.Errorf("%d of %d renders with ≥5 rows are in time order", sorted, long)
	}
	if seedChanges < 250 {
		t.Errorf("the seed changed the order of only %d of 300 renders", seedChanges)
	}
}
