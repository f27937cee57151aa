package theory

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

// dBlindClasses are the memory classes whose structured read-out never reads
// the deprecation marker d: the class A_{EK+Tv} of Proposition 1 (render-only
// runs the ledger code with every relation forced to SAME_STATE, so it is
// d-blind in state).
var dBlindClasses = []memory.Class{memory.DirectContext, memory.RAGTopK, memory.LatestOnly,
	memory.GraphRAGLite, memory.GraphRAGAbstain, memory.RenderOnly}

// dAwareClasses are the classes that read d: coarse invalidation (discarding
// and retaining) and the fine-typed ledger.
var dAwareClasses = []memory.Class{memory.CoarseDiscard, memory.CoarseRetain, memory.FineLedger}

// isDBlind reports whether the class is one of dBlindClasses.
func isDBlind(class memory.Class) bool {
	for _, c := range dBlindClasses {
		if c == class {
			return true
		}
	}
	return false
}

// correct scores an answer against a gold answer as judge.Exact does: an
// abstention is correct exactly when gold abstains, a value when its
// normalised form equals gold's.
func correct(got, gold esr.Answer) bool {
	if got.Abstain || gold.Abstain {
		return got.Abstain && gold.Abstain
	}
	return esr.NormalizeValue(got.Value) == esr.NormalizeValue(gold.Value)
}

// acc is k/n, or 0 when n is 0.
func acc(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// build is bench.Build with atom ids prefixed by the stream id, so ids are
// unique across streams: a bench of generated streams loads, and
// relate.RelationNoise (which draws per pair of atom ids) corrupts each
// stream independently.
func build(streamID string, k esr.Key, events []bench.Event) (*esr.Stream, []esr.Atom) {
	s, atoms := bench.Build(streamID, k, events)
	for i := range atoms {
		atoms[i].ID = streamID + "-" + atoms[i].ID
	}
	return s, atoms
}
