package run

import (
	"github.com/esrkit/esrkit/esr/experiment"

	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"
)

// Setup is what every suite runs with.
type Setup struct {
	Bench   *bench.Bench
	Readers []reader.Reader
	Judge   judge.Judge
	// Relator for the classes that use relations (nil: the rule scorer).
	Options memory.Options
	Stats   eval.StatOptions
	// Progress, when set, reports evaluation progress.
	Progress func(done, total int)
	// Adapter is the path of an exec: adapter the "deployed" suite runs
	// beside the deployed classes ("" for none).
	Adapter string
}

// Result is a suite's output: the outcome rows it evaluated, its tables in
// order, and its figures by file stem.
type Result struct {
	Name    string
	Rows    []eval.Outcome
	Tables  []*eval.Table
	Figures map[string]*plot.Plot
	// Skipped records every table the suite could not build, with the
	// cause (e.g. a memory or stratum missing from the rows).
	Skipped []TableError
	// CacheFile is the file the rows were read from when RunCached found
	// them in its cache ("" when they were evaluated).
	CacheFile string
}

// TableError is a table a suite could not build, and why.
type TableError struct {
	Table string `json:"table"`
	Err   error  `json:"-"`
}

func (e TableError) Error() string { return e.Table + ": " + e.Err.Error() }

// add appends t, or records err under name when the build failed.
func (r *Result) add(name string, t *eval.Table, err error) {
	if err != nil {
		r.Skipped = append(r.Skipped, TableError{Table: name, Err: err})
		return
	}
	r.Tables = append(r.Tables, t)
}

// Table returns the table named name, or an error that says why the suite
// did not build it (or which tables it did build).
func (r *Result) Table(name string) (*eval.Table, error) {
	for _, t := range r.Tables {
		if t.Name == name {
			return t, nil
		}
	}
	for _, e := range r.Skipped {
		if e.Table == name {
			return nil, fmt.Errorf("suite %s did not build %s: %w", r.Name, name, e.Err)
		}
	}
	var names []string
	for _, t := range r.Tables {
		names = append(names, t.Name)
	}
	return nil, fmt.Errorf("suite %s has no table %q (tables: %s)", r.Name, name, strings.Join(names, ", "))
}

// Save writes every table (CSV, Markdown, LaTeX) and figure (PNG, SVG)
// into dir, and the outcome rows as dir/NAME-outcomes.jsonl.
func (r *Result) Save(dir string) error {
	for _, t := range r.Tables {
		if err := t.Save(dir); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(r.Figures))
	for n := range r.Figures {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, _, err := report.SaveFigure(r.Figures[n], dir, n); err != nil {
			return err
		}
	}
	rows := r.Rows
	return bench.WriteJSONL(filepath.Join(dir, r.Name+"-outcomes.jsonl"), rows)
}

// Suite is one notebook's experiment in two steps: Evaluate produces the
// outcome rows (the expensive part, cacheable), Report turns rows into
// tables and figures (cheap, deterministic given the rows and the seed).
type Suite struct {
	Name     string
	Doc      string
	Evaluate func(ctx context.Context, s Setup) ([]eval.Outcome, error)
	Report   func(rows []eval.Outcome, s Setup) (*Result, error)
}

// Run evaluates and reports.
func (su Suite) Run(ctx context.Context, s Setup) (*Result, error) {
	rows, err := su.Evaluate(ctx, s)
	if err != nil {
		return nil, err
	}
	return su.Report(rows, s)
}

// AllSuites are the experiments of `esr run` and the notebooks, one per
// paper section, in one explicit list.
var AllSuites = []Suite{renderConfoundSuite, provenanceSuite, noiseSuite, strataSuite, checksSuite,
	externalSuite, boundarySuite, formatsSuite, deployedSuite}

// Suites indexes AllSuites by name.
var Suites = func() map[string]Suite {
	m := make(map[string]Suite, len(AllSuites))
	for _, su := range AllSuites {
		m[su.Name] = su
	}
	return m
}()

// renderConfoundSuite is the "render-confound" experiment of `esr run` and the notebooks.
var renderConfoundSuite = Suite{Name: "render-confound", Doc: "§4.1: headline, Table 2, Table 3, Table 11",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		return s.evaluate(ctx, experiment.RenderConfoundMemories, []esr.QueryType{esr.Snapshot}, s.Options, "")
	},
	Report: renderConfoundReport}

// provenanceSuite is the "provenance" experiment of `esr run` and the notebooks.
var provenanceSuite = Suite{Name: "provenance", Doc: "§4.3: Figure 3, the deployed render, the relation-type query",
	Evaluate: provenanceRows, Report: provenanceReport}

// SuiteNames lists Suites' names sorted.
func SuiteNames() []string {
	var out []string
	for n := range Suites {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (s Setup) evaluate(ctx context.Context, memories []string, qtypes []esr.QueryType, opt memory.Options, condition string) ([]eval.Outcome, error) {
	if len(s.Readers) == 0 {
		return nil, fmt.Errorf("no readers")
	}
	return eval.Evaluate(ctx, s.Bench, eval.Config{Memories: memories, Readers: s.Readers, Judge: s.Judge,
		QueryTypes: qtypes, Options: opt, Condition: condition, Progress: s.Progress})
}

// renderConfoundReport is §4.1: the headline on reverted-revert, Table 2
// (the render-matched decomposition), Table 3 (the residual by stratum) and
// Table 11 (the monotonic split), with the decomposition figure.
func renderConfoundReport(rows []eval.Outcome, s Setup) (*Result, error) {
	res := &Result{Name: "render-confound", Rows: rows, Figures: map[string]*plot.Plot{}}
	rr := eval.And(eval.QueryType("snapshot"), eval.Phenomenon(string(esr.RevertedRevert)))
	head, _, err := experiment.HeadlineTable(rows, rr, s.Stats)
	if err != nil {
		return nil, err
	}
	cs, err := experiment.RenderMatchedTerms(rows, rr, s.Stats)
	if err != nil {
		return nil, err
	}
	res.Tables = append(res.Tables, head, experiment.Table2(cs, "reverted-revert (snapshot)", rows), experiment.Table2ByFamily(cs, "reverted-revert (snapshot)", rows))
	t3, _, err := experiment.Table3(rows, s.Stats)
	res.add("table3-mechanism-by-stratum", t3, err)
	t11, err := experiment.Table11(rows, eval.PureMonotonic(s.Bench), s.Stats)
	res.add("table11-pure-monotonic", t11, err)
	res.Figures["table2-decomposition"] = experiment.DecompositionPlot(cs, "Render-matched decomposition, reverted-revert", "t2/")
	return res, nil
}

// provenanceRows evaluates the retention classes on provenance and
// relation-type QAs from retained state only, and on provenance QAs with the
// deployed render.
func provenanceRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	mems := append([]string{}, experiment.RetentionClasses...)
	state, err := s.evaluate(ctx, mems, []esr.QueryType{esr.Provenance, esr.RelationType}, s.Options, experiment.StateOnly)
	if err != nil {
		return nil, err
	}
	opt := s.Options
	opt.Deployed = true
	dep, err := s.evaluate(ctx, mems, []esr.QueryType{esr.Provenance}, opt, experiment.Deployed)
	if err != nil {
		return nil, err
	}
	return append(state, dep...), nil
}

// provenanceReport is §4.3: Figure 3 from retained state only, the deployed
// render reversal, and the relation-type query.
func provenanceReport(rows []eval.Outcome, s Setup) (*Result, error) {
	res := &Result{Name: "provenance", Rows: rows, Figures: map[string]*plot.Plot{}}
	t3, err := experiment.ProvenanceTable(rows, experiment.StateOnly, s.Stats)
	if err != nil {
		return nil, err
	}
	res.Tables = append(res.Tables, t3)
	t, err := experiment.ProvenanceTable(rows, experiment.Deployed, s.Stats)
	res.add("figure3-provenance-deployed", t, err)
	t, err = experiment.RelationTypeTable(rows, s.Stats)
	res.add("relation-type-query", t, err)
	res.Figures["figure3-provenance"] = experiment.ProvenancePlot(experiment.ProvenanceAccuracy(rows, experiment.StateOnly), "Provenance accuracy by retention class (state only)", "f3/")
	res.Figures["figure3-provenance-deployed"] = experiment.ProvenancePlot(experiment.ProvenanceAccuracy(rows, experiment.Deployed), "Provenance accuracy, deployed render (raw events appended)", "f3/deployed/")
	return res, nil
}

// Describe is a one-line summary of the readers of a setup, for notebooks.
func (s Setup) Describe() string {
	var names []string
	for _, r := range s.Readers {
		names = append(names, r.Name())
	}
	return strings.Join(names, ", ")
}
