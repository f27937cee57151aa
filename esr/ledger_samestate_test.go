package esr_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/esrkit/esrkit/esr"
)

// countingSameState is relate.SameState (every pair SAME_STATE, mechanism
// off) that counts the labels it is asked for.
type countingSameState struct{ calls *int }

func (countingSameState) Name() string       { return "same-state" }
func (countingSameState) MechanismOff() bool { return true }
func (c countingSameState) ForStream(*esr.Stream, []esr.Atom) esr.PairFunc {
	return func(a, b *esr.Atom) esr.Relation { *c.calls++; return esr.SameState }
}

// The render-only ledger of one long key is built without asking a label
// per pair (it was n(n-1)/2 of them, quadratic in the key's atoms), and
// equals the ledger ⊕ builds pair by pair.
func TestSameStateLedgerIsLinear(t *testing.T) {
	const n = 3000
	atoms := make([]esr.Atom, n)
	for i := range atoms {
		atoms[i] = esr.Atom{ID: fmt.Sprintf("a%d", i), Entity: "x", Attribute: "a", Value: fmt.Sprintf("v%d", i%4),
			Polarity: esr.Positive, EventIndex: i}
	}
	calls := 0
	l := esr.BuildLedger(&esr.Stream{ID: "s"}, atoms, countingSameState{&calls})
	if calls > n {
		t.Errorf("%d pair labels asked for %d atoms on one key (quadratic); want at most %d", calls, n, n)
	}
	// The same ledger, ⊕ applied atom by atom with every pair SAME_STATE.
	want := esr.NewLedger("s")
	want.MechanismOff = true
	same := func(a, b *esr.Atom) esr.Relation { return esr.SameState }
	for i := range atoms {
		want.Add(&atoms[i], same)
	}
	got, exp := l.Keys[0], want.Keys[0]
	if len(l.Keys) != 1 || !slices.Equal(got.Status, exp.Status) || !slices.Equal(got.ClosedBy, exp.ClosedBy) ||
		!slices.Equal(got.Active, exp.Active) || got.Snapshot() != exp.Snapshot() || got.StatusText() != "neutral" ||
		got.Prior() != exp.Prior() || !slices.Equal(got.CurrentValues(), exp.CurrentValues()) {
		t.Errorf("ledger differs from ⊕ pair by pair: status %v…, active %d of %d", got.Status[:4], len(got.Active), len(exp.Active))
	}
}
