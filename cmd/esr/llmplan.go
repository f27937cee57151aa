package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// planSteps runs the steps as a dry run (llm.WithPlan): nothing is sent,
// and the plan counts the requests per model, cached or not.
func planSteps(ctx context.Context, dataDir string, steps []lab.RunAllStep, rs []reader.Reader) (*llm.Plan, error) {
	plan := llm.NewPlan()
	pctx := llm.WithPlan(ctx, plan)
	benches := map[string]*bench.Bench{}
	for _, st := range steps {
		s, err := lab.StepSetup(dataDir, st, rs, benches)
		if err != nil {
			return nil, err
		}
		if _, err := lab.EvaluateStep(pctx, st, s); err != nil {
			return nil, fmt.Errorf("%s: %w", st.Name(), err)
		}
	}
	return plan, nil
}

// llmEstimate is what filling the notebooks' LLM answers would send: per
// model, the distinct requests, how many are cached and the estimated
// prompt tokens, for the readers of DefaultReaderSpec over the bundled
// benchmarks under root/data, with the cache under root/.esr-cache/llm.
// Nothing is sent. Notebooks can show it before any long run; `esr run all
// --dry-run` prints the same numbers.
func llmEstimate(ctx context.Context, root string) ([]llm.PlanModel, error) {
	rs, err := reader.ParseList(lab.DefaultReaderSpec(nil), llm.Setup{CacheDir: filepath.Join(root, ".esr-cache", "llm"), Offline: true}, sim.Readers)
	if err != nil {
		return nil, err
	}
	defer closeReaders(rs)
	plan, err := planSteps(ctx, filepath.Join(root, "data"), lab.RunAllSteps(filepath.Join(root, "data")), rs)
	if err != nil {
		return nil, err
	}
	return plan.Models(), nil
}
