package relate

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// AuditRelations walks every gold-labelled co-keyed pair of b (for each
// stream in b.Streams order, pairs of b.Atoms[stream] in transaction order)
// and returns the gold label and pred's label for it, pred's PairFunc
// applied as the gold pair is oriented (earlier atom first, as relations.jsonl
// writes them). Pairs of atoms on different keys are skipped. Streams with no
// gold relations contribute nothing.
func AuditRelations(b *bench.Bench, pred esr.Relator) (gold, predicted []esr.Relation) {
	for _, s := range b.Streams {
		g := b.Relations[s.ID]
		if len(g) == 0 {
			continue
		}
		atoms := b.Atoms[s.ID]
		f := pred.ForStream(s, atoms)
		for i := range atoms {
			for j := range atoms {
				if i == j || atoms[i].Key() != atoms[j].Key() {
					continue
				}
				r, ok := g[esr.AtomPair{A: atoms[i].ID, B: atoms[j].ID}]
				if !ok {
					continue
				}
				gold = append(gold, r)
				predicted = append(predicted, f(&atoms[i], &atoms[j]))
			}
		}
	}
	return gold, predicted
}
