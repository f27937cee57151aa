package nbhelp

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/cimemo"
	"github.com/esrkit/esrkit/internal/rowcache"
)

// This file holds what every paper notebook needs, so that no notebook
// defines helpers of its own: a notebook stops at the first error, loudly,
// and reads the bundled data, the readers and cached suite results through
// these calls.

// Ctx is the context notebooks pass to library calls.
var Ctx = context.Background()

// A notebook that waits for another notebook to write the same suite's
// rows says so as an ordinary output line: a wait is not an error, and the
// report's checks flag error output.
func init() { rowcache.WaitNotice = func(msg string) { fmt.Println(msg) } }

// Every cell reruns the notebook's program, so a table shown again (the
// same rows, the same options) would redraw its 10,000 bootstrap resamples:
// intervals are kept under .esr-cache/intervals (eval.SetIntervalMemo,
// internal/cimemo), keyed by the pairs, the options and the library's code;
// so are the learned pair scorer's fitted weights, under .esr-cache/fits
// (relate.SetFitMemo: a cross-validation refits six models), and the
// paraphrase curve's per-class accuracy counts, under .esr-cache/counts
// (lab.SetCountsMemo: an exercise that adds a series evaluates only its
// classes). Test binaries leave the memos off and compute everything.
func init() {
	if root, err := findRoot(); err == nil && !testing.Testing() {
		eval.SetIntervalMemo(cimemo.Open(filepath.Join(root, ".esr-cache", "intervals")))
		relate.SetFitMemo(cimemo.Open(filepath.Join(root, ".esr-cache", "fits")))
		lab.SetCountsMemo(cimemo.Open(filepath.Join(root, ".esr-cache", "counts")))
	}
}

// Must returns v, or stops the cell with err.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Must2 returns a and b, or stops the cell with err.
func Must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// Bench loads a bundled benchmark, data/NAME under the repository root.
func Bench(name string) *bench.Bench {
	// GoNB reruns a notebook's declarations in every cell: keep a snapshot
	// of the loaded benchmark under .esr-cache/bench so each cell reads it
	// back (bench.LoadOptions.Snapshots).
	return Must(rowcache.NotebookBench(Root(), name))
}

// Readers are the notebooks' answer families: LLM families when
// ESR_LLM_MODELS names models (answers read from the response cache that
// `make llm-cache` fills), else the simulated families calibrated to the
// paper (lab.CalibratedFamilies).
func Readers() []reader.Reader { return Must(lab.DefaultReaders(Path(".esr-cache"))) }

// setupWith is the setup Run uses for su on b: the readers, the paper's
// statistics, a progress line, and for a suite that runs it the
// repository's reference adapter (rowcache.NotebookSetup); rows not in the
// cache (a reader of the student's own) are evaluated on every core the
// cell has, so a rerun after such an edit stays short.
func setupWith(su lab.Suite, b *bench.Bench, readers []reader.Reader) lab.Setup {
	s := rowcache.NotebookSetup(Root(), su, b, readers)
	s.Progress = progressFunc("evaluating " + string(su.Name))
	s.Concurrency = runtime.GOMAXPROCS(0)
	return s
}

// Run evaluates a suite on b once (rows cached under .esr-cache/notebooks,
// keyed by everything they depend on) and returns its rows; its tables and
// figures are the suite's own builds (SuiteRows.Table, SuiteRows.Figure),
// built on first use. A result read from
// the cache says so in one line, interactively (headless runs, whose
// executed copies become the report, leave the line out).
func Run(name lab.SuiteID, b *bench.Bench) *SuiteRows { return RunWith(name, b, Readers()) }

// SuiteRows are the outcome rows of one suite, as Run returns them.
type SuiteRows struct {
	Name lab.SuiteID
	// CacheFile is the cache file the rows are read from ("" when they
	// were evaluated now).
	CacheFile string

	// rows are read from CacheFile on first use (Rows): every cell reruns
	// the notebook's Run, and a cell that shows a kept table never needs
	// them (the Debian deployed suite's are a 70 MB snapshot).
	rows   []eval.Outcome
	loaded bool
	suite  lab.Suite
	setup  lab.Setup
	dir    string

	result *lab.Result
	err    error
	// built is the Result without figures, read from (or written to) the
	// file kept beside the cached rows (rowcache.KeptFile); "" when the rows were
	// evaluated now.
	builtFile string
	built     *lab.Result
}

// Rows are the suite's outcome rows, one per memory × reader × question.
func (r *SuiteRows) Rows() []eval.Outcome {
	if !r.loaded {
		rows, cacheFile := Must2(rowcache.Rows(Ctx, r.suite, r.setup, r.dir))
		r.rows, r.loaded = rows, true
		if cacheFile != r.CacheFile { // the cached file was unreadable: evaluated now
			r.cachedAt(cacheFile)
		}
	}
	return r.rows
}

// cachedAt records the cache file the rows are read from ("" for none) and
// the file their tables are kept in beside it.
func (r *SuiteRows) cachedAt(path string) {
	r.CacheFile, r.builtFile = path, ""
	if path != "" {
		r.builtFile = rowcache.KeptFile(path, r.setup.Stats)
	}
}

// tables is the suite's Result for its tables, comparisons and sentences:
// the one kept beside the cached rows when there is one (read without the
// rows), else built (and kept for the next cell).
func (r *SuiteRows) tables() (*lab.Result, error) {
	if r.result != nil || r.err != nil {
		return r.result, r.err
	}
	if r.built != nil {
		return r.built, nil
	}
	if r.builtFile != "" {
		if res, ok := rowcache.ReadKept(r.builtFile, r.CacheFile, nil); ok {
			r.built = res
			return res, nil
		}
	}
	res, err := r.Result()
	if err == nil && r.builtFile != "" {
		// A failed write only costs the next cell a rebuild.
		_ = rowcache.Keep(res, r.builtFile, r.CacheFile)
	}
	return res, err
}

// Result is the suite's report on the rows: its tables and figures, built
// once by the suite's own builders (the ones `esr run` and the report use).
func (r *SuiteRows) Result() (*lab.Result, error) {
	if r.result == nil && r.err == nil {
		r.result, r.err = r.suite.Report(r.Rows(), r.setup)
	}
	return r.result, r.err
}

// Table is the suite's table id, as `esr run` writes it.
func (r *SuiteRows) Table(id lab.TableID) (*eval.Table, error) {
	res, err := r.tables()
	if err != nil {
		return nil, err
	}
	return res.Table(id)
}

// Figure is the suite's figure id, as `esr run` writes it, drawn from
// the comparisons and rows its Report kept.
func (r *SuiteRows) Figure(id lab.FigureID) (*plot.Plot, error) {
	res, err := r.tables()
	if err != nil {
		return nil, err
	}
	if res.Rows == nil { // a kept Result is read without them
		res.Rows = r.Rows()
	}
	return res.Figure(id)
}

// Terms are the comparisons behind the suite's table id (e.g. Table 2's
// terms), as its Report computed them.
func (r *SuiteRows) Terms(id lab.TableID) ([]eval.Comparison, error) {
	res, err := r.tables()
	if err != nil {
		return nil, err
	}
	return res.Terms(id)
}

// SplitFamilies is table id split into its pooled and per-family rows by
// the comparisons behind it (lab.Result.SplitFamilies).
func (r *SuiteRows) SplitFamilies(id lab.TableID) (pooled, families *eval.Table, err error) {
	res, err := r.tables()
	if err != nil {
		return nil, nil, err
	}
	return res.SplitFamilies(id)
}

// Sentences are the sentences the suite's Report wrote beside table id.
func (r *SuiteRows) Sentences(id lab.TableID) ([]string, error) {
	res, err := r.tables()
	if err != nil {
		return nil, err
	}
	return res.Sentences(id)
}

// RunWith is Run with readers of your own (e.g. a scripted reader with the
// capabilities you choose): its rows are cached apart from the default
// families', keyed by the readers' full configuration. Rows not yet cached
// are evaluated now; cached ones are read when first used (SuiteRows.Rows).
func RunWith(name lab.SuiteID, b *bench.Bench, readers []reader.Reader) *SuiteRows {
	su := name.Suite()
	s := setupWith(su, b, readers)
	dir := rowcache.NotebookDir(Root())
	path, cached := Must2(rowcache.Cached(su, s, dir))
	res := &SuiteRows{Name: name, suite: su, setup: s, dir: dir}
	if cached {
		res.cachedAt(path)
	} else {
		res.Rows()
	}
	if res.CacheFile != "" && !headless() {
		Markdown("<small>rows of `" + string(name) + "` read from the cache (same data, readers, judge, options and library code): `" +
			filepath.Base(res.CacheFile) + "`</small>")
	}
	return res
}

// Figure displays p inline and saves it as figures/NAME.png and NAME.svg,
// first fitted to that size (report.Fit wraps a title or x labels that
// would not fit and moves a legend off the data); what the figure check
// still finds is written to the cell's stderr.
func Figure(p *plot.Plot, name string) {
	fitFigure(p, name, width, height)
	Must(0, showPlot(p))
	Must2(SaveFigure(p, name))
}

// FigureRow displays plots side by side (a summary figure: each half
// readable on its own) and saves each as figures/NAME.png and NAME.svg.
func FigureRow(plots []*plot.Plot, names []string) {
	if len(plots) != len(names) {
		panic("nbhelp: FigureRow needs one name per plot")
	}
	var b strings.Builder
	b.WriteString(`<div style="display:flex;gap:8px;align-items:flex-start;flex-wrap:wrap">`)
	for i, p := range plots {
		// Drawn at three quarters of the size: wrap what would not fit.
		fitFigure(p, names[i], width*0.75, height*0.75)
		svg := Must(plotSVG(p, width*0.75, height*0.75))
		b.WriteString(`<div style="flex:1;min-width:320px">` + inlineSVG(svg) + `</div>`)
		Must2(SaveFigure(p, names[i]))
	}
	b.WriteString(`</div>`)
	out.HTML(b.String())
}

// ReadersNote says in one paragraph whether the run's families are
// simulated readers or LLMs, as every paper notebook does before its first
// result; a simulated panel's note links the model card.
func ReadersNote() { Markdown(readersNote(Readers())) }

func readersNote(rs []reader.Reader) string {
	switch {
	case lab.Calibrated(rs):
		return "**The readers are SIMULATED** (`sim:fit-*`): models of the paper's five LLMs, not the LLMs, fitted to " +
			"published measurements and to the paper's Tables 16–17 and 2, so numbers beside those tables are fitted, not " +
			"findings ([model card](../docs/reader-model.md)). `make llm-cache` with `ESR_LLM_MODELS` reruns a page with real LLMs."
	case lab.Simulated(rs):
		return "**Reader families in this run are SIMULATED** (`scripted:*`, `sim:*`): text readers with " +
			"named capabilities (does it read a status column, can it sort by visible dates, what does it do with " +
			"several candidate values). They show *how* a render moves a reader's answers; they are not LLMs, and " +
			"their magnitudes are not the paper's (the [model card](../docs/reader-model.md) describes the simulated readers)."
	}
	return "Reader families in this run are LLMs from `ESR_LLM_MODELS`, read from the response cache."
}
