package rowcache

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// The snapshot returns exactly the JSONL file's rows, and is not used once
// the JSONL file changes.
func TestReadRowsSnapshot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite-fp.jsonl")
	rows := []eval.Outcome{
		{QID: "q1", Memory: memory.SpecOf(memory.FineLedger), Reader: reader.Oracle{}.Spec(), Answer: "B", Gold: "B", Correct: true, ContextTokens: 12, Label: "correct"},
		{QID: "q1", Memory: memory.SpecOf(memory.RenderOnly), Reader: reader.Oracle{}.Spec(), Abstained: true, Gold: "B", Reason: "two live values", Label: "abstained"},
	}
	sealRows(t, path, rows)
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
	sealRows(t, path, rows)
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

// sealRows writes rows to path as Rows does, sealed, without a snapshot.
func sealRows(t testing.TB, path string, rows []eval.Outcome) {
	t.Helper()
	sum, err := bench.WriteJSONLSum(path, rows)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := writeSeal(path, len(rows), sum); !ok || err != nil {
		t.Fatalf("writeSeal: %v, %v", ok, err)
	}
}

// BenchmarkReadRows compares decoding a cache file's rows from JSON (the
// baseline: eval.ReadOutcomes) with reading them through the snapshot
// (readRows, snapshot present), on 20,000 rows shaped like a suite's.
//
//	go test ./internal/rowcache -run '^$' -bench ReadRows
func BenchmarkReadRows(b *testing.B) {
	path := filepath.Join(b.TempDir(), "suite-fp.jsonl")
	rows := make([]eval.Outcome, 20000)
	for i := range rows {
		rows[i] = eval.Outcome{QID: "syn-dk-" + strconv.Itoa(i/20) + "-k1-snap", StreamID: "syn-dk-" + strconv.Itoa(i/20),
			Source: "synthetic-dyknow", Phenomenon: "reverted_revert", QueryType: "snapshot", Memory: memory.SpecOf(memory.FineLedger),
			Reader: reader.Spec{Kind: reader.KindSim, Name: "fit-gpt-4o"}, Family: reader.Family{Kind: reader.KindSim, Name: "fit-gpt-4o"}, Answer: "Umar Achebe", RawAnswer: "Umar Achebe",
			Gold: "Umar Achebe", Correct: i%3 != 0, ContextTokens: 39 + i%200,
			Reason: "sim:fit-gpt-4o: key Ithovo head_of_state: newest of 4 dated (2007-12-22)", Label: "correct"}
	}
	sealRows(b, path, rows)
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			if _, err := eval.ReadOutcomes(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	if _, err := readRows(path); err != nil { // writes the snapshot
		b.Fatal(err)
	}
	// A later cell's read: the seal and snapshot written well after the
	// file (its stamp trusted, nothing hashed).
	later := time.Now().Add(time.Hour)
	for _, p := range []string{path + sealSuffix, path + snapSuffix} {
		if err := os.Chtimes(p, later, later); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("snapshot", func(b *testing.B) {
		for b.Loop() {
			if _, err := readRows(path); err != nil {
				b.Fatal(err)
			}
		}
	})
}
