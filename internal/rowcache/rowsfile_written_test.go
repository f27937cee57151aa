package rowcache

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// The snapshot written beside freshly evaluated rows gives the first
// reader exactly what decoding the JSONL file gives.
func TestRowsReadBackFromTheirSnapshotAsFromJSONL(t *testing.T) {
	rs, err := reader.ParseList("scripted:status-reader,sim:fit-qwen3-8b", llm.Setup{}, sim.Readers)
	if err != nil {
		t.Fatal(err)
	}
	s := lab.Setup{Bench: benchtest.Mini(4), Readers: rs, Stats: eval.StatOptions{B: 50, Seed: 1}}
	for _, name := range []string{"render-confound", "provenance", "noise", "formats", "boundary", "checks"} {
		dir := t.TempDir()
		su := lab.SuiteID(name).Suite()
		if _, _, err := Rows(context.Background(), su, s, dir); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path, err := File(su, s, dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path + snapSuffix); err != nil {
			t.Fatalf("%s: no snapshot beside the rows just written: %v", name, err)
		}
		fromSnap, err := readRows(path)
		if err != nil {
			t.Fatal(err)
		}
		fromJSON, err := eval.ReadOutcomes(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(fromJSON) == 0 || !reflect.DeepEqual(fromSnap, fromJSON) {
			t.Errorf("%s: %d rows from the snapshot differ from the %d decoded from JSONL", name, len(fromSnap), len(fromJSON))
		}
	}
}
