package lab_test

import (
	"context"

	"github.com/esrkit/esrkit/esr/lab"
)

// The boundary suite (§4.4, Appendix B): on cross-source conflicts, the
// fine ledger's abstain rate as each oracle stage is added (Tables 7–9).
func ExampleSuite_Run_boundary() {
	res, err := lab.SuiteBoundary.Suite().Run(context.Background(), exampleSetup())
	if err != nil {
		panic(err)
	}
	t, err := res.Table(lab.Table9CSCChain)
	if err != nil {
		panic(err)
	}
	show(t, nil, "stage", "n", "acc (= abstain rate)", "paper acc")
	// Output:
	// Tables 7–9: cross-source-conflict path recall (fine-ledger, cumulative oracle stages)
	//
	// stage                             n   acc (= abstain rate)  paper acc
	// --------------------------------  --  --------------------  ---------
	// baseline                          30  0.333                 0.039
	// pair-oracle                       30  0.500                 0.041
	// row-oracle                        30  0.500                 0.058
	// strict-decode                     30  1.000                 0.284
	// GraphRAG+abstain (baseline)       30  0.000                 —
	// GraphRAG+abstain (pair-oracle)    30  0.000                 —
	// GraphRAG+abstain (row-oracle)     30  0.000                 —
	// GraphRAG+abstain (strict-decode)  30  0.000                 —
}
