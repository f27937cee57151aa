package relate

import (
	"github.com/esrkit/esrkit/esr"
)

// Oracle gives the gold relation of each pair from the benchmark's
// relations.jsonl. A pair without a gold label falls back to the reading of a
// clean single-source history: SAME_STATE when the states are equal,
// SUPERSEDES otherwise.
type Oracle struct {
	Gold map[string]map[esr.AtomPair]esr.Relation
}

func (Oracle) Name() string { return OracleName }

func (o Oracle) ForStream(s *esr.Stream, _ []esr.Atom) esr.PairFunc {
	gold := o.Gold[s.ID]
	return func(a, b *esr.Atom) esr.Relation {
		if r, ok := gold[esr.AtomPair{A: a.ID, B: b.ID}]; ok {
			return r
		}
		if a.State() == b.State() {
			return esr.SameState
		}
		return esr.Supersedes
	}
}
