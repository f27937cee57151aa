package relate

import "github.com/esrkit/esrkit/esr"

// SameState labels every co-keyed pair SAME_STATE: the render-matched
// control's relation source (paper §4.1), which switches the deprecation
// mechanism off while the ledger layout stays the same.
type SameState struct{}

func (SameState) Name() string { return sameStateName }

func (SameState) ForStream(*esr.Stream, []esr.Atom) esr.PairFunc {
	return func(a, b *esr.Atom) esr.Relation { return esr.SameState }
}

// MechanismOff marks SameState as the mechanism-off source: ledgers built
// under it show the status "neutral" (esr.SwitchesMechanismOff).
func (SameState) MechanismOff() bool { return true }
