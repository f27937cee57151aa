package lab_test

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"
)

// The facets suite on the first 30 packages of the bundled Debian
// changelogs, read by the oracle (each class's own structured answer):
// what answering from one single-valued key costs against a key per
// distribution (FacetCosts, FacetSentences).
func ExampleFacetSentences() {
	s := lab.Setup{Bench: bundled("debian", 30), Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 500, Seed: 1}}
	res, err := lab.SuiteFacets.Suite().Run(context.Background(), s)
	if err != nil {
		panic(err)
	}
	cs, err := lab.FacetCosts(res.Rows, s.Stats)
	if err != nil {
		panic(err)
	}
	for _, line := range lab.FacetSentences(cs) {
		fmt.Println(line)
	}
	// Output:
	// On snapshot questions the largest cost of a single-valued key is coarse-retain's: snapshot (coarse-retain − coarse-retain [single-valued-key]) is +0.464 [+0.339, +0.599], positive (the 95% interval excludes 0) (n = 56). The smallest is graphrag-abstain's: snapshot (graphrag-abstain − graphrag-abstain [single-valued-key]) is +0.179 [+0.089, +0.268], positive (the 95% interval excludes 0) (n = 56).
	// On provenance questions the largest cost of a single-valued key is coarse-retain's: provenance (coarse-retain − coarse-retain [single-valued-key]) is +0.467 [+0.311, +0.600], positive (the 95% interval excludes 0) (n = 45). The smallest is graphrag-abstain's: provenance (graphrag-abstain − graphrag-abstain [single-valued-key]) is +0.000 [+0.000, +0.000], not distinguishable from 0 (the 95% interval contains 0) (n = 45).
	// On relation-type questions the largest cost of a single-valued key is fine-ledger's: relation-type (fine-ledger − fine-ledger [single-valued-key]) is +0.044, too few discordant pairs for a 95% interval or a verdict (n = 45, 4 discordant pairs). The smallest is coarse-retain's: relation-type (coarse-retain − coarse-retain [single-valued-key]) is +0.000 [+0.000, +0.000], not distinguishable from 0 (the 95% interval contains 0) (n = 45).
}
