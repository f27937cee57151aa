package eval_test

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// TestConcurrentRunsShareOneBench runs every memory class with the default
// simulated panel in several evaluations at once over one loaded benchmark,
// as esr prepare runs its suites. The benchmark comes from its snapshot
// (the path a notebook and esr prepare take), so nothing a method would
// fill lazily was filled by the JSONL loader first. Under -race (make test
// runs this package so) it fails on any unsynchronised write to shared
// state; without -race it still checks that concurrent runs give the rows a
// lone run gives.
func TestConcurrentRunsShareOneBench(t *testing.T) {
	opt := bench.LoadOptions{Snapshots: t.TempDir()}
	if _, err := bench.LoadWith("../../data/synthetic", opt); err != nil {
		t.Fatal(err)
	}
	load := func() *bench.Bench {
		b, err := bench.LoadWith("../../data/synthetic", opt) // from the snapshot
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var readers []reader.Reader
	for _, p := range sim.CalibratedProfiles() {
		r, err := sim.New(p, 1)
		if err != nil {
			t.Fatal(err)
		}
		readers = append(readers, r)
	}
	// The paper's classes, and each deployed class with its two controls
	// (the deployed suite's memories).
	mems := memory.Specs(memory.Names...)
	for _, c := range memory.Specs(memory.DeployedNames...) {
		mems = append(mems, c, c.RenderMatched(), c.ContentMatched())
	}
	cfg := eval.Config{Memories: mems, Readers: readers, Concurrency: 2,
		Phenomena: []esr.Phenomenon{esr.RevertedRevert}, QueryTypes: []esr.QueryType{esr.Snapshot}}
	lone, err := eval.Evaluate(context.Background(), load(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	shared := load()
	const runs = 3
	got := make([][]eval.Outcome, runs)
	errs := make([]error, runs)
	var wg sync.WaitGroup
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = eval.Evaluate(context.Background(), shared, cfg)
		}()
	}
	wg.Wait()
	for i := range runs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if len(got[i]) == 0 || !reflect.DeepEqual(got[i], lone) {
			t.Errorf("run %d of %d at once: %d rows, not the %d rows of a lone run", i+1, runs, len(got[i]), len(lone))
		}
	}
}
