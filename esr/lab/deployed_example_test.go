package lab_test

import (
	"context"
	"strings"

	"github.com/esrkit/esrkit/esr/lab"
)

// The deployed suite: the SIMULATED models of Graphiti and Mem0
// (lab.DeployedClasses) decomposed, like Table 2, against the d-blind
// baseline: what their content, render and mechanism each add, over all
// questions.
func ExampleSuite_Run_deployed() {
	s := exampleSetup()
	res, err := lab.SuiteDeployed.Suite().Run(context.Background(), s)
	if err != nil {
		panic(err)
	}
	t, err := res.Table(lab.DeployedDecomposition.On(s.Bench.Name()))
	if err != nil {
		panic(err)
	}
	allQAs := func(cells []string) bool { return strings.HasPrefix(cells[2], "all") }
	show(t, allQAs, "class", "n", "total", "content", "render", "mechanism")
	// Output:
	// Deployed-system models (not the idealised coarse-retain) under the render-matched protocol, with a content term: bench
	//
	// class             n    total                    content                  render                   mechanism
	// ----------------  ---  -----------------------  -----------------------  -----------------------  -----------------------
	// graphiti          706  +0.034 [-0.010, +0.075]  -0.025 [-0.068, +0.014]  -0.210 [-0.232, -0.182]  +0.269 [+0.239, +0.300]
	// graphiti-current  706  -0.399 [-0.459, -0.336]  -0.025 [-0.068, +0.014]  -0.210 [-0.232, -0.182]  -0.164 [-0.202, -0.126]
	// mem0-v3           706  -0.003 [-0.020, +0.014]  -0.003 [-0.020, +0.014]  +0.000 [+0.000, +0.000]  +0.000 [+0.000, +0.000]
	// mem0-update       706  -0.402 [-0.465, -0.338]  -0.003 [-0.020, +0.014]  +0.000 [+0.000, +0.000]  -0.399 [-0.458, -0.338]
}
