package lab_test

import (
	"context"

	"github.com/esrkit/esrkit/esr/lab"
)

// The formats suite: Table 17 runs the render-matched trio once per ledger
// format, and splits RevisionLedger − GraphRAG+abstain into render and
// fine residual under each.
func ExampleSuite_Run_formats() {
	res, err := lab.SuiteFormats.Suite().Run(context.Background(), exampleSetup())
	if err != nil {
		panic(err)
	}
	t, err := res.Table(lab.Table17RenderFormats)
	if err != nil {
		panic(err)
	}
	show(t, nil, "term", "compact (COMP)", "minimal (MIN)", "json (JSON)")
	// Output:
	// Table 17: render-format ablation on reverted-revert, pooled (fine-ledger and render-only share each format)
	//
	// term           compact (COMP)                     minimal (MIN)            json (JSON)
	// -------------  ---------------------------------  -----------------------  ---------------------------------
	// RL − GRA       +0.033 (too few discordant pairs)  -0.300 [-0.500, -0.083]  +0.033 (too few discordant pairs)
	// render         +0.000 [+0.000, +0.000]            -0.667 [-0.867, -0.400]  +0.000 [+0.000, +0.000]
	// fine residual  +0.033 (too few discordant pairs)  +0.367 [+0.267, +0.467]  +0.033 (too few discordant pairs)
}
