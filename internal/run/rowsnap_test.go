package run

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
)

// The snapshot returns exactly the JSONL file's rows, and is not used once
// the JSONL file changes.
func TestReadRowsSnapshot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite-fp.jsonl")
	rows := []eval.Outcome{
		{QID: "q1", Memory: "fine-ledger", Reader: "oracle", Answer: "B", Gold: "B", Correct: true, ContextTokens: 12, Label: "correct"},
		{QID: "q1", Memory: "render-only", Reader: "oracle", Abstained: true, Gold: "B", Reason: "two live values", Label: "abstained"},
	}
	if err := bench.WriteJSONL(path, rows); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // decoded from JSON (snapshot written), then from the snapshot
		got, err := readRows(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, rows) {
			t.Fatalf("read %d: %+v, want %+v", i, got, rows)
		}
		if _, err := os.Stat(path + snapSuffix); err != nil {
			t.Fatalf("read %d: no snapshot: %v", i, err)
		}
	}
	// The JSONL file changes (same length, other answer): the stale snapshot is ignored.
	rows[0].Answer = "C"
	if err := bench.WriteJSONL(path, rows); err != nil {
		t.Fatal(err)
	}
	got, err := readRows(path)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Answer != "C" {
		t.Fatalf("read a stale snapshot: answer %q, want C", got[0].Answer)
	}
	// A corrupt snapshot is ignored too.
	if err := os.WriteFile(path+snapSuffix, []byte("not gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := readRows(path); err != nil || !reflect.DeepEqual(got, rows) {
		t.Fatalf("corrupt snapshot: %v, %v", got, err)
	}
}
