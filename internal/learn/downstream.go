package learn

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

// QueryAccuracy answers the bench's QAs of query type qt and phenomenon ph
// from the fine ledger built with relation source r, by its structured
// read-out (the oracle reader): for each QA, key, _ := qa.Locate(atoms), and
// the QA is correct iff the ledger's Answer(qa.Query(key)) equals
// qa.GoldAnswer. It returns the number correct and the number asked. For the
// boundary-stratum question of the paper's §4.4 use
// (esr.RelationType, esr.Refinement).
func QueryAccuracy(b *bench.Bench, r esr.Relator, qt esr.QueryType, ph esr.Phenomenon) (correct, n int, err error) {
	states := map[string]memory.State{}
	for i := range b.QAs {
		qa := &b.QAs[i]
		if qa.Type() != qt || qa.Phenomenon != ph {
			continue
		}
		s := b.Stream(qa.StreamID)
		atoms := b.Atoms[qa.StreamID]
		st := states[qa.StreamID]
		if st == nil {
			if st, err = memory.Build(memory.FineLedger, s, atoms, memory.Options{Relator: r}); err != nil {
				return 0, 0, fmt.Errorf("learn: stream %q: %w", qa.StreamID, err)
			}
			states[qa.StreamID] = st
		}
		n++
		key, ok := qa.Locate(atoms)
		if ok && st.Answer(qa.Query(key)).String() == qa.GoldAnswer {
			correct++
		}
	}
	return correct, n, nil
}
