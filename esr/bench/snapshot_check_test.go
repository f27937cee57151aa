package bench_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
)

// snapshotOf is the one snapshot file in snaps.
func snapshotOf(t *testing.T, snaps string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(snaps, "*"))
	if len(files) != 1 {
		t.Fatalf("snapshots: %v, want one", files)
	}
	return files[0]
}

// A snapshot whose body changed (here one letter of the first question) is
// not used: the header carries the body's CRC-32C, and the JSON is read.
func TestLoadSnapshotBodyIsChecked(t *testing.T) {
	dir := writeBench(t, "", "")
	want, err := bench.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	snaps := t.TempDir()
	loadSnap(t, dir, snaps)
	path := snapshotOf(t, snaps)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	q := want.QAs[0].Question
	i := bytes.Index(data, []byte(q))
	if i < 0 {
		t.Fatalf("question %q not in the snapshot", q)
	}
	data[i] ^= 0x20 // one letter's case: same length, still a well-formed body
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got := loadSnap(t, dir, snaps)
	if got.QAs[0].Question != q {
		t.Fatalf("Load used a changed snapshot body: question %q, the file says %q", got.QAs[0].Question, q)
	}
	if !reflect.DeepEqual(got.QAs, want.QAs) {
		t.Error("QAs differ from the JSON's")
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
