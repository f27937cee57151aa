package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/safefile"
)

func init() {
	register("run", "run a paper experiment and write its tables and figures ("+strings.Join(lab.SuiteNames(), ", ")+"), or all of the notebooks' experiments", runRun)
}

func runRun(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fs := newFlags("run EXPERIMENT", stderr)
		fs.Usage = func() {
			fmt.Fprintf(stderr, "usage: esr run EXPERIMENT --bench DIR [--readers LIST] --out DIR\n       esr run all [--data DIR] [--out DIR]\nexperiments: %s\n", strings.Join(lab.SuiteNames(), ", "))
		}
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		return fmt.Errorf("name an experiment: all, %s", strings.Join(lab.SuiteNames(), ", "))
	}
	name := args[0]
	var suite lab.SuiteID
	if name != "all" {
		var err error
		if suite, err = lab.ParseSuiteID(name); err != nil {
			return fmt.Errorf("unknown experiment %q (want all or one of %s)", name, strings.Join(lab.SuiteNames(), ", "))
		}
	}
	fs := newFlags("run "+name, stderr)
	var dir, data *string
	if name == "all" {
		data = fs.String("data", "data", "`DIR` holding the bundled benchmarks (synthetic/, dyknow/)")
	} else {
		dir = fs.String("bench", "", "benchmark `DIR` (required)")
	}
	readers := fs.String("readers", "default", "readers, comma separated: oracle, scripted:PROFILE, sim:PROFILE[@seed=S], llm[:MODEL]; default = the LLM families of ESR_LLM_MODELS when models are named, else the scripted (simulated) families")
	rels := fs.String("relations", relate.RuleName, "relation source: rule, oracle or same-state")
	outHelp := "output `DIR` for tables (CSV, Markdown, LaTeX), figures (PNG, SVG), outcome rows and llm-summary.json (required)"
	outDefault := ""
	if name == "all" {
		outHelp = "output `DIR`: one folder per experiment with its tables, figures and outcome rows, and llm-summary.json"
		outDefault = "results"
	}
	out := fs.String("out", outDefault, outHelp)
	B := fs.Int("B", eval.DefaultStats.B, "bootstrap resamples, 1 to 1000000")
	seed := fs.Uint64("seed", eval.DefaultStats.Seed, "bootstrap seed")
	cache := fs.String("cache", defaultCache, "response cache `DIR` for LLM readers")
	conc := fs.Int("concurrency", 0, "requests in flight per endpoint (default: "+llm.EnvConcurrency+", else 8)")
	dry := fs.Bool("dry-run", false, "send nothing: print, as JSON, the requests per model the run would make, how many are cached, and estimated prompt tokens")
	var interval eval.IntervalKind
	fs.TextVar(&interval, "interval", eval.IntervalCluster, "bootstrap interval: cluster (resample questions with all their rows) or pair (the paper's (question, family) pairs)")
	var layout layoutFlags
	layout.bind(fs)
	var noise noiseFlags
	if name != "all" { // the notebooks' evaluations run clean; the noise suite sweeps it
		noise.bind(fs)
	}
	adapter := fs.String("adapter", "", "exec: adapter `PATH` that the deployed experiment runs beside the deployed classes (run all: the repository's reference adapter)")
	offline := fs.Bool("offline", false, "send nothing: compute every table from cached answers only (e.g. after esr cache import); missing answers are an error")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if *out == "" || dir != nil && *dir == "" {
		return fmt.Errorf("--bench and --out are required")
	}
	if err := checkResamples(*B); err != nil {
		return err
	}
	var target safefile.Target
	if !*dry { // a dry run writes nothing
		if name == "all" {
			target = runTarget(*out, true, input("--data", *data))
		} else {
			target = runTarget(*out, false, input("--bench", *dir))
		}
		if err := target.Check(); err != nil {
			return err
		}
	}
	// Readers that read the cache only: the dry run counts with them, and
	// every table is computed with them once the requests are sent.
	rs, err := parseReaders(*readers, *cache, nil, true)
	if err != nil {
		return err
	}
	defer closeReaders(rs)
	ctx, stop := interruptContext()
	defer stop()
	st := eval.StatOptions{B: *B, Seed: *seed, Level: 0.95, Interval: interval}
	var steps []lab.RunAllStep
	setups := map[string]lab.Setup{}
	if name == "all" {
		var skipped []string
		steps, skipped = lab.RunAllPlan(*data)
		for _, s := range skipped {
			fmt.Fprintf(stderr, "esr run all: not run: %s\n", s)
		}
		benches := map[string]*bench.Bench{}
		for _, step := range steps {
			fresh := benches[step.Bench] == nil
			s, err := lab.StepSetup(*data, step, rs, benches)
			if err != nil {
				return err
			}
			if fresh && s.Bench != nil {
				sayNotices(stderr, s.Bench)
			}
			s.Stats = st
			setups[step.Name()] = s
		}
	} else {
		b, err := openBench(*dir, stderr)
		if err != nil {
			return err
		}
		rel, err := relate.ByName(*rels, b.Relations)
		if err != nil {
			return err
		}
		steps = []lab.RunAllStep{{Suite: suite, Bench: *dir}}
		opt := memory.Options{Relator: rel}
		if err := layout.apply(&opt); err != nil {
			return err
		}
		s, err := lab.Setup{Bench: b, Readers: rs, Options: opt, Stats: st, Adapter: *adapter}.WithRelationNoise(noise.p, noise.seed)
		if err != nil {
			return fmt.Errorf("--relation-noise: %w", err)
		}
		if err := suite.Suite().CheckSetup(s); err != nil {
			return fmt.Errorf("--relation-noise: %w", err)
		}
		setups[steps[0].Name()] = s
	}
	// 1. Plan: what is asked, what is cached.
	// (Readers that call no endpoint need no plan.)
	plan := llm.NewPlan()
	pctx := llm.WithPlan(ctx, plan)
	for _, step := range steps {
		if !callsOut(rs) {
			break
		}
		if _, err := lab.EvaluateStep(pctx, step, setups[step.Name()]); err != nil {
			return fmt.Errorf("%s: %w", step.Name(), err)
		}
	}
	if *dry {
		return printPlan(stdout, plan, false)
	}
	// One run at a time writes the output folder.
	outLock, err := safefile.LockDir(*out, safefile.Wait{})
	if err != nil {
		if errors.Is(err, safefile.ErrBusy) {
			return fmt.Errorf("%w: another esr run is writing it; wait for it to finish or use another --out", err)
		}
		return err
	}
	defer outLock.Unlock()
	// Checked again under the lock, then marked before anything is written.
	if err := target.Check(); err != nil {
		return err
	}
	if err := target.Mark(); err != nil {
		return err
	}
	summary := struct {
		Plan  planJSON         `json:"plan"`
		Fill  *llm.FillSummary `json:"fill,omitempty"`
		Steps []stepSummary    `json:"experiments"`
	}{Plan: planSummary(plan, false)}
	// 2. Send what is missing, all models at once, each at its endpoint's
	// limit; answers are cached as they arrive, so an interrupted run
	// resumes where it stopped.
	var fillErr error
	if n := plan.ToSend(); n > 0 && !*offline {
		c, err := llm.OpenCache(*cache)
		if err != nil {
			return err
		}
		defer c.Close()
		fmt.Fprintf(stderr, "llm: %d requests to send (%d cached); progress every %s\n", n, summary.Plan.Cached, progressInterval)
		fs, err := llm.Fill(ctx, newPool(*conc, nil), c, plan.Pending(), llm.FillOptions{Progress: stderr, Interval: progressInterval})
		summary.Fill = &fs
		var down []string
		for _, m := range fs.Models {
			if m.Stopped != "" {
				down = append(down, fmt.Sprintf("model %s: %s (%d answered, %d not sent)", m.Model, m.Stopped, m.Done, m.NotSent))
			}
		}
		switch {
		case err == nil && len(down) > 0:
			fillErr = fmt.Errorf("stopped: %s. Check the endpoint, then resume with: %s (the %d answers received are cached)",
				strings.Join(down, "; "), resumeCommand("run", args), fs.Done)
		case err != nil:
			fillErr = fmt.Errorf("interrupted (%v): %d of %d answers received and cached; rerun the same command to resume", err, fs.Done, fs.ToSend)
		case fs.Failed > 0:
			fillErr = fmt.Errorf("%d of %d requests failed after retries (see %s); rerun the same command to retry them, the %d answers received are cached",
				fs.Failed, fs.ToSend, filepath.Join(*out, "llm-summary.json"), fs.Done)
		}
	}
	// 3. Every table from the cache.
	var missing []string
	if fillErr == nil || !errors.Is(ctx.Err(), context.Canceled) {
		for _, step := range steps {
			ss := stepSummary{Name: step.Name()}
			res, err := lab.EvaluateStep(ctx, step, setups[step.Name()])
			switch {
			case errors.Is(err, llm.ErrNotCached):
				ss.Status = "incomplete: answers missing from the cache"
				missing = append(missing, step.Name())
			case err != nil:
				return fmt.Errorf("%s: %w", step.Name(), err)
			default:
				sub := *out
				if name == "all" {
					sub = filepath.Join(*out, step.Name())
				}
				if err := res.Save(sub); err != nil {
					return err
				}
				ss.Status, ss.Rows, ss.Tables, ss.Dir = "done", len(res.Rows), len(res.Tables), sub
				for _, e := range res.Skipped {
					fmt.Fprintf(stderr, "esr run %s: table not built: %v\n", step.Name(), e)
				}
				if name != "all" {
					for _, t := range res.Tables {
						fmt.Fprintln(stdout, t.Markdown())
					}
				}
			}
			summary.Steps = append(summary.Steps, ss)
		}
	}
	if err := writeJSON(filepath.Join(*out, "llm-summary.json"), summary); err != nil {
		return err
	}
	if fillErr != nil {
		return fillErr
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s: answers missing from the cache %s (--offline: import a pack or a batch, or run without --offline)", strings.Join(missing, ", "), *cache)
	}
	rows, tables := 0, 0
	for _, s := range summary.Steps {
		rows += s.Rows
		tables += s.Tables
	}
	fmt.Fprintf(stdout, "wrote %d tables and %d outcome rows for %d experiment(s) to %s (LLM requests: %d cached, %d sent)\n",
		tables, rows, len(summary.Steps), *out, summary.Plan.Cached, sentCount(summary.Fill))
	return nil
}

// resumeCommand is the command line that reruns this one.
func resumeCommand(cmd string, args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t'\"$`\\;&|<>()*?[]#~") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.TrimSpace("esr " + cmd + " " + strings.Join(q, " "))
}

type stepSummary struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Rows   int    `json:"rows"`
	Tables int    `json:"tables"`
	Dir    string `json:"dir,omitempty"`
}

func sentCount(f *llm.FillSummary) int {
	if f == nil {
		return 0
	}
	return f.Done
}

// runFile accepts the files a run writes into a folder: tables (CSV,
// Markdown, LaTeX), figures (PNG, SVG), outcome rows and llm-summary.json.
func runFile(name string, isDir bool) bool {
	if isDir {
		return false
	}
	switch filepath.Ext(name) {
	case ".csv", ".md", ".tex", ".png", ".svg":
		return true
	}
	return name == "llm-summary.json" || strings.HasSuffix(name, "-outcomes.jsonl")
}

// runTarget is esr run's output folder: runFile's files, or for run all
// one folder of them per step (named for any step run all has, so a step
// left out this time keeps its folder). A folder written before the output
// marker is recognised by its llm-summary.json.
func runTarget(out string, all bool, inputs ...safefile.Input) safefile.Target {
	owned := runFile
	if all {
		owned = func(name string, isDir bool) bool {
			if !isDir {
				return name == "llm-summary.json"
			}
			step := lab.IsRunAllStep(name)
			return step && len(safefile.Foreign(filepath.Join(out, name), runFile)) == 0
		}
	}
	return safefile.Target{Flag: "--out", Path: out, Writer: "esr run", Dir: true, Inputs: inputs, Owned: owned,
		Legacy: func(dir string) bool {
			b, err := os.ReadFile(filepath.Join(dir, "llm-summary.json"))
			if err != nil {
				return false
			}
			k, _ := firstKey(b)
			return k == "plan"
		}}
}
