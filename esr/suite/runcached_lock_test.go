package suite_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/suite"
)

// Two callers of RunCached with one setup: the second waits for the
// first's rows instead of evaluating again, and no lock or temporary file
// is left in the cache folder.
func TestRunCachedEvaluatesOnce(t *testing.T) {
	var evals atomic.Int32
	su := suite.Suite{Name: "probe",
		Evaluate: func(ctx context.Context, s suite.Setup) ([]eval.Outcome, error) {
			evals.Add(1)
			time.Sleep(200 * time.Millisecond)
			return []eval.Outcome{{QID: "q1", Memory: "m", Reader: "r"}}, nil
		},
		Report: func(rows []eval.Outcome, s suite.Setup) (*suite.Result, error) {
			return &suite.Result{Name: "probe", Rows: rows}, nil
		}}
	s := suite.Setup{Bench: bench.Figure1Bench()}
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := su.RunCached(context.Background(), s, dir)
			if err != nil || len(res.Rows) != 1 {
				t.Errorf("RunCached: %v", err)
			}
		}()
	}
	wg.Wait()
	if n := evals.Load(); n != 1 {
		t.Errorf("evaluated %d times", n)
	}
	ents, _ := os.ReadDir(dir)
	// One rows file, and at most its snapshot (rowsnap.go) beside it.
	ok := len(ents) >= 1 && len(ents) <= 2 && strings.HasPrefix(ents[0].Name(), "probe-") && strings.HasSuffix(ents[0].Name(), ".jsonl")
	if len(ents) == 2 && ents[1].Name() != ents[0].Name()+".gob" {
		ok = false
	}
	if !ok {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("cache folder holds %v", names)
	}
}
