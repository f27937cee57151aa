package bench_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
)

// The loader's leniencies (folding tabs and line breaks, keeping questions
// of a lossy extraction) change nothing in the bundled benchmarks: none of
// them folds a field, and those built from their own atoms (all but the
// generated synthetic set, whose extraction may be lossy on purpose) load
// exactly as when every question must be covered.
func TestBundledBenchmarksLoadUnchanged(t *testing.T) {
	for _, name := range []string{"synthetic", "dyknow", "vdyknow", "debian"} {
		dir := filepath.Join("..", "..", "data", name)
		if _, err := os.Stat(filepath.Join(dir, bench.QAFile)); err != nil {
			t.Logf("%s: not here (%v)", name, err)
			continue
		}
		b, err := bench.Load(dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.Folds != nil {
			t.Errorf("%s: folded %+v", name, b.Folds)
		}
		if name == "synthetic" {
			continue
		}
		strict, err := bench.LoadWith(dir, bench.LoadOptions{RequireCoverage: true})
		if err != nil {
			t.Fatalf("%s with RequireCoverage: %v", name, err)
		}
		same := reflect.DeepEqual(b.Streams, strict.Streams) && reflect.DeepEqual(b.Atoms, strict.Atoms) &&
			reflect.DeepEqual(b.QAs, strict.QAs) && reflect.DeepEqual(b.Relations, strict.Relations)
		if b.Uncovered != nil || !same {
			t.Errorf("%s: uncovered %v; loads differently when coverage is required", name, b.Uncovered)
		}
	}
}
