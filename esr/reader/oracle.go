package reader

import (
	"context"
)

// Oracle reads the memory's structured state (its Answer method), ignoring
// the render: the render-invariant upper bound of each memory class.
type Oracle struct{}

func (Oracle) Spec() Spec     { return Spec{Kind: KindOracle} }
func (Oracle) Family() Family { return Family{Kind: KindOracle} }

func (Oracle) Read(_ context.Context, in Input) (Output, error) {
	a := in.State.Answer(in.Query)
	return Output{Answer: a, Raw: a.String(), ContextTokens: CountTokens(in.Context)}, nil
}
