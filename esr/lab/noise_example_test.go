package lab_test

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/paper"
)

// The noise suite (§4.2, Appendix C) sweeps relation-label noise and atom
// dropout over the paper's levels, seeded alike in both arms; Table 13 is
// fine − coarse at each level, and NoiseSentence reads one sweep.
func ExampleNoiseSentence() {
	s := exampleSetup()
	res, err := lab.SuiteNoise.Suite().Run(context.Background(), s)
	if err != nil {
		panic(err)
	}
	t, err := res.Table(lab.Table13NoiseSweeps)
	if err != nil {
		panic(err)
	}
	show(t, nil, "p", "relation noise Δ", "atom dropout Δ", "n")
	fmt.Println(lab.NoiseSentence(res.Rows, eval.AtomDropoutAxis, paper.NoiseLevels, s.Stats))
	// Output:
	// Table 13: fine − coarse under controlled noise (reverted-revert, snapshot)
	//
	// p    relation noise Δ  atom dropout Δ  n
	// ---  ----------------  --------------  --
	// 0.0  -0.100            -0.100          30
	// 0.1  -0.133            -0.100          30
	// 0.2  -0.167            -0.133          30
	// 0.3  -0.167            -0.133          30
	// 0.4  -0.067            -0.067          30
	// 0.5  -0.233            -0.100          30
	// Under atom-dropout, fine-ledger goes from 0.700 at p = 0.0 to 0.633 at p = 0.5 (-0.067); coarse-retain from 0.800 to 0.733 (-0.067). At p = 0.0, fine − coarse (fine-ledger − coarse-retain) is -0.100, too few discordant pairs for a 95% interval or a verdict (n = 30, 3 discordant pairs). At p = 0.5, fine − coarse (fine-ledger − coarse-retain) is -0.100, too few discordant pairs for a 95% interval or a verdict (n = 30, 3 discordant pairs).
}
