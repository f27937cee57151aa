package bench_test

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/gobsnap"
)

// snapshotOf is the snapshot file of the bench file named like name.
func snapshotOf(t *testing.T, snaps, name string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(snaps, "*-"+name+".gob"))
	if len(files) != 1 {
		t.Fatalf("snapshots of %s: %v", name, files)
	}
	return files[0]
}

// a snapshot's body was never checked: one value's bytes
// changed in it (the question of the first QA) and Load used it. The header
// carries the body's SHA-256; a changed body is ignored and the JSON read.
func TestLoadSnapshotBodyIsChecked(t *testing.T) {
	dir := writeBench(t, "", "")
	want, err := bench.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	snaps := t.TempDir()
	loadSnap(t, dir, snaps)
	path := snapshotOf(t, snaps, bench.QAFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	q := want.QAs[0].Question
	i := bytes.Index(data, []byte(q))
	if i < 0 {
		t.Fatalf("question %q not in the snapshot", q)
	}
	data[i] ^= 0x20 // one letter's case: same length, still valid gob
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

// a snapshot header's row count was trusted: -5
// panicked, 2^40 died out of memory (2^26 took 3.7 GB). Any count the
// source cannot hold (negative, more rows than it has lines) falls back to
// the JSON.
func TestLoadSnapshotImplausibleCount(t *testing.T) {
	dir := writeBench(t, "", "")
	want, err := bench.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(readText(t, filepath.Join(dir, bench.AtomsFile)), "\n")
	for _, n := range []int{-5, -2, lines + 1, 1 << 26, 1 << 40} {
		snaps := t.TempDir()
		loadSnap(t, dir, snaps)
		path := snapshotOf(t, snaps, bench.AtomsFile)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r := bytes.NewReader(data)
		var head gobsnap.Header
		if err := gob.NewDecoder(r).Decode(&head); err != nil {
			t.Fatal(err)
		}
		body := data[len(data)-r.Len():]
		head.N = n
		var out bytes.Buffer
		if err := gob.NewEncoder(&out).Encode(head); err != nil {
			t.Fatal(err)
		}
		out.Write(body)
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("header count %d: Load panicked: %v", n, p)
				}
			}()
			got := loadSnap(t, dir, snaps)
			if !reflect.DeepEqual(got.Atoms, want.Atoms) {
				t.Errorf("header count %d: atoms differ from the JSON's", n)
			}
		}()
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
