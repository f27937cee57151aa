package memory_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

// The tiers' examples: the ledger abstains on L1 and L2 (unresolved) and
// answers the reverted value on L3; the d-blind control abstains on all.
func TestTierExamples(t *testing.T) {
	for _, tier := range bench.Tiers() {
		qa := esr.QA{QID: tier.Stream.ID, Question: tier.Question, GoldAnswer: tier.Gold}
		k, _ := qa.Locate(tier.Atoms)
		q := qa.Query(k)
		fine := memory.MustBuild(memory.SpecOf(memory.FineLedger), tier.Stream, tier.Atoms, memory.Options{}).Answer(q)
		if fine.String() != tier.Gold {
			t.Errorf("%s: fine-ledger %v, want %s", tier.Name, fine, tier.Gold)
		}
		if got := memory.MustBuild(memory.SpecOf(memory.GraphRAGAbstain), tier.Stream, tier.Atoms, memory.Options{}).Answer(q); !got.Abstain {
			t.Errorf("%s: graphrag-abstain %v, want ABSTAIN", tier.Name, got)
		}
	}
}
