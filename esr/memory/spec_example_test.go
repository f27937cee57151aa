package memory_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/memory"
)

// A memory's identity is a typed Spec; its name is parsed and printed only
// at the edge. The render-matched control and the content-matched baseline
// are specs built from it, not strings spliced together.
func ExampleParseSpec() {
	s, err := memory.ParseSpec("graphiti@paraphrase=0.3")
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Class, s.Params.Paraphrase.Value, s.Control)
	fmt.Println(s.RenderMatched())
	fmt.Println(s.ContentMatched())
	_, err = memory.ParseSpec("graphiti@paraphrase=2")
	fmt.Println(err)
	// Output:
	// graphiti 0.3 false
	// graphiti@paraphrase=0.3~render-only
	// graphrag-abstain@kept=graphiti@paraphrase=0.3~render-only
	// memory class "graphiti@paraphrase=2": parameter paraphrase=2: want a probability in [0, 1]
}

// One display table names every memory: what the kit calls it and what the
// paper calls it. The paper's "Graphiti" is coarse-retain, an idealised
// store; memory.Graphiti is the kit's model of the deployed system. Neither
// is displayed as plain "Graphiti".
func ExampleClass_Paper() {
	for _, c := range []memory.Class{memory.FineLedger, memory.CoarseRetain, memory.Graphiti} {
		fmt.Printf("%s: %s (%s)\n", c, c.Paper(), c.Abbrev())
	}
	// Output:
	// fine-ledger: RevisionLedger (RL)
	// coarse-retain: coarse-retain (idealised Graphiti) (coarse-retain (idealised Graphiti))
	// graphiti: graphiti (deployed-system model, full history) (graphiti (deployed-system model, full history))
}
