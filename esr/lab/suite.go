package lab

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"
	"gonum.org/v1/plot"
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
	// RelationNoise, when its level is above 0 (WithRelationNoise), is the
	// relation-label noise Options.Relator carries: every row's condition
	// and every table's notes say so.
	RelationNoise RelationNoiseLevel
	// Concurrency bounds the streams Evaluate reads at once (0: one). The
	// rows do not depend on it (eval.Evaluate sorts them).
	Concurrency int
}

// RelationNoiseLevel is a run's relation-label noise: probability P, draws
// seeded by Seed (relate.RelationNoise).
type RelationNoiseLevel struct {
	P    float64
	Seed uint64
}

// WithRelationNoise returns s with every relation label its memories see
// replaced, with probability p, by a uniformly random other label
// (relate.RelationNoise over s.Options.Relator, the rule scorer when nil;
// seeded per atom pair as the noise suite is, eval.NoiseSeed by default):
// the regime of the paper's auxiliary split (relation noise 0.2, the
// calibration's targets). Suites run under it record the level in every
// row's condition, beside their own (Variant.Beside), and in every table's
// notes; a suite that evaluates arms under relation sources of its own
// refuses it (Suite.OwnRelations). p = 0 returns s unchanged.
func (s Setup) WithRelationNoise(p float64, seed uint64) (Setup, error) {
	cfg, err := eval.UnderRelationNoise(eval.Config{Options: s.Options}, p, seed)
	if err != nil || p == 0 {
		return s, err
	}
	s.Options = cfg.Options
	s.RelationNoise = RelationNoiseLevel{P: p, Seed: seed}
	return s, nil
}

// note is the sentence every table of a run under n carries.
func (n RelationNoiseLevel) note() string {
	return fmt.Sprintf("relation-label noise: every predicted relation replaced by a random other label with probability %.1f (seed %d, drawn per atom pair as in the noise suite); rows' condition says %q",
		n.P, n.Seed, eval.NoiseVariant(string(eval.RelationNoiseAxis), n.P).String())
}

// Result is a suite's output: the outcome rows it evaluated, its tables in
// order, and its figures by file stem.
type Result struct {
	Name    string
	Rows    []eval.Outcome
	Tables  []*eval.Table
	Figures map[FigureID]*plot.Plot
	// Comparisons are the comparisons behind a table (e.g. Table 2's
	// terms), computed once by the Report for the notebooks' sentences.
	Comparisons map[TableID][]eval.Comparison
	// Verdicts are the sentences the Report wrote beside a table (e.g.
	// the deployed decomposition's, one per class and scope).
	Verdicts map[TableID][]string
	// Skipped records every table the suite could not build, with the
	// cause (e.g. a memory or stratum missing from the rows).
	Skipped []TableError
}

// TableError is a table a suite could not build, and why.
type TableError struct {
	Table TableID `json:"table"`
	Err   error   `json:"-"`
}

func (e TableError) Error() string { return string(e.Table) + ": " + e.Err.Error() }

// Add appends t, or records err under id when the build failed.
func (r *Result) Add(id TableID, t *eval.Table, err error) {
	if err != nil {
		r.Skipped = append(r.Skipped, TableError{Table: id, Err: err})
		return
	}
	r.Tables = append(r.Tables, t)
}

// Table returns the table id, or an error that says why the suite did not
// build it (or which tables it did build).
func (r *Result) Table(id TableID) (*eval.Table, error) {
	for _, t := range r.Tables {
		if t.ID == id {
			return t, nil
		}
	}
	for _, e := range r.Skipped {
		if e.Table == id {
			return nil, fmt.Errorf("suite %s did not build %s: %w", r.Name, id, e.Err)
		}
	}
	var names []string
	for _, t := range r.Tables {
		names = append(names, string(t.ID))
	}
	return nil, fmt.Errorf("suite %s has no table %q (tables: %s)", r.Name, id, strings.Join(names, ", "))
}

// Figure returns the figure id, or an error naming the suite's figures.
func (r *Result) Figure(id FigureID) (*plot.Plot, error) {
	if p, ok := r.Figures[id]; ok {
		return p, nil
	}
	if r.Figures == nil {
		// Read back without its figures (nbhelp keeps a Report's tables
		// beside the cached rows): drawn from what the Report kept.
		d, ok := drawers[id]
		if !ok {
			return nil, fmt.Errorf("suite %s: no figure %q", r.Name, id)
		}
		p, err := d(r)
		if err != nil {
			return nil, fmt.Errorf("suite %s has no figure %q: %w", r.Name, id, err)
		}
		return p, nil
	}
	var names []string
	for n := range r.Figures {
		names = append(names, string(n))
	}
	sort.Strings(names)
	return nil, fmt.Errorf("suite %s has no figure %q (figures: %s)", r.Name, id, strings.Join(names, ", "))
}

// Terms returns the comparisons behind table id, as the Report computed
// them.
func (r *Result) Terms(id TableID) ([]eval.Comparison, error) {
	if cs, ok := r.Comparisons[id]; ok {
		return cs, nil
	}
	if _, err := r.Table(id); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("suite %s keeps no comparisons for table %s", r.Name, id)
}

// Sentences returns the sentences the Report wrote beside table id.
func (r *Result) Sentences(id TableID) ([]string, error) {
	if ss, ok := r.Verdicts[id]; ok {
		return ss, nil
	}
	if _, err := r.Table(id); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("suite %s wrote no sentences beside table %s", r.Name, id)
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
		names = append(names, string(n))
	}
	sort.Strings(names)
	for _, n := range names {
		if _, _, err := report.SaveFigure(r.Figures[FigureID(n)], dir, n); err != nil {
			return err
		}
	}
	rows := r.Rows
	return bench.WriteJSONL(filepath.Join(dir, r.Name+"-outcomes.jsonl"), rows)
}

// SuiteID names a suite: the experiment `esr run NAME` runs, what
// nbhelp.Run takes and the stem of its rows' cache files. A name a user
// types enters as text once (ParseSuiteID); inside the library a suite is
// its id.
type SuiteID string

// The suites of AllSuites.
const (
	SuiteRenderConfound SuiteID = "render-confound"
	SuiteProvenance     SuiteID = "provenance"
	SuiteNoise          SuiteID = "noise"
	SuiteStrata         SuiteID = "strata"
	SuiteChecks         SuiteID = "checks"
	SuiteExternal       SuiteID = "external"
	SuiteBoundary       SuiteID = "boundary"
	SuiteFormats        SuiteID = "formats"
	SuiteDeployed       SuiteID = "deployed"
	SuiteFacets         SuiteID = "facets"
)

// ParseSuiteID reads a suite's name as a user types it (`esr run NAME`):
// one of AllSuites's, or an error listing them.
func ParseSuiteID(name string) (SuiteID, error) {
	if _, ok := SuiteID(name).find(); !ok {
		return "", fmt.Errorf("no suite %q (suites: %s)", name, strings.Join(SuiteNames(), ", "))
	}
	return SuiteID(name), nil
}

// Suite is the suite of AllSuites with id id. The constants name suites,
// and text enters through ParseSuiteID: an id that names none is a bug in
// the caller, and Suite panics naming the suites.
func (id SuiteID) Suite() Suite {
	su, ok := id.find()
	if !ok {
		panic(fmt.Sprintf("lab: no suite %q (suites: %s); read a name with ParseSuiteID", id, strings.Join(SuiteNames(), ", ")))
	}
	return su
}

// find is the suite of AllSuites with id id.
func (id SuiteID) find() (Suite, bool) {
	for _, su := range AllSuites {
		if su.Name == id {
			return su, true
		}
	}
	return Suite{}, false
}

// mainBench is the bundled benchmark a suite runs on unless it names its
// own (Suite.Benches): data/synthetic, or the folder `esr run all --data`
// names when that is a benchmark itself.
const mainBench = "synthetic"

// Suite is one notebook's experiment in two steps: Evaluate produces the
// outcome rows (the expensive part, cacheable), Report turns rows into
// tables and figures (cheap, deterministic given the rows and the seed).
type Suite struct {
	Name SuiteID
	Doc  string
	// Benches are the bundled benchmarks (folders under data/) `esr run
	// all` and the notebooks run the suite on: mainBench when nil. A suite
	// on several has one step per benchmark (RunAllStep.Name).
	Benches []string
	// ReferenceAdapter says the suite runs the repository's reference
	// exec: adapter beside its classes (Setup.Adapter) when the notebooks
	// and `esr run all` run it.
	ReferenceAdapter bool
	Evaluate         func(ctx context.Context, s Setup) ([]eval.Outcome, error)
	Report           func(rows []eval.Outcome, s Setup) (*Result, error)
	// OwnRelations marks a suite that evaluates arms under relation
	// sources of its own (the noise sweep's levels, gold, a learned
	// scorer): a run-wide relation noise (Setup.RelationNoise) would not
	// reach them, so it refuses one.
	OwnRelations bool
}

// Run evaluates and reports.
func (su Suite) Run(ctx context.Context, s Setup) (*Result, error) {
	if err := su.checkNoise(s); err != nil {
		return nil, err
	}
	rows, err := su.Evaluate(ctx, s)
	if err != nil {
		return nil, err
	}
	return su.report(rows, s)
}

// CheckSetup reports whether su can run on s: not under a run-wide
// relation noise when it has relation sources of its own (OwnRelations).
func (su Suite) CheckSetup(s Setup) error { return su.checkNoise(s) }

// checkNoise refuses a run-wide relation noise on a suite with relation
// sources of its own.
func (su Suite) checkNoise(s Setup) error {
	if s.RelationNoise.P > 0 && su.OwnRelations {
		return fmt.Errorf("%s: the suite evaluates arms under relation sources of its own (noise levels, gold, a learned scorer); run it without relation noise", su.Name)
	}
	return nil
}

// report is su.Report, then, on a bench that oversamples its rare strata,
// the mix in every table's notes (mixNote), and under a run-wide relation
// noise, the level beside every row's condition and in every table's notes
// (the tables are built from the rows as the suite labels them: every row
// carries the same noise).
func (su Suite) report(rows []eval.Outcome, s Setup) (*Result, error) {
	res, err := su.Report(rows, s)
	if err != nil || res == nil {
		return res, err
	}
	if note := mixNote(s.Bench); note != "" {
		for _, t := range res.Tables {
			t.Notes = append(t.Notes, note)
		}
	}
	if s.RelationNoise.P == 0 {
		return res, nil
	}
	n := eval.Noise{Kind: string(eval.RelationNoiseAxis), P: s.RelationNoise.P}
	for i := range res.Rows {
		v, err := res.Rows[i].Variant.Beside(n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", su.Name, err)
		}
		res.Rows[i].Variant = v
	}
	for _, t := range res.Tables {
		t.Notes = append(t.Notes, s.RelationNoise.note())
	}
	return res, nil
}

// Evaluate runs eval.Evaluate over s.Bench with s.Readers, s.Judge,
// s.Progress and s.Concurrency, on the given memories, query types,
// options and condition.
func (s Setup) Evaluate(ctx context.Context, memories []memory.Spec, qtypes []esr.QueryType, opt memory.Options, condition eval.Variant) ([]eval.Outcome, error) {
	if len(s.Readers) == 0 {
		return nil, fmt.Errorf("no readers")
	}
	return eval.Evaluate(ctx, s.Bench, eval.Config{Memories: memories, Readers: s.Readers, Judge: s.Judge,
		QueryTypes: qtypes, Options: opt, Variant: condition, Progress: s.Progress, Concurrency: s.Concurrency})
}

// Describe is a one-line summary of the readers of a setup, for notebooks.
func (s Setup) Describe() string {
	var names []string
	for _, r := range s.Readers {
		names = append(names, r.Spec().String())
	}
	return strings.Join(names, ", ")
}

// AllSuites are the experiments of `esr run` and the notebooks, one per
// paper section, in one explicit list.
var AllSuites = []Suite{renderConfoundSuite, provenanceSuite, noiseSuite, strataSuite, checksSuite,
	externalSuite, boundarySuite, formatsSuite, deployedSuite, facetsSuite}

// SuiteNames lists AllSuites's names sorted, as a usage line prints them.
func SuiteNames() []string {
	var out []string
	for _, su := range AllSuites {
		out = append(out, string(su.Name))
	}
	sort.Strings(out)
	return out
}
