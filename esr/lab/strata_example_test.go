package lab_test

import (
	"context"

	"github.com/esrkit/esrkit/esr/lab"
)

// The strata suite (§4.4): Table 5, each memory's snapshot accuracy per
// stratum beside the paper's (in parentheses).
func ExampleSuite_Run_strata() {
	res, err := lab.SuiteStrata.Suite().Run(context.Background(), exampleSetup())
	if err != nil {
		panic(err)
	}
	t, err := res.Table(lab.Table5Strata)
	if err != nil {
		panic(err)
	}
	show(t, nil, "stratum", "n", "RL", "GraphRAG+abstain", "Δ RL−GRA")
	// Output:
	// Table 5: per-stratum accuracy (snapshot), ours (paper)
	//
	// stratum                n    RL             GraphRAG+abstain  Δ RL−GRA
	// ---------------------  ---  -------------  ----------------  ---------------------------------
	// reverted_revert        30   0.700 (0.408)  0.667 (0.226)     +0.033 (too few discordant pairs)
	// monotonic              248  0.867 (0.343)  0.871 (0.279)     -0.004 [-0.040, +0.032]
	// cross_source_conflict  30   0.333 (0.039)  0.000 (0.099)     +0.333 [+0.200, +0.433]
	// refines                30   0.733 (0.262)  0.800 (0.348)     -0.067 [-0.200, +0.100]
}
