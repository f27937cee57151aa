package nbhelp

import (
	"reflect"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
)

// A cell that shows a table kept beside cached rows does not read the rows
// (GoNB reruns the notebook's Run in every cell); the rows, read when a cell
// asks for them, are the ones the first run evaluated.
func TestRunReadsCachedRowsOnlyWhenUsed(t *testing.T) {
	t.Setenv(rootEnv, t.TempDir())
	t.Setenv(nonInteractiveEnv, "1")
	b := bench.Figure1Bench()
	id := lab.Table2Decomposition

	first := RunWith("render-confound", b, ScriptedReaders())
	if first.CacheFile != "" || !first.loaded {
		t.Fatalf("first run: CacheFile %q, loaded %v; want rows evaluated now", first.CacheFile, first.loaded)
	}
	want := first.Rows()
	if len(want) == 0 {
		t.Fatal("first run: no rows")
	}

	second := RunWith("render-confound", b, ScriptedReaders())
	if second.CacheFile == "" || second.loaded {
		t.Fatalf("second run: CacheFile %q, loaded %v; want cached rows not yet read", second.CacheFile, second.loaded)
	}
	built, err := second.Table(id) // built from the rows, and kept beside them
	if err != nil {
		t.Fatal(err)
	}
	if !second.loaded {
		t.Error("second run: the table was built without reading the rows")
	}

	third := RunWith("render-confound", b, ScriptedReaders())
	kept, err := third.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	if third.loaded {
		t.Error("third run: showing the kept table read the rows")
	}
	if !reflect.DeepEqual(kept, built) {
		t.Errorf("kept table differs from the one built:\n%+v\n%+v", kept, built)
	}
	if got := third.Rows(); !reflect.DeepEqual(got, want) {
		t.Errorf("cached rows differ from the evaluated ones: %d rows, want %d", len(got), len(want))
	}
	if third.CacheFile != second.CacheFile {
		t.Errorf("CacheFile changed on reading: %q, want %q", third.CacheFile, second.CacheFile)
	}
}
