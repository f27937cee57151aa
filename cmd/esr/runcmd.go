package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/esrkit/esrkit/esr/experiment"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

func init() {
	register("run", "run a paper experiment and write its tables and figures ("+strings.Join(experiment.SuiteNames(), ", ")+")", runRun)
}

func runRun(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fs := newFlags("run EXPERIMENT", stderr)
		fs.Usage = func() {
			fmt.Fprintf(stderr, "usage: esr run EXPERIMENT --bench DIR [--readers LIST] --out DIR\nexperiments: %s\n", strings.Join(experiment.SuiteNames(), ", "))
		}
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		return fmt.Errorf("name an experiment: %s", strings.Join(experiment.SuiteNames(), ", "))
	}
	name := args[0]
	suite, ok := experiment.Suites[name]
	if !ok {
		return fmt.Errorf("unknown experiment %q (want one of %s)", name, strings.Join(experiment.SuiteNames(), ", "))
	}
	fs := newFlags("run "+name, stderr)
	dir := fs.String("bench", "", "benchmark `DIR` (required)")
	readers := fs.String("readers", "default", "readers, comma separated: oracle, scripted:PROFILE, llm[:MODEL]; default = the LLM families of ESR_LLM_MODELS when ESR_LLM_BASE_URL is set, else the scripted (simulated) families")
	rels := fs.String("relations", relate.RuleName, "relation source: rule, oracle or same-state")
	out := fs.String("out", "", "output `DIR` for tables (CSV, Markdown, LaTeX), figures (PNG, SVG) and outcome rows (required)")
	B := fs.Int("B", experiment.DefaultStats.B, "bootstrap resamples")
	seed := fs.Uint64("seed", experiment.DefaultStats.Seed, "bootstrap seed")
	cache := fs.String("cache", ".esr-cache", "response cache `DIR` for LLM readers")
	conc := fs.Int("concurrency", 8, "requests in flight for LLM readers")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if *dir == "" || *out == "" {
		return fmt.Errorf("--bench and --out are required")
	}
	b, rel, rs, err := loadRun(*dir, *rels, *readers, *cache, *conc)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := suite.Run(ctx, experiment.Setup{Bench: b, Readers: rs, Options: memory.Options{Relator: rel},
		Stats: experiment.StatOptions{B: *B, Seed: *seed, Level: 0.95}})
	if err != nil {
		return err
	}
	if err := res.Save(*out); err != nil {
		return err
	}
	for _, t := range res.Tables {
		fmt.Fprintln(stdout, t.Markdown())
	}
	fmt.Fprintf(stdout, "wrote %d tables, %d figures and %d outcome rows to %s\n", len(res.Tables), len(res.Figures), len(res.Rows), *out)
	return nil
}
