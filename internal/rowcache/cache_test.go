package rowcache_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
	"github.com/esrkit/esrkit/internal/rowcache"
)

// runCached reads su's rows from dir, or evaluates and keeps them there
// (rowcache.Rows), and reports them; cacheFile is the file the rows were
// read from ("" when they were evaluated).
func runCached(t *testing.T, su lab.Suite, s lab.Setup, dir string) (res *lab.Result, cacheFile string) {
	t.Helper()
	rows, cacheFile, err := rowcache.Rows(context.Background(), su, s, dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err = su.Report(rows, s)
	if err != nil {
		t.Fatal(err)
	}
	return res, cacheFile
}

// Rows read back from the cache give the same tables, and are not
// evaluated again.
func TestCachedRowsReportTheSameTables(t *testing.T) {
	b := benchtest.Mini(8)
	s := lab.Setup{Bench: b, Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 300, Seed: 2}}
	dir := t.TempDir()
	su := lab.SuiteRenderConfound.Suite()
	r1, _ := runCached(t, su, s, dir)
	calls := 0
	counting := su
	counting.Evaluate = func(ctx context.Context, s lab.Setup) ([]eval.Outcome, error) {
		calls++
		return su.Evaluate(ctx, s)
	}
	r2, cacheFile := runCached(t, counting, s, dir)
	if calls != 0 || cacheFile == "" {
		t.Errorf("cached run evaluated %d times, read from %q", calls, cacheFile)
	}
	if r1.Tables[1].Markdown() != r2.Tables[1].Markdown() {
		t.Errorf("cached tables differ:\n%s\n%s", r1.Tables[1].Markdown(), r2.Tables[1].Markdown())
	}
}

// The result cache cannot go stale: two readers with the same name and
// different capabilities get different rows, and a rerun of the same setup
// says it came from the cache.
func TestRowsCacheKeysOnReaderConfig(t *testing.T) {
	b := bench.Figure1Bench()
	dir := t.TempDir()
	runWith := func(caps sim.ScriptedCapabilities) (*lab.Result, string) {
		r, err := sim.NewScriptedWith("mine", caps)
		if err != nil {
			t.Fatal(err)
		}
		s := lab.Setup{Bench: b, Readers: []reader.Reader{r}, Stats: eval.StatOptions{B: 200, Seed: 1}}
		return runCached(t, lab.SuiteRenderConfound.Suite(), s, dir)
	}
	answers := func(res *lab.Result) string {
		var out []string
		for _, o := range res.Rows {
			if o.Memory.Is(memory.RenderOnly) {
				out = append(out, o.Answer)
			}
		}
		return strings.Join(out, ",")
	}
	sorting, sortingFile := runWith(sim.ScriptedCapabilities{SortsByTime: true})
	blind, blindFile := runWith(sim.ScriptedCapabilities{})
	if sortingFile != "" || blindFile != "" {
		t.Fatalf("first runs came from the cache: %q %q", sortingFile, blindFile)
	}
	if answers(sorting) == answers(blind) {
		t.Errorf("a date-sorting and a date-blind reader named alike gave the same render-only answers %q: the cache is keyed on the name only", answers(sorting))
	}
	again, againFile := runWith(sim.ScriptedCapabilities{SortsByTime: true})
	if againFile == "" || answers(again) != answers(sorting) {
		t.Errorf("rerun: cache file %q, answers %q (want cached %q)", againFile, answers(again), answers(sorting))
	}
}
