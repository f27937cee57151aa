package bench_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
)

// loadSnap loads dir with snapshots in snaps.
func loadSnap(t *testing.T, dir, snaps string) *bench.Bench {
	t.Helper()
	b, err := bench.LoadWith(dir, bench.LoadOptions{Snapshots: snaps})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A benchmark loaded through its snapshots is the benchmark loaded from
// JSON, field for field; a changed file is read from JSON again.
func TestLoadSnapshotsEqualJSON(t *testing.T) {
	dir := filepath.Join("..", "..", "data", "synthetic")
	if _, err := os.Stat(dir); err != nil {
		dir = writeBench(t, "", "")
	}
	want, err := bench.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	snaps := t.TempDir()
	first := loadSnap(t, dir, snaps) // decodes JSON, writes the snapshot
	files, _ := filepath.Glob(filepath.Join(snaps, "*"))
	if len(files) != 1 {
		t.Fatalf("snapshots written: %v, want one for the benchmark", files)
	}
	second := loadSnap(t, dir, snaps) // reads it
	// Field for field, the caches every load fills (a stream's event index,
	// an atom's normalised state) included.
	for i, got := range []*bench.Bench{first, second} {
		if !reflect.DeepEqual(got.Streams, want.Streams) || !reflect.DeepEqual(got.Atoms, want.Atoms) ||
			!reflect.DeepEqual(got.QAs, want.QAs) || !reflect.DeepEqual(got.Relations, want.Relations) {
			t.Fatalf("load %d through snapshots differs from the JSON load", i+1)
		}
	}
	var wantHash, gotHash strings.Builder
	want.HashTo(&wantHash)
	second.HashTo(&gotHash)
	if wantHash.String() != gotHash.String() {
		t.Error("the benchmark's hash differs through snapshots")
	}
}

// A snapshot never outlives its file: after an edit, Load reads the new
// JSON (and its errors still name file, line and field); a corrupt snapshot
// is ignored.
func TestLoadSnapshotsFollowTheFile(t *testing.T) {
	dir := writeBench(t, "", "")
	snaps := t.TempDir()
	b := loadSnap(t, dir, snaps)
	q := b.QAs[0]
	// Edit qa.jsonl: the first question gets another question text.
	path := filepath.Join(dir, bench.QAFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), q.Question, q.Question+" (edited)", 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := loadSnap(t, dir, snaps).QAs[0].Question; got != q.Question+" (edited)" {
		t.Fatalf("after the edit the question reads %q", got)
	}
	// A bad line is reported as without snapshots.
	if err := os.WriteFile(path, []byte(edited+`{"qid": 7}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = bench.LoadWith(dir, bench.LoadOptions{Snapshots: snaps})
	if err == nil || !strings.Contains(err.Error(), bench.QAFile+":3") || !strings.Contains(err.Error(), "qid") {
		t.Fatalf("bad line through snapshots: %v", err)
	}
	// Corrupt every snapshot: Load still reads the JSON.
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(snaps, "*"))
	for _, f := range files {
		if err := os.WriteFile(f, []byte("not a snapshot"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := loadSnap(t, dir, snaps).QAs[0].Question; got != q.Question+" (edited)" {
		t.Fatalf("with corrupt snapshots the question reads %q", got)
	}
}

// BenchmarkLoad compares loading the synthetic benchmark from its JSON
// files (the baseline) with loading it through snapshots.
//
//	go test ./esr/bench -run '^$' -bench Load
func BenchmarkLoad(b *testing.B) {
	dir := filepath.Join("..", "..", "data", "synthetic")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no data/synthetic")
	}
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			if _, err := bench.Load(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	snaps := b.TempDir()
	if _, err := bench.LoadWith(dir, bench.LoadOptions{Snapshots: snaps}); err != nil {
		b.Fatal(err)
	}
	b.Run("snapshots", func(b *testing.B) {
		for b.Loop() {
			if _, err := bench.LoadWith(dir, bench.LoadOptions{Snapshots: snaps}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
