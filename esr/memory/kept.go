package memory

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
)

// KeptAtoms is implemented by states that may hold fewer atoms than they
// were given: a deployed system can drop a fact at ingestion (Graphiti's
// fast path and LLM duplicate judgement reuse an old edge; Mem0's hash
// dedup and extraction skip drop a memory), with the mechanism on or off.
type KeptAtoms interface {
	// KeptAtomIDs lists the ids of the atoms whose value and date the state
	// holds, in ingest order.
	KeptAtomIDs() []string
}

// buildContentMatched builds graphrag-abstain over the atoms sp's kept
// class kept (built from the same stream and options, without the deployed
// render's raw events).
func buildContentMatched(sp Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	kept := sp.Params.Kept.Spec()
	inner := opt
	inner.Deployed = false
	st, err := build(kept, kept.String(), s, atoms, inner)
	if err != nil {
		return nil, fmt.Errorf("memory class %q: kept: %w", name, err)
	}
	k, ok := st.(KeptAtoms)
	if !ok {
		return nil, fmt.Errorf("memory class %q: %s does not report the atoms it kept (memory.KeptAtoms)", name, kept)
	}
	ids := map[string]bool{}
	for _, id := range k.KeptAtomIDs() {
		ids[id] = true
	}
	sub := make([]esr.Atom, 0, len(ids))
	for i := range atoms {
		if ids[atoms[i].ID] {
			sub = append(sub, atoms[i])
		}
	}
	base, err := buildGraphRAGAbstain(SpecOf(GraphRAGAbstain), GraphRAGAbstain, s, sub, inner)
	if err != nil {
		return nil, err
	}
	return keptState{State: base, name: name, kept: k.KeptAtomIDs()}, nil
}

// keptState is graphrag-abstain over a kept subset, under its own name.
type keptState struct {
	State
	name string
	kept []string
}

func (k keptState) Class() string         { return k.name }
func (k keptState) KeptAtomIDs() []string { return k.kept }
