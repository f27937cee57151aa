package eval_test

import (
	"context"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// A registered memory and its registered control run through the engine
// like the built-in ones, and MechanismTerms decomposes the gain.
func TestCustomMemoryDecomposition(t *testing.T) {
	name := memory.Class("test-coarse-copy")
	if err := memory.Register(name, func(s *esr.Stream, atoms []esr.Atom, opt memory.Options) memory.State {
		return memory.MustBuild(memory.SpecOf(memory.FineLedger), s, atoms, opt)
	}); err != nil {
		t.Fatal(err)
	}
	control, err := memory.RegisterRenderMatched(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := memory.RegisterRenderMatched("nope"); err == nil {
		t.Error("control of an unregistered class accepted")
	}
	if err := memory.Register(memory.FineLedger, nil); err == nil {
		t.Error("re-registering a built-in accepted")
	}
	b := benchtest.Mini(10)
	rows, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: []memory.Spec{memory.SpecOf(name), control, memory.SpecOf(memory.GraphRAGAbstain)},
		Readers: []reader.Reader{reader.Oracle{}}, QueryTypes: []esr.QueryType{esr.Snapshot}})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := eval.CompareTerms(rows, eval.MechanismTerms(memory.SpecOf(name), control, memory.SpecOf(memory.GraphRAGAbstain)),
		eval.Phenomenon("reverted_revert"), eval.StatOptions{B: 200})
	if err != nil || len(cs) != 3 {
		t.Fatalf("%v %v", cs, err)
	}
	// Oracle reader: the control is d-blind (abstains on reverts), the
	// memory recovers the value: all of the gain is mechanism.
	if cs[0].Delta != 1 || cs[1].Delta != 0 || cs[2].Delta != 1 {
		t.Errorf("terms %v", cs)
	}
}
