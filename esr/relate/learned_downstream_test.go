package relate_test

import (
	"fmt"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// queryAccuracy (a test helper: relate cannot import memory) answers the bench's QAs of query type qt and phenomenon ph
// from the fine ledger built with relation source r, by its structured
// read-out (the oracle reader): for each QA, key, _ := qa.Locate(atoms), and
// the QA is correct iff the ledger's Answer(qa.Query(key)) equals
// qa.GoldAnswer. It returns the number correct and the number asked. For the
// boundary-stratum question of the paper's §4.4 use
// (esr.RelationType, esr.Refinement).
func queryAccuracy(b *bench.Bench, r esr.Relator, qt esr.QueryType, ph esr.Phenomenon) (correct, n int, err error) {
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
			if st, err = memory.Build(memory.SpecOf(memory.FineLedger), s, atoms, memory.Options{Relator: r}); err != nil {
				return 0, 0, fmt.Errorf("relate: stream %q: %w", qa.StreamID, err)
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

// TestRelatorDownstream runs the learned scorers through the fine ledger and
// the relation-type read-out of the refines stratum.
func TestRelatorDownstream(t *testing.T) {
	b := relate.ToyBench(40, 1)
	r, err := relate.CrossValidateLearned(b, 5, 42, relate.LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	var _ esr.Relator = r.Full
	for _, rel := range []esr.Relator{relate.Oracle{Gold: b.Relations}, relate.Rule{}, r.OutOfFold(), r.Full} {
		c, n, err := queryAccuracy(b, rel, esr.RelationType, esr.Refinement)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatal("toy bench has no relation-type refines QAs")
		}
		t.Logf("%-12s relation-type accuracy on refines: %d/%d = %.3f", rel.Name(), c, n, float64(c)/float64(n))
		if rel.Name() == relate.OracleName && c != n {
			t.Errorf("oracle relations answer %d/%d refines QAs", c, n)
		}
	}
	s := b.Streams[0]
	st, err := memory.Build(memory.SpecOf(memory.FineLedger), s, b.Atoms[s.ID], memory.Options{Relator: r.OutOfFold()})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Rows()) == 0 {
		t.Error("empty ledger")
	}
	if m, err := relate.TrainLearned(b, relate.LearnedLambda); err != nil || m.Name() != relate.LearnedName || len(relate.MustWeights(m)) != relate.NumFeatures+1 {
		t.Errorf("Train: %v", err)
	}
}
