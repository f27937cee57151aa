package esr_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/esrkit/esrkit/esr"
)

// randomKey makes n atoms on one key with values drawn from a small pool
// (random polarity too) and a random relation for every ordered pair.
func randomKey(rng *rand.Rand, n int, labels []esr.Relation) ([]esr.Atom, map[[2]int]esr.Relation) {
	atoms := make([]esr.Atom, n)
	for i := range atoms {
		p := esr.Positive
		if rng.IntN(5) == 0 {
			p = esr.Negative
		}
		atoms[i] = esr.Atom{ID: fmt.Sprintf("a%d", i), Entity: "x", Attribute: "a",
			Value: fmt.Sprintf("v%d", rng.IntN(3)), Polarity: p, EventIndex: i}
	}
	rel := map[[2]int]esr.Relation{}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			rel[[2]int{i, j}] = labels[rng.IntN(len(labels))]
		}
	}
	return atoms, rel
}

func pairFunc(atoms []esr.Atom, rel map[[2]int]esr.Relation) esr.PairFunc {
	return func(a, b *esr.Atom) esr.Relation {
		return rel[[2]int{a.EventIndex, b.EventIndex}]
	}
}

// extensional is the closed form of Proposition 2a: an atom is closed by the
// first later atom that SUPERSEDES or REFINES it (deprecated or refined),
// live otherwise; the snapshot is the value of the live set, or ABSTAIN when
// the live values disagree.
func extensional(atoms []esr.Atom, rel map[[2]int]esr.Relation) esr.Answer {
	var live []int
	for i := range atoms {
		closed := false
		for j := i + 1; j < len(atoms); j++ {
			if r := rel[[2]int{i, j}]; r == esr.Supersedes || r == esr.Refines {
				closed = true
				break
			}
		}
		if !closed {
			live = append(live, i)
		}
	}
	if len(live) == 0 {
		return esr.Abstain
	}
	for _, i := range live[1:] {
		if atoms[i].State() != atoms[live[0]].State() {
			return esr.Abstain
		}
	}
	return esr.Says(atoms[live[len(live)-1]].Display())
}

// P2a: ⊕ folded over a stream equals the extensional definition (maximal
// non-deprecated subset, or ABSTAIN) on random streams and relations.
func TestOplusEqualsExtensional(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	labels := []esr.Relation{esr.SameState, esr.Supersedes, esr.Refines, esr.Contradicts}
	for trial := 0; trial < 5000; trial++ {
		atoms, rel := randomKey(rng, 1+rng.IntN(8), labels)
		var kl esr.KeyLedger
		f := pairFunc(atoms, rel)
		for i := range atoms {
			kl.Add(&atoms[i], f)
		}
		if got, want := kl.Snapshot(), extensional(atoms, rel); got != want {
			t.Fatalf("trial %d: ⊕ gives %v, extensional %v (atoms %v, relations %v)", trial, got, want, atoms, rel)
		}
		// Status is a function of M alone.
		if kl.Unresolved() != (kl.Snapshot().Abstain && len(kl.Active) > 0) {
			t.Fatalf("trial %d: unresolved=%v but snapshot %v", trial, kl.Unresolved(), kl.Snapshot())
		}
	}
}

// An atom UNRELATED to every active atom changes nothing: the ledger with it
// answers as the ledger without it.
func TestUnrelatedChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	labels := []esr.Relation{esr.SameState, esr.Supersedes, esr.Refines, esr.Contradicts}
	for trial := 0; trial < 2000; trial++ {
		atoms, rel := randomKey(rng, 2+rng.IntN(6), labels)
		skip := 1 + rng.IntN(len(atoms)-1) // never the first atom: M must be non-empty
		for i := range atoms {
			if i < skip {
				rel[[2]int{i, skip}] = esr.Unrelated
			}
		}
		var with, without esr.KeyLedger
		f := pairFunc(atoms, rel)
		for i := range atoms {
			with.Add(&atoms[i], f)
			if i != skip {
				without.Add(&atoms[i], f)
			}
		}
		if with.Snapshot() != without.Snapshot() {
			t.Fatalf("trial %d: with the unrelated atom %v, without %v", trial, with.Snapshot(), without.Snapshot())
		}
		if with.Status[skip] != esr.SetAside {
			t.Fatalf("trial %d: unrelated atom has status %v", trial, with.Status[skip])
		}
	}
}

func TestLedgerReadOuts(t *testing.T) {
	mk := func(id, v string, day int) esr.Atom {
		return esr.Atom{ID: id, Entity: "s", Attribute: "t", Value: v, Polarity: esr.Positive,
			Timestamp: esr.MustTime(fmt.Sprintf("2024-01-%02d", day)), EventIndex: day}
	}
	atoms := []esr.Atom{mk("a1", "30 s", 1), mk("a2", "60 s", 2), mk("a3", "30 seconds", 3)}
	rel := func(a, b *esr.Atom) esr.Relation {
		if a.State() == b.State() {
			return esr.SameState
		}
		return esr.Supersedes
	}
	var kl esr.KeyLedger
	for i := range atoms {
		kl.Add(&atoms[i], rel)
	}
	checks := []struct{ name, got, want string }{
		{"snapshot", kl.Snapshot().String(), "30 seconds"},
		{"prior", kl.Prior().String(), "60 s"},
		{"last change", kl.LastChange().String(), esr.AnswerReplaces},
		{"status", kl.StatusText(), "ok"},
		{"valid since", kl.ValidSince().Date(), "2024-01-03"},
		{"history", fmt.Sprint(len(kl.History())), "3"},
		{"deprecated", fmt.Sprint(len(kl.DeprecatedAtoms())), "2"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
	// A refinement: the prior value was refined, not replaced.
	ref := []esr.Atom{mk("b1", "use --no-cache", 1), mk("b2", "use --no-cache on linux", 2)}
	var rl esr.KeyLedger
	for i := range ref {
		rl.Add(&ref[i], func(a, b *esr.Atom) esr.Relation { return esr.Refines })
	}
	if got := rl.LastChange().String(); got != esr.AnswerRefines {
		t.Errorf("refinement: last change %q, want refines", got)
	}
	if got := len(rl.Support()); got != 2 {
		t.Errorf("refinement: %d supporting atoms, want 2 (the finer and the coarser)", got)
	}
}

func TestDeprecationCycle(t *testing.T) {
	if c := esr.DeprecationCycle([][2]string{{"b", "a"}, {"c", "b"}}); c != nil {
		t.Errorf("chain reported as cycle %v", c)
	}
	c := esr.DeprecationCycle([][2]string{{"b", "a"}, {"c", "b"}, {"a", "c"}})
	if len(c) != 4 || c[0] != c[3] {
		t.Errorf("cycle a→c→b→a: got %v", c)
	}
}

func TestNormalizeValue(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"30 s", "30 s"}, {"30s", "30 s"}, {"30 seconds", "30 s"}, {" 30  Sec. ", "30 s"},
		{"1,000 ms", "1000 ms"}, {"\"Sergio  Mattarella\"", "sergio mattarella"},
		{"v2.1", "v2.1"}, {"50%", "50 %"}, {"", ""}, {"30 parsecs", "30 parsecs"},
	} {
		if got := esr.NormalizeValue(c.in); got != c.want {
			t.Errorf("NormalizeValue(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if esr.StateOf("x", esr.Negative) == esr.StateOf("x", esr.Positive) {
		t.Error("polarity must be part of the state")
	}
}

func TestParseTime(t *testing.T) {
	for _, s := range []string{"2024-03-01", "2024-03-01T10:00:00Z", "2024-03-01T10:00:00+02:00", "2024-03-01T10:00:00"} {
		if _, err := esr.ParseTime(s); err != nil {
			t.Errorf("ParseTime(%q): %v", s, err)
		}
	}
	if _, err := esr.ParseTime("yesterday"); err == nil {
		t.Error("ParseTime(yesterday) succeeded")
	}
	if got := esr.MustTime("2024-03-01T10:00:00+02:00").String(); got != "2024-03-01T08:00:00Z" {
		t.Errorf("not UTC: %s", got)
	}
}

func TestRelationNames(t *testing.T) {
	for _, r := range esr.Relations {
		got, err := esr.ParseRelation(r.String())
		if err != nil || got != r {
			t.Errorf("round trip %v: %v, %v", r, got, err)
		}
	}
	if r, err := esr.ParseRelation("same-state"); err != nil || r != esr.SameState {
		t.Errorf("same-state: %v %v", r, err)
	}
	if _, err := esr.ParseRelation("OVERRIDES"); err == nil {
		t.Error("unknown relation accepted")
	}
}

// FuzzOplus: ⊕ never panics and its invariants hold on arbitrary relation
// matrices: M holds only live atoms, every closed atom points forward, and
// the snapshot matches the closed form.
func FuzzOplus(f *testing.F) {
	f.Add([]byte{3, 1, 2, 4, 0, 1, 3})
	f.Add([]byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		n := 1 + int(data[0])%8
		atoms := make([]esr.Atom, n)
		for i := range atoms {
			v := 0
			if 1+i < len(data) {
				v = int(data[1+i]) % 3
			}
			atoms[i] = esr.Atom{ID: fmt.Sprint(i), Value: fmt.Sprintf("v%d", v), Polarity: esr.Positive, EventIndex: i}
		}
		rel := map[[2]int]esr.Relation{}
		k := 1 + n
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				r := esr.SameState
				if k < len(data) {
					r = esr.Relations[1+int(data[k])%4] // no UNRELATED: the closed form assumes none
				}
				k++
				rel[[2]int{i, j}] = r
			}
		}
		var kl esr.KeyLedger
		pf := pairFunc(atoms, rel)
		for i := range atoms {
			kl.Add(&atoms[i], pf)
		}
		for _, i := range kl.Active {
			if kl.Status[i] != esr.Live {
				t.Fatalf("active atom %d has status %v", i, kl.Status[i])
			}
		}
		for i, by := range kl.ClosedBy {
			if by >= 0 && by <= i {
				t.Fatalf("atom %d closed by earlier atom %d", i, by)
			}
		}
		if got, want := kl.Snapshot(), extensional(atoms, rel); got != want {
			t.Fatalf("⊕ %v, extensional %v", got, want)
		}
	})
}

// P2b in code: the snapshot equals g(Π, values) whatever the relation
// labels were, so once Π is known the type labels add nothing.
func TestReadOutFromPartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	labels := []esr.Relation{esr.SameState, esr.Supersedes, esr.Refines, esr.Contradicts}
	for trial := 0; trial < 3000; trial++ {
		atoms, rel := randomKey(rng, 1+rng.IntN(8), labels)
		var kl esr.KeyLedger
		f := pairFunc(atoms, rel)
		for i := range atoms {
			kl.Add(&atoms[i], f)
		}
		if got := esr.ReadOut(kl.Atoms, kl.Partition()); got != kl.Snapshot() {
			t.Fatalf("trial %d: g(Π, values) = %v, ledger %v", trial, got, kl.Snapshot())
		}
	}
}
