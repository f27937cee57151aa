package lab_test

import (
	"context"

	"github.com/esrkit/esrkit/esr/lab"
)

// The checks suite (Appendices G and H): Table 20 tests RevisionLedger −
// GraphRAG+abstain per stratum with an exact permutation test and Holm's
// correction within each reader family.
func ExampleSuite_Run_checks() {
	res, err := lab.SuiteChecks.Suite().Run(context.Background(), exampleSetup())
	if err != nil {
		panic(err)
	}
	t, err := res.Table(lab.Table20PermutationHolm)
	if err != nil {
		panic(err)
	}
	show(t, nil, "family", "stratum", "n", "Δ", "Holm-adjusted p", "reject")
	// Output:
	// Table 20: RL − GraphRAG+abstain per stratum, permutation p with Holm (α = 0.05) per family
	//
	// family                  stratum                n    Δ       Holm-adjusted p  reject
	// ----------------------  ---------------------  ---  ------  ---------------  ------
	// scripted:status-reader  reverted_revert        15   +0.067  1.0000           ×
	// scripted:status-reader  monotonic              124  -0.008  1.0000           ×
	// scripted:status-reader  cross_source_conflict  15   +0.667  0.0078           ✓
	// scripted:status-reader  refines                15   -0.133  1.0000           ×
	// scripted:time-sorter    reverted_revert        15   +0.000  1.0000           ×
	// scripted:time-sorter    monotonic              124  +0.000  1.0000           ×
	// scripted:time-sorter    cross_source_conflict  15   +0.000  1.0000           ×
	// scripted:time-sorter    refines                15   +0.000  1.0000           ×
}
