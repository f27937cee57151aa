package lab

import (
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

// Add appends t, or records err under id when the build failed.
func (r *Result) Add(id TableID, t *eval.Table, err error) {
	if err != nil {
		r.Skipped = append(r.Skipped, TableError{Table: string(id), Err: err})
		return
	}
	r.Tables = append(r.Tables, t)
}

// Table returns the table id, or an error that says why the suite did not
// build it (or which tables it did build).
func (r *Result) Table(id TableID) (*eval.Table, error) {
	name := string(id)
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

// Evaluate runs eval.Evaluate over s.Bench with s.Readers, s.Judge and
// s.Progress, on the given memories, query types, options and condition.
func (s Setup) Evaluate(ctx context.Context, memories []memory.Spec, qtypes []esr.QueryType, opt memory.Options, condition eval.Variant) ([]eval.Outcome, error) {
	if len(s.Readers) == 0 {
		return nil, fmt.Errorf("no readers")
	}
	return eval.Evaluate(ctx, s.Bench, eval.Config{Memories: memories, Readers: s.Readers, Judge: s.Judge,
		QueryTypes: qtypes, Options: opt, Variant: condition, Progress: s.Progress})
}

// Describe is a one-line summary of the readers of a setup, for notebooks.
func (s Setup) Describe() string {
	var names []string
	for _, r := range s.Readers {
		names = append(names, r.Name())
	}
	return strings.Join(names, ", ")
}
