package lab

import (
	"context"

	"github.com/esrkit/esrkit/esr/deployed"
	"github.com/esrkit/esrkit/esr/suite"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/eval"
)

// deployedSuite evaluates the deployed classes (and suite.Setup.Adapter's exec:
// adapter, when set) with their controls and the d-blind baseline, and
// reports their decomposition (notebook 45, `esr run deployed`).
var deployedSuite = suite.Suite{Name: "deployed", Doc: "deployed memories (Graphiti, Mem0, an exec: adapter) under the render-matched protocol",
	Evaluate: func(ctx context.Context, s suite.Setup) ([]eval.Outcome, error) {
		return deployed.Evaluate(ctx, s.Bench, deployed.Classes(s.Adapter), s.Readers)
	},
	Report: func(rows []eval.Outcome, s suite.Setup) (*suite.Result, error) {
		res := &suite.Result{Name: "deployed", Rows: rows, Figures: map[string]*plot.Plot{}}
		t, _, err := deployed.Decomposition(rows, s.Bench.Name(), deployed.Classes(s.Adapter), s.Stats)
		res.Add("deployed-decomposition-"+s.Bench.Name(), t, err)
		return res, nil
	}}
