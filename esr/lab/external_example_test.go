package lab_test

import (
	"context"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
)

// The external suite (Appendix D) on the first 40 streams of the bundled
// DyKnow conversion: provenance accuracy by retention class.
func ExampleSuite_Run_external() {
	b := bundled("dyknow", 40)
	s := lab.Setup{Bench: b, Readers: scripted("status-reader"), Stats: eval.StatOptions{B: 500, Seed: 1}}
	res, err := lab.SuiteExternal.Suite().Run(context.Background(), s)
	if err != nil {
		panic(err)
	}
	t, err := res.Table(lab.AppendixDProvenance.On(b.Name()))
	if err != nil {
		panic(err)
	}
	show(t, nil, "class", "n", "ours", "paper (TempLAMA)")
	// Output:
	// Appendix D analogue: provenance by retention class on dyknow (exact match)
	//
	// class             n   ours   paper (TempLAMA)
	// ----------------  --  -----  ----------------
	// coarse-discard    34  0.000  0.061
	// graphrag-abstain  34  0.971  0.329
	// coarse-retain     34  1.000  0.576
	// fine-ledger       34  1.000  0.902
}
