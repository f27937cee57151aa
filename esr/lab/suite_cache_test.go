package lab_test

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
)

// A cached run reads its rows back and reports the same tables.
func TestRunCached(t *testing.T) {
	b := benchtest.Mini(8)
	s := lab.Setup{Bench: b, Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 300, Seed: 2}}
	dir := t.TempDir()
	su := lab.SuiteRenderConfound.Suite()
	r1, err := su.RunCached(context.Background(), s, dir)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	counting := su
	counting.Evaluate = func(ctx context.Context, s lab.Setup) ([]eval.Outcome, error) {
		calls++
		return su.Evaluate(ctx, s)
	}
	r2, err := counting.RunCached(context.Background(), s, dir)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("cached run evaluated %d times", calls)
	}
	if r1.Tables[1].Markdown() != r2.Tables[1].Markdown() {
		t.Errorf("cached tables differ:\n%s\n%s", r1.Tables[1].Markdown(), r2.Tables[1].Markdown())
	}
}

// The result cache cannot go stale: two readers with the same name and
// different capabilities get different rows through RunCached, and a rerun
// of the same setup says it came from the cache.
func TestRunCachedKeysOnReaderConfig(t *testing.T) {
	b := bench.Figure1Bench()
	dir := t.TempDir()
	runWith := func(caps sim.ScriptedCapabilities) *lab.Result {
		r, err := sim.NewScriptedWith("mine", caps)
		if err != nil {
			t.Fatal(err)
		}
		s := lab.Setup{Bench: b, Readers: []reader.Reader{r}, Stats: eval.StatOptions{B: 200, Seed: 1}}
		res, err := lab.SuiteRenderConfound.Suite().RunCached(context.Background(), s, dir)
		if err != nil {
			t.Fatal(err)
		}
		return res
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
	sorting := runWith(sim.ScriptedCapabilities{SortsByTime: true})
	blind := runWith(sim.ScriptedCapabilities{})
	if sorting.CacheFile != "" || blind.CacheFile != "" {
		t.Fatalf("first runs came from the cache: %q %q", sorting.CacheFile, blind.CacheFile)
	}
	if answers(sorting) == answers(blind) {
		t.Errorf("a date-sorting and a date-blind reader named alike gave the same render-only answers %q: the cache is keyed on the name only", answers(sorting))
	}
	again := runWith(sim.ScriptedCapabilities{SortsByTime: true})
	if again.CacheFile == "" || answers(again) != answers(sorting) {
		t.Errorf("rerun: cache file %q, answers %q (want cached %q)", again.CacheFile, answers(again), answers(sorting))
	}
}
