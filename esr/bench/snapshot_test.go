package bench_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

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

// A snapshot of a file last written well before it is trusted by the
// file's size and time: Load then reads no JSON at all. (Here the file's
// bytes are changed behind its back, same size and time restored, to show
// that the snapshot answered; an edit in the ordinary way changes the time,
// TestLoadSnapshotsFollowTheFile.)
func TestLoadSnapshotsTrustTheStat(t *testing.T) {
	dir := writeBench(t, "", "")
	old := time.Now().Add(-time.Hour)
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for _, f := range files {
		os.Chtimes(f, old, old)
	}
	snaps := t.TempDir()
	loadSnap(t, dir, snaps) // writes stamped snapshots
	want := loadSnap(t, dir, snaps)
	path := filepath.Join(dir, bench.StreamsFile)
	data, _ := os.ReadFile(path)
	// Same length, one letter changed in the first stream's ID everywhere it is read.
	id := want.Streams[0].ID
	swapped := strings.Replace(string(data), `"`+id+`"`, `"`+id[:len(id)-1]+"~"+`"`, 1)
	if swapped == string(data) || len(swapped) != len(data) {
		t.Fatal("test setup: no same-length edit")
	}
	os.WriteFile(path, []byte(swapped), 0o644)
	os.Chtimes(path, old, old)
	if got := loadSnap(t, dir, snaps); got.Streams[0].ID != id {
		t.Fatalf("Load read the JSON (stream %q), want the snapshot's %q", got.Streams[0].ID, id)
	}
	// Touched: the time differs, the JSON is read and hashed, and the edit shows.
	now := time.Now()
	os.Chtimes(path, now, now)
	// (The edited ID may no longer match its atoms and questions, and Load's
	// checks refuse it: either way it is the JSON that was read.)
	if b, err := bench.LoadWith(dir, bench.LoadOptions{Snapshots: snaps}); err == nil && b.Streams[0].ID == id {
		t.Fatal("after a touch Load still answered from the snapshot")
	}
}

// gob decodes an empty list as nil, but the JSON's "[]" and null are two
// benchmarks (the hash, which keys every cache, tells them apart): a
// qa.jsonl with both is snapshotted, and the rows read back from the
// snapshot keep each as it was. (Same technique as
// TestLoadSnapshotsTrustTheStat: the file is changed behind the snapshot's
// back to show that the snapshot answered.)
func TestLoadSnapshotsKeepEmptyLists(t *testing.T) {
	dir := writeBench(t, "", "")
	path := filepath.Join(dir, bench.QAFile)
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 2 {
		t.Fatal("test setup: want two questions")
	}
	lines[0] = strings.Replace(lines[0], `"gold_deprecated_event_ids":["e2"]`, `"gold_deprecated_event_ids":[]`, 1)
	lines[1] = strings.Replace(lines[1], `"gold_deprecated_event_ids":["e2"]`, `"gold_deprecated_event_ids":null`, 1)
	edited := strings.Join(lines, "\n") + "\n"
	if !strings.Contains(edited, `:[]`) || !strings.Contains(edited, `:null`) {
		t.Fatal("test setup: the edit did not apply")
	}
	old := time.Now().Add(-time.Hour)
	os.WriteFile(path, []byte(edited), 0o644)
	os.Chtimes(path, old, old)
	want, err := bench.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	snaps := t.TempDir()
	loadSnap(t, dir, snaps) // writes the snapshot
	// Same length and time, another question text: a load that shows the
	// old text was answered by the snapshot.
	swapped := strings.Replace(edited, `"question":"What`, `"question":"Whet`, 1)
	os.WriteFile(path, []byte(swapped), 0o644)
	os.Chtimes(path, old, old)
	got := loadSnap(t, dir, snaps)
	if got.QAs[0].Question != want.QAs[0].Question {
		t.Fatalf("question %q: qa.jsonl was read as JSON, want it read from its snapshot", got.QAs[0].Question)
	}
	for i, q := range got.QAs {
		w := want.QAs[i]
		if (q.GoldDeprecatedEventIDs == nil) != (w.GoldDeprecatedEventIDs == nil) || len(q.GoldDeprecatedEventIDs) != len(w.GoldDeprecatedEventIDs) {
			t.Errorf("%s: deprecated IDs %#v through the snapshot, %#v from JSON", q.QID, q.GoldDeprecatedEventIDs, w.GoldDeprecatedEventIDs)
		}
	}
	if want.QAs[0].GoldDeprecatedEventIDs == nil || want.QAs[1].GoldDeprecatedEventIDs != nil {
		t.Fatalf("test setup: JSON gave %#v and %#v, want [] and nil", want.QAs[0].GoldDeprecatedEventIDs, want.QAs[1].GoldDeprecatedEventIDs)
	}
	var wantHash, gotHash strings.Builder
	want.HashTo(&wantHash)
	got.HashTo(&gotHash)
	if wantHash.String() != gotHash.String() {
		t.Error("the benchmark's hash differs through the snapshot")
	}
}
