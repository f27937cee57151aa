package lab

import (
	"context"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/eval"
)

// deployedSuite evaluates the deployed classes (and Setup.Adapter's exec:
// adapter, when set) with their controls and the d-blind baseline, and
// reports their decomposition (notebook 45, `esr run deployed`).
var deployedSuite = Suite{Name: SuiteDeployed, Benches: []string{mainBench, "dyknow", "vdyknow"}, ReferenceAdapter: true, Doc: "deployed memories (Graphiti, Mem0, an exec: adapter) under the render-matched protocol",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		return evaluateDeployed(ctx, s.Bench, Classes(s.Adapter), s.Readers)
	},
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		res := &Result{Name: "deployed", Rows: rows, Figures: map[FigureID]*plot.Plot{}}
		id := DeployedDecomposition.On(s.Bench.Name())
		t, sentences, err := decompositionTable(rows, s.Bench.Name(), Classes(s.Adapter), s.Stats)
		res.Add(id, t, err)
		if err == nil {
			res.Verdicts = map[TableID][]string{id: sentences}
		}
		return res, nil
	},
	// The deployed classes run under paper.DeployedOptions (the rule
	// scorer standing in for their LLM judgements).
	OwnRelations: true}
