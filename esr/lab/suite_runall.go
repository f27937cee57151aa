package lab

import (
	"strings"

	"github.com/esrkit/esrkit/esr/eval"

	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"gonum.org/v1/plot"
)

// LLM runs at scale: the expensive part (sending requests) runs outside
// notebooks, in `esr run all` (`make llm-cache`), which fills the response
// cache; notebooks then read cached answers only. This file holds what the
// CLI and the notebooks share for that.

// RunAllStep is one evaluation the notebooks make: a suite on a bundled
// benchmark, or the quickstart's answer grid (Suite "").
type RunAllStep struct {
	Suite SuiteID
	Bench string
}

// Name is the step's name ("quickstart" for the grid; SUITE-BENCH when a
// suite runs on several benchmarks (Suite.Benches), SUITE alone for the
// benchmark a data folder is itself).
func (st RunAllStep) Name() string {
	if st.Suite == "" {
		return "quickstart"
	}
	if su, ok := st.Suite.find(); ok && len(su.Benches) > 1 && st.Bench != "." {
		return string(st.Suite) + "-" + st.Bench
	}
	return string(st.Suite)
}

// IsRunAllStep reports whether name is a step's name (RunAllStep.Name) on
// any data folder: the quickstart, a suite's name, or SUITE-BENCH for a
// suite that runs on several benchmarks.
func IsRunAllStep(name string) bool {
	if name == (RunAllStep{}).Name() {
		return true
	}
	for _, su := range AllSuites {
		if name == string(su.Name) || len(su.Benches) > 1 && strings.HasPrefix(name, string(su.Name)+"-") {
			return true
		}
	}
	return false
}

// isBenchDir reports whether dir is a benchmark folder itself (it holds
// qa.jsonl, as `esr gen --out DIR` writes it) rather than a folder of
// benchmarks (data/synthetic, data/dyknow, ...).
func isBenchDir(dir string) bool { return fileExists(filepath.Join(dir, bench.QAFile)) }

// RunAllSteps are the notebooks' evaluations over the benchmarks in
// dataDir (RunAllPlan).
func RunAllSteps(dataDir string) []RunAllStep {
	steps, _ := RunAllPlan(dataDir)
	return steps
}

// RunAllPlan is the notebooks' evaluations over the benchmarks in dataDir:
// the quickstart grid on the Figure 1 stream and every suite on each of its
// benchmarks (Suite.Benches: dyknow for "external", debian for "facets",
// synthetic, dyknow and vdyknow for "deployed", synthetic otherwise), in
// the order of the suites' names; a suite whose benchmark dataDir does not
// hold is left out, with a sentence in skipped. When dataDir is a
// benchmark folder itself (isBenchDir), it takes synthetic's place (Bench
// ".").
func RunAllPlan(dataDir string) (steps []RunAllStep, skipped []string) {
	main := "synthetic"
	if isBenchDir(dataDir) {
		main = "."
	}
	has := func(b string) bool {
		if b == "." {
			return true
		}
		_, err := os.Stat(filepath.Join(dataDir, b))
		return err == nil
	}
	steps = []RunAllStep{{Suite: "", Bench: ""}}
	add := func(suite SuiteID, b string) {
		if has(b) {
			steps = append(steps, RunAllStep{Suite: suite, Bench: b})
			return
		}
		skipped = append(skipped, fmt.Sprintf("%s on %s: %s holds no %s/", suite, b, dataDir, b))
	}
	for _, n := range SuiteNames() {
		su := SuiteID(n).Suite()
		benches := su.Benches
		if benches == nil {
			benches = []string{mainBench}
		}
		for _, b := range benches {
			if b == mainBench {
				b = main
			}
			add(su.Name, b)
		}
	}
	return steps, skipped
}

// StepSetup is the Setup a notebook uses for a step: the benchmark under
// dataDir, the readers, the default statistics and memory options.
func StepSetup(dataDir string, st RunAllStep, rs []reader.Reader, benches map[string]*bench.Bench) (Setup, error) {
	s := Setup{Readers: rs, Stats: eval.DefaultStats}
	if st.Bench == "" {
		return s, nil
	}
	if su, ok := st.Suite.find(); ok && su.ReferenceAdapter {
		// The reference adapter runs beside the suite's classes when the
		// repository holds it (a data folder elsewhere has none).
		if a := filepath.Join(dataDir, "..", ReferenceAdapter); fileExists(a) {
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
		t, err := AnswerGrid(ctx, stream, atoms, bench.Figure1QA(), memory.Specs(memory.Names...), s.Readers, memory.Options{})
		if err != nil {
			return nil, err
		}
		return &Result{Name: "quickstart", Tables: []*eval.Table{t}, Figures: map[FigureID]*plot.Plot{}}, nil
	}
	su, ok := st.Suite.find()
	if !ok {
		return nil, fmt.Errorf("unknown suite %q", st.Suite)
	}
	return su.Run(ctx, s)
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
