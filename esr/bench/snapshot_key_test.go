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

// hashOf is what b.HashTo writes: the benchmark part of every rows key.
func hashOf(t *testing.T, b *bench.Bench) string {
	t.Helper()
	var h strings.Builder
	if err := b.HashTo(&h); err != nil {
		t.Fatal(err)
	}
	return h.String()
}

// A gold answer changed behind a snapshot's back, its file's size and
// modification time restored (cp -p, touch -r, an archive, a network file
// system), is seen by the next load, and the benchmark's hash (the part of
// every rows key that names the data) always names the content the load
// returned: rows evaluated from old content never go under the new
// content's key.
func TestSnapshotHashNamesTheContentItServes(t *testing.T) {
	dir := writeBench(t, "", "")
	old := time.Now().Add(-time.Hour)
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for _, f := range files {
		if err := os.Chtimes(f, old, old); err != nil {
			t.Fatal(err)
		}
	}
	snaps := t.TempDir()
	before := loadSnap(t, dir, snaps) // writes the snapshot
	path := filepath.Join(dir, bench.QAFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"gold_answer":"30 s"`, `"gold_answer":"31 s"`, 1)
	if edited == string(data) || len(edited) != len(data) {
		t.Fatal("test setup: no same-length edit of a gold answer")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	got := loadSnap(t, dir, snaps)
	now, err := bench.Load(dir) // the files as they are now, no snapshot
	if err != nil {
		t.Fatal(err)
	}
	served, current := hashOf(t, got), hashOf(t, now)
	if sameQAs := reflect.DeepEqual(got.QAs, now.QAs); sameQAs != (served == current) {
		t.Fatalf("the load returned the questions of %s but hashed as the files on disk (same content %v, same hash %v)",
			map[bool]string{true: "the files on disk", false: "the old files"}[sameQAs], sameQAs, served == current)
	}
	if served == hashOf(t, before) {
		t.Fatal("a changed gold answer kept the benchmark's hash")
	}
	if got.QAs[0].GoldAnswer != "31 s" {
		t.Fatalf("gold answer %q: the snapshot answered for a file changed behind it", got.QAs[0].GoldAnswer)
	}
}

// A loaded benchmark's hash names the bytes it was decoded from, not the
// files as they are when a key is made: `esr prepare` loads each benchmark
// once and keys its runs' rows minutes later, and a file changed meanwhile
// must not lend its hash to rows evaluated from the old one. Through a
// snapshot likewise.
func TestBenchHashNamesTheBytesItWasLoadedFrom(t *testing.T) {
	dir := writeBench(t, "", "")
	for _, snaps := range []string{"", t.TempDir()} {
		b, err := bench.LoadWith(dir, bench.LoadOptions{Snapshots: snaps})
		if err != nil {
			t.Fatal(err)
		}
		loaded := hashOf(t, b)
		path := filepath.Join(dir, bench.QAFile)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		answer := b.QAs[0].GoldAnswer
		edited := strings.Replace(string(data), `"gold_answer":"`+answer+`"`, `"gold_answer":"`+answer+`!"`, 1)
		if edited == string(data) {
			t.Fatal("test setup: no edit of a gold answer")
		}
		if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		if hashOf(t, b) != loaded {
			t.Fatalf("snapshots %q: the benchmark's hash followed a file changed after the load", snaps)
		}
		now, err := bench.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if hashOf(t, now) == loaded {
			t.Fatal("a changed gold answer kept the benchmark's hash")
		}
	}
}
