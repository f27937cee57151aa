// Package history holds what the importers share about a clean,
// single-source value history (one key, atoms in time order): its gold
// relations and its stratum.
package history

import "github.com/esrkit/esrkit/esr"

// Gold labels every pair (earlier, later) of a clean history: SAME_STATE
// when the two atoms hold the same state, SUPERSEDES otherwise (the reading
// relate.Oracle falls back to).
func Gold(as []esr.Atom) map[esr.AtomPair]esr.Relation {
	gold := map[esr.AtomPair]esr.Relation{}
	for i := range as {
		for j := i + 1; j < len(as); j++ {
			r := esr.Supersedes
			if as[i].State() == as[j].State() {
				r = esr.SameState
			}
			gold[esr.AtomPair{A: as[i].ID, B: as[j].ID}] = r
		}
	}
	return gold
}

// Phenomenon is reverted_revert when a state returns after another held,
// monotonic otherwise.
func Phenomenon(as []esr.Atom) esr.Phenomenon {
	seen := map[string]bool{}
	prev := ""
	for i := range as {
		st := as[i].State()
		if i > 0 && st == prev {
			continue
		}
		if seen[st] {
			return esr.RevertedRevert
		}
		seen[st], prev = true, st
	}
	return esr.Monotonic
}
