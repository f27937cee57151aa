package esr

// ReadOut is the oracle read-out g(Π, values) of the paper's Proposition 2b:
// given each atom's live/dead bit and the atoms' values, the snapshot answer
// is the value of the live atoms, or ABSTAIN when they disagree or none is
// live. It reads nothing else, in particular no relation type: that is the
// sense in which the partition Π is sufficient for snapshot queries.
// atoms must be in transaction order; the surface form is the newest live
// atom's.
func ReadOut(atoms []*Atom, live []bool) Answer {
	if len(atoms) != len(live) {
		panic("esr: ReadOut needs one live bit per atom")
	}
	last := -1
	for i, a := range atoms {
		if !live[i] {
			continue
		}
		if last >= 0 && a.State() != atoms[last].State() {
			return Abstain
		}
		last = i
	}
	if last < 0 {
		return Abstain
	}
	return Says(atoms[last].Display())
}

// Partition is Π for a key's ledger: true for atoms in the active set M.
func (l *KeyLedger) Partition() []bool {
	live := make([]bool, len(l.Atoms))
	for _, i := range l.Active {
		live[i] = true
	}
	return live
}
