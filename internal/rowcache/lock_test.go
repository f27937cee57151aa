package rowcache_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/rowcache"
)

// Two callers of Rows with one setup: the second waits for the first's
// rows instead of evaluating again, and no lock or temporary file is left
// in the cache folder.
func TestRowsEvaluatesOnce(t *testing.T) {
	var evals atomic.Int32
	su := lab.Suite{Name: "probe",
		Evaluate: func(ctx context.Context, s lab.Setup) ([]eval.Outcome, error) {
			evals.Add(1)
			time.Sleep(200 * time.Millisecond)
			return []eval.Outcome{{QID: "q1", Memory: memory.SpecOf("m"), Reader: reader.Spec{Kind: reader.KindSim, Name: "r"}}}, nil
		},
		Report: func(rows []eval.Outcome, s lab.Setup) (*lab.Result, error) {
			return &lab.Result{Name: "probe", Rows: rows}, nil
		}}
	s := lab.Setup{Bench: bench.Figure1Bench()}
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows, _, err := rowcache.Rows(context.Background(), su, s, dir)
			if err != nil || len(rows) != 1 {
				t.Errorf("Rows: %v (%d rows)", err, len(rows))
			}
		}()
	}
	wg.Wait()
	if n := evals.Load(); n != 1 {
		t.Errorf("evaluated %d times", n)
	}
	ents, _ := os.ReadDir(dir)
	// One rows file, its seal and at most its snapshot beside it
	// (rowsfile.go).
	ok := len(ents) >= 2 && len(ents) <= 3 && strings.HasPrefix(ents[0].Name(), "probe-") && strings.HasSuffix(ents[0].Name(), ".jsonl")
	for i, suffix := range []string{".seal", ".snap"} {
		if len(ents) > i+1 && ents[i+1].Name() != ents[0].Name()+suffix {
			ok = false
		}
	}
	if !ok {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("cache folder holds %v", names)
	}
}

// Writing rows removes the suite's rows of other code versions (another
// code tag, or the untagged names from before tags) with their snapshots,
// and keeps everything else: the current code's rows for another setup,
// other suites' rows, lock files and files that are not rows.
func TestRowsPruneOtherCode(t *testing.T) {
	su := lab.Suite{Name: "probe",
		Evaluate: func(ctx context.Context, s lab.Setup) ([]eval.Outcome, error) {
			return []eval.Outcome{{QID: "q1", Memory: memory.SpecOf("m"), Reader: reader.Spec{Kind: reader.KindSim, Name: "r"}}}, nil
		},
		Report: func(rows []eval.Outcome, s lab.Setup) (*lab.Result, error) {
			return &lab.Result{Name: "probe", Rows: rows}, nil
		}}
	dir := t.TempDir()
	stale := []string{
		"probe-0123456789abcdef0123.jsonl", "probe-0123456789abcdef0123.jsonl.gob", // untagged (before tags)
		"probe-deadbeef-0123456789abcdef0123.jsonl", "probe-deadbeef-0123456789abcdef0123.jsonl.gob", // another code version
		"probe-deadbeef-0123456789abcdef0123.jsonl.snap",                    // its snapshot of today's format
		"probe-deadbeef-0123456789abcdef0123.jsonl.seal",                    // its seal
		"probe-deadbeef-0123456789abcdef0123.jsonl.tables-0123456789ab.gob", // the tables a notebook kept beside it
	}
	keep := []string{
		"probe-deadbeef-0123456789abcdef0123.jsonl.lock", // a lock is never touched
		"probe-notes.txt", "probe-deadbeef-0123.jsonl", // not rows files
		"probe2-deadbeef-0123456789abcdef0123.jsonl", "other-0123456789abcdef0123.jsonl", // other suites
	}
	for _, n := range append(append([]string{}, stale...), keep...) {
		if err := os.WriteFile(dir+"/"+n, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rows, _, err := rowcache.Rows(context.Background(), su, lab.Setup{Bench: bench.Figure1Bench()}, dir)
	if err != nil || len(rows) != 1 {
		t.Fatalf("Rows: %v (%d rows)", err, len(rows))
	}
	names := map[string]bool{}
	ents, _ := os.ReadDir(dir)
	var current []string
	for _, e := range ents {
		names[e.Name()] = true
		if strings.HasPrefix(e.Name(), "probe-") && strings.HasSuffix(e.Name(), ".jsonl") && !strings.Contains(e.Name(), "deadbeef") {
			current = append(current, e.Name())
		}
	}
	for _, n := range stale {
		if names[n] {
			t.Errorf("%s (another code version) was kept", n)
		}
	}
	for _, n := range keep {
		if !names[n] {
			t.Errorf("%s was removed", n)
		}
	}
	if len(current) != 1 || strings.Count(current[0], "-") != 2 {
		t.Errorf("current rows files %v, want one named probe-TAG-FINGERPRINT.jsonl", current)
	}
	// The current code's rows for another setup stay when new rows are
	// written.
	other := bench.Figure1Bench()
	other.QAs = other.QAs[:0]
	if _, _, err := rowcache.Rows(context.Background(), su, lab.Setup{Bench: other}, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir + "/" + current[0]); err != nil {
		t.Errorf("the current code's rows of the first setup were removed: %v", err)
	}
}
