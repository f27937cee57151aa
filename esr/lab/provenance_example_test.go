package lab_test

import (
	"context"

	"github.com/esrkit/esrkit/esr/lab"
)

// The provenance suite (§4.3): Figure 3's provenance accuracy by retention
// class, from retained state only.
func ExampleSuite_Run_provenance() {
	res, err := lab.SuiteProvenance.Suite().Run(context.Background(), exampleSetup())
	if err != nil {
		panic(err)
	}
	t, err := res.Table(lab.Figure3Provenance)
	if err != nil {
		panic(err)
	}
	show(t, nil, "class / comparison", "n", "ours", "paper")
	// Output:
	// Figure 3: provenance accuracy from retained state only
	//
	// class / comparison  n    ours    paper
	// ------------------  ---  ------  ------
	// coarse-discard      184  0.000   0.243
	// graphrag-abstain    184  0.761   0.439
	// coarse-retain       184  0.902   0.604
	// fine-ledger         184  0.739   0.715
	// fine − discard      184  +0.739  +0.472
	// retain − discard    184  +0.902  +0.361
	// fine − retain       184  -0.163  +0.111
}
