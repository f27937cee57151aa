package rowcache_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/benchtest"
	"github.com/esrkit/esrkit/internal/rowcache"
)

// A rows cache file cut short, at a line or inside one, or without the
// seal that proves it whole, is not served: Rows evaluates the rows again
// (all of them), and the tables kept beside the file are not read either,
// and are removed when the file is written again.
func TestRowsCacheCutShortIsNotServed(t *testing.T) {
	s := lab.Setup{Bench: benchtest.Mini(8), Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 50, Seed: 2}}
	su := lab.SuiteRenderConfound.Suite()
	for _, cut := range []string{"at a line", "inside a line", "without its seal"} {
		t.Run(cut, func(t *testing.T) {
			dir := t.TempDir()
			all, _, err := rowcache.Rows(context.Background(), su, s, dir)
			if err != nil {
				t.Fatal(err)
			}
			path, err := rowcache.File(su, s, dir)
			if err != nil {
				t.Fatal(err)
			}
			res, err := su.Report(all, s)
			if err != nil {
				t.Fatal(err)
			}
			kept := rowcache.KeptFile(path, s.Stats)
			if err := rowcache.Keep(res, kept, path); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n := bytes.Count(data, []byte("\n"))
			at := len(data) / 2
			at = bytes.IndexByte(data[at:], '\n') + at + 1 // a line's end
			if cut == "inside a line" {
				at += 10
			}
			if cut == "without its seal" {
				if err := os.Remove(path + ".seal"); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(path, data[:at], 0o644); err != nil {
				t.Fatal(err)
			}
			if _, ok := rowcache.ReadKept(kept, path, nil); ok {
				t.Error("the tables kept beside a cut rows file were served")
			}
			calls := 0
			counting := su
			counting.Evaluate = func(ctx context.Context, s lab.Setup) ([]eval.Outcome, error) {
				calls++
				return su.Evaluate(ctx, s)
			}
			rows, cacheFile, err := rowcache.Rows(context.Background(), counting, s, dir)
			if err != nil {
				t.Fatal(err)
			}
			if calls != 1 || cacheFile != "" || len(rows) != n {
				t.Fatalf("%d rows (of %d) served, evaluated %d times, read from %q", len(rows), n, calls, cacheFile)
			}
			if _, err := os.Stat(kept); !os.IsNotExist(err) {
				t.Errorf("the tables kept beside the old file stay beside the new one (%v)", err)
			}
			if again, cacheFile, err := rowcache.Rows(context.Background(), counting, s, dir); err != nil || calls != 1 || cacheFile != path || len(again) != n {
				t.Errorf("the rows written again: %d read from %q, evaluated %d times, %v", len(again), cacheFile, calls, err)
			}
		})
	}
}
