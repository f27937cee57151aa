package confound

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// TierTable is the paper's Figure 2 as a table: each conflict-locality tier
// with its live example and what a d-blind, a coarse and the fine memory
// answer on it (structured read-outs, rule scorer).
func TierTable() *eval.Table {
	t := &eval.Table{Name: "figure2-tiers", Title: "Figure 2: conflict locality determines memory need",
		Columns: []string{"tier", "where the conflict lives", "minimal capability", "example", "gold", memory.GraphRAGAbstain, memory.CoarseRetain, memory.FineLedger}}
	for _, tier := range bench.Tiers() {
		qa := esr.QA{QID: tier.Stream.ID, Question: tier.Question, GoldAnswer: tier.Gold}
		k, _ := qa.Locate(tier.Atoms)
		q := qa.Query(k)
		var texts []string
		for _, e := range tier.Stream.Events {
			texts = append(texts, e.ID+": "+e.Text)
		}
		row := []any{tier.Name, tier.Where, tier.Needs, join(texts), tier.Gold}
		for _, m := range []string{memory.GraphRAGAbstain, memory.CoarseRetain, memory.FineLedger} {
			row = append(row, memory.MustBuild(m, tier.Stream, tier.Atoms, memory.Options{}).Answer(q).String())
		}
		t.AddRow(row...)
	}
	t.Notes = []string{"answers are each memory's structured read-out (the oracle reader) with the rule scorer's relations",
		"tiers are a priority ordering: the highest applicable tier's state subsumes the lower ones through its status field"}
	return t
}
