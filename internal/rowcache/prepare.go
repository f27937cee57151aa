package rowcache

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/workpool"
)

// NotebookRun is one suite on one bundled benchmark (a folder under
// data/), as a notebook runs it (nbhelp.Run).
type NotebookRun struct {
	Suite lab.SuiteID
	Bench string
}

func (r NotebookRun) String() string { return string(r.Suite) + "@" + r.Bench }

// NotebookRuns are the runs the notebooks read, heaviest first (measured
// cold on two cores by Prepare: the deployed suites, whose exec:
// adapter answers every render request, then the synthetic boundary suite,
// which fits the learned scorer), so that Prepare, which takes
// them in this order, does not end waiting on one long run. A test reads
// the notebooks and fails when one runs a suite missing here.
var NotebookRuns = []NotebookRun{
	{lab.SuiteDeployed, "debian"},
	{lab.SuiteDeployed, "synthetic"},
	{lab.SuiteBoundary, "synthetic"},
	{lab.SuiteChecks, "synthetic"},
	{lab.SuiteProvenance, "debian"},
	{lab.SuiteRenderConfound, "synthetic"},
	{lab.SuiteProvenance, "synthetic"},
	{lab.SuiteFacets, "debian"},
	{lab.SuiteRenderConfound, "debian"},
	{lab.SuiteStrata, "synthetic"},
	{lab.SuiteStrata, "debian"},
	{lab.SuiteDeployed, "dyknow"},
	{lab.SuiteDeployed, "vdyknow"},
	{lab.SuiteFormats, "synthetic"},
	{lab.SuiteNoise, "synthetic"},
	{lab.SuiteExternal, "dyknow"},
}

// NotebookBench loads data/NAME under the repository root as the
// notebooks do, keeping a snapshot of the loaded benchmark under
// .esr-cache/bench for the next process (GoNB runs each cell as one).
func NotebookBench(root, name string) (*bench.Bench, error) {
	return bench.LoadWith(filepath.Join(root, "data", name), bench.LoadOptions{Snapshots: filepath.Join(root, ".esr-cache", "bench")})
}

// NotebookSetup is the Setup the notebooks run su on b with: readers,
// the default statistics and, for a suite that runs the reference adapter
// (lab.Suite.ReferenceAdapter), the repository's (named by its absolute
// path, which the rows and the cache key carry).
func NotebookSetup(root string, su lab.Suite, b *bench.Bench, readers []reader.Reader) lab.Setup {
	s := lab.Setup{Bench: b, Readers: readers, Stats: eval.DefaultStats}
	if su.ReferenceAdapter {
		s.Adapter = filepath.Join(root, lab.ReferenceAdapter)
	}
	return s
}

// NotebookDir is where the notebooks keep each suite's rows, and beside
// them its tables (KeptFile).
func NotebookDir(root string) string { return filepath.Join(root, ".esr-cache", "notebooks") }

// Prepared is what Prepare did for one run.
type Prepared struct {
	Run NotebookRun
	// Computed is true when the rows were evaluated now, false when they
	// were read from the cache; Tables likewise for the kept tables.
	Computed, Tables bool
	Rows             int
	Took             time.Duration
}

// Prepare evaluates the rows of every NotebookRun into the
// notebooks' cache under root, and builds and keeps each run's tables
// beside them, jobs runs at a time: afterwards no notebook evaluates a
// suite or builds a Report that another notebook also needs, and a
// notebook's cell only reads. Rows and tables already cached for the
// current code, data and readers are read, not computed. done, when not
// nil, is called as each run ends (from several goroutines, one at a
// time).
func Prepare(ctx context.Context, root string, readers []reader.Reader, jobs int, done func(Prepared)) ([]Prepared, error) {
	if jobs < 1 {
		panic("rowcache: Prepare with jobs < 1")
	}
	var runs []NotebookRun
	for _, r := range NotebookRuns {
		if _, err := os.Stat(filepath.Join(root, "data", r.Bench)); err == nil {
			runs = append(runs, r)
		}
	}
	benches := map[string]*bench.Bench{}
	for _, r := range runs { // loaded once, before the runs share them
		if benches[r.Bench] == nil {
			b, err := NotebookBench(root, r.Bench)
			if err != nil {
				return nil, err
			}
			benches[r.Bench] = b
		}
	}
	out := make([]Prepared, len(runs))
	var mu sync.Mutex
	err := workpool.Run(ctx, len(runs), jobs, func(ctx context.Context, i int) error {
		p, err := prepareRun(ctx, root, runs[i], benches[runs[i].Bench], readers)
		if err != nil {
			return fmt.Errorf("%s: %w", runs[i], err)
		}
		out[i] = p
		if done != nil {
			mu.Lock()
			done(p)
			mu.Unlock()
		}
		return nil
	})
	return out, err
}

func prepareRun(ctx context.Context, root string, run NotebookRun, b *bench.Bench, readers []reader.Reader) (Prepared, error) {
	start := time.Now()
	su := run.Suite.Suite()
	s := NotebookSetup(root, su, b, readers)
	dir := NotebookDir(root)
	path, err := File(su, s, dir)
	if err != nil {
		return Prepared{}, err
	}
	rows, cached, err := Rows(ctx, su, s, dir)
	if err != nil {
		return Prepared{}, err
	}
	p := Prepared{Run: run, Computed: cached == "", Rows: len(rows)}
	kept := KeptFile(path, s.Stats)
	if _, ok := ReadKept(kept, path, rows); !ok {
		res, err := su.Report(rows, s)
		if err != nil {
			return Prepared{}, err
		}
		// Rows left its file unsealed only if the file changed while it was
		// read back: nothing to keep tables beside (the notebooks build them).
		if err := Keep(res, kept, path); err != nil && !errors.Is(err, errUnsealed) {
			return Prepared{}, err
		}
		p.Tables = true
	}
	p.Took = time.Since(start)
	return p, nil
}
