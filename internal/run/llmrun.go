package run

import (
	"github.com/esrkit/esrkit/esr/boundary"
	"github.com/esrkit/esrkit/esr/experiment"

	"github.com/esrkit/esrkit/esr/eval"

	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/llm"
	"gonum.org/v1/plot"
)

// LLM runs at scale: the expensive part (sending requests) runs outside
// notebooks, in `esr run all` (`make llm-cache`), which fills the response
// cache; notebooks then read cached answers only. This file holds what the
// CLI and the notebooks share for that.

// DefaultReaderSpec is the reader list of the notebooks and `esr run`'s
// default: "llm" (every model of ESR_LLM_MODELS) when models are named or
// ESR_LLM_BASE_URL is set, else the calibrated simulated families
// (CalibratedFamilies: one sim reader per paper family, fitted to the
// paper's Tables 16–17).
func DefaultReaderSpec(getenv func(string) string) string {
	g := llm.Getenv(getenv)
	if len(llm.SplitModels(g(llm.EnvModels))) > 0 || strings.TrimSpace(g(llm.EnvBaseURL)) != "" {
		return "llm"
	}
	return strings.Join(CalibratedFamilies(), ",")
}

// NotebookOffline reports whether notebooks read LLM answers from the
// cache only: always, unless ESR_LLM_ONLINE=1. A notebook cell that finds
// an answer missing then stops at once with an *llm.NotCachedError naming
// the command to run, instead of sending requests for hours under the
// runner's cell timeout.
func NotebookOffline(getenv func(string) string) bool {
	return strings.TrimSpace(llm.Getenv(getenv)(llm.EnvOnline)) != "1"
}

// RunAllStep is one evaluation the notebooks make: a suite on a bundled
// benchmark, or the quickstart's answer grid (Suite "").
type RunAllStep struct {
	Suite string
	Bench string
}

// Name is the step's name ("quickstart" for the grid; SUITE-BENCH when a
// suite runs on several benchmarks).
func (st RunAllStep) Name() string {
	if st.Suite == "" {
		return "quickstart"
	}
	if st.Suite == "deployed" {
		return st.Suite + "-" + st.Bench
	}
	return st.Suite
}

// RunAllSteps are the notebooks' evaluations over the benchmarks in
// dataDir: the quickstart grid on the Figure 1 stream and every suite, on
// dyknow for "external", on each of synthetic, dyknow and vdyknow that
// dataDir holds for "deployed" (notebook 45), and on synthetic otherwise.
func RunAllSteps(dataDir string) []RunAllStep {
	steps := []RunAllStep{{Suite: "", Bench: ""}}
	for _, n := range SuiteNames() {
		switch n {
		case "external":
			steps = append(steps, RunAllStep{Suite: n, Bench: "dyknow"})
		case "deployed":
			for _, b := range []string{"synthetic", "dyknow", "vdyknow"} {
				if _, err := os.Stat(filepath.Join(dataDir, b)); err == nil {
					steps = append(steps, RunAllStep{Suite: n, Bench: b})
				}
			}
		default:
			steps = append(steps, RunAllStep{Suite: n, Bench: "synthetic"})
		}
	}
	return steps
}

// StepSetup is the Setup a notebook uses for a step: the benchmark under
// dataDir, the readers, the default statistics and memory options.
func StepSetup(dataDir string, st RunAllStep, rs []reader.Reader, benches map[string]*bench.Bench) (Setup, error) {
	s := Setup{Readers: rs, Stats: eval.DefaultStats}
	if st.Bench == "" {
		return s, nil
	}
	if st.Suite == "deployed" {
		// The reference adapter runs beside the deployed classes when the
		// repository holds it (a data folder elsewhere has none).
		if a := filepath.Join(dataDir, "..", boundary.ReferenceAdapter); fileExists(a) {
			s.Adapter = a
		}
	}
	b := benches[st.Bench]
	if b == nil {
		var err error
		if b, err = bench.Load(filepath.Join(dataDir, st.Bench)); err != nil {
			return s, err
		}
		if benches != nil {
			benches[st.Bench] = b
		}
	}
	s.Bench = b
	return s, nil
}

// EvaluateStep evaluates one step's rows (the grid's answers are read but
// give no rows).
func EvaluateStep(ctx context.Context, st RunAllStep, s Setup) (*Result, error) {
	if st.Suite == "" {
		stream, atoms := bench.Figure1()
		t, err := experiment.AnswerGrid(ctx, stream, atoms, bench.Figure1QA(), memory.Names, s.Readers, memory.Options{})
		if err != nil {
			return nil, err
		}
		return &Result{Name: "quickstart", Tables: []*eval.Table{t}, Figures: map[string]*plot.Plot{}}, nil
	}
	su, ok := Suites[st.Suite]
	if !ok {
		return nil, fmt.Errorf("unknown suite %q", st.Suite)
	}
	return su.Run(ctx, s)
}

// PlanSteps runs the steps as a dry run (llm.WithPlan): nothing is sent,
// and the plan counts the requests per model, cached or not.
func PlanSteps(ctx context.Context, dataDir string, steps []RunAllStep, rs []reader.Reader) (*llm.Plan, error) {
	plan := llm.NewPlan()
	pctx := llm.WithPlan(ctx, plan)
	benches := map[string]*bench.Bench{}
	for _, st := range steps {
		s, err := StepSetup(dataDir, st, rs, benches)
		if err != nil {
			return nil, err
		}
		if _, err := EvaluateStep(pctx, st, s); err != nil {
			return nil, fmt.Errorf("%s: %w", st.Name(), err)
		}
	}
	return plan, nil
}

// LLMEstimate is what filling the notebooks' LLM answers would send: per
// model, the distinct requests, how many are cached and the estimated
// prompt tokens, for the readers of DefaultReaderSpec over the bundled
// benchmarks under root/data, with the cache under root/.esr-cache/llm.
// Nothing is sent. Notebooks can show it before any long run; `esr run all
// --dry-run` prints the same numbers.
func LLMEstimate(ctx context.Context, root string) ([]llm.PlanModel, error) {
	rs, err := reader.ParseList(DefaultReaderSpec(nil), reader.Config{CacheDir: filepath.Join(root, ".esr-cache", "llm"), Offline: true})
	if err != nil {
		return nil, err
	}
	defer closeReaders(rs)
	plan, err := PlanSteps(ctx, filepath.Join(root, "data"), RunAllSteps(filepath.Join(root, "data")), rs)
	if err != nil {
		return nil, err
	}
	return plan.Models(), nil
}

func closeReaders(rs []reader.Reader) {
	for _, r := range rs {
		if c, ok := r.(interface{ Close() error }); ok {
			c.Close()
		}
	}
}

// defaultReaders is DefaultReaders with the environment given.
func defaultReaders(cacheDir string, getenv func(string) string) ([]reader.Reader, error) {
	cfg := reader.Config{CacheDir: filepath.Join(cacheDir, "llm"), Offline: NotebookOffline(getenv), Getenv: getenv}
	return reader.ParseList(DefaultReaderSpec(getenv), cfg)
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
