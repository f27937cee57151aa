package gobsnap

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/regfile/regfiletest"
)

type rowA struct {
	ID    string `json:"id"`
	Items []int  `json:"items"`
}

type rowB struct {
	ID    string `json:"id"`
	Items []int  `json:"items,omitempty"` // only the tag differs
}

// A snapshot is read back while its source and type are unchanged, and not
// after either changes.
func TestOpenMatchesSourceAndSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "rows.gob")
	src := []byte(`{"id":"a","items":[1,2]}` + "\n")
	rows := []rowA{{ID: "a", Items: []int{1, 2}}}
	var body bytes.Buffer
	if err := gob.NewEncoder(&body).Encode(rows); err != nil {
		t.Fatal(err)
	}
	head := For[rowA](src)
	head.N = len(rows)
	if err := Write(path, head, body.Bytes()); err != nil {
		t.Fatal(err)
	}
	got, dec, ok := Open(path, For[rowA](src))
	if !ok || got.N != 1 {
		t.Fatalf("Open: ok %v, header %+v", ok, got)
	}
	var back []rowA
	if err := dec.Decode(&back); err != nil || !reflect.DeepEqual(back, rows) {
		t.Fatalf("values: %+v, %v", back, err)
	}
	if _, _, ok := Open(path, For[rowA](append(src, ' '))); ok {
		t.Error("read a snapshot of other source bytes")
	}
	if _, _, ok := Open(path, For[rowB](src)); ok {
		t.Error("read a snapshot of another type (a changed struct tag)")
	}
	if Schema(reflect.TypeFor[rowA]()) == Schema(reflect.TypeFor[rowB]()) {
		t.Error("Schema does not see the tag")
	}
}

// a snapshot whose values were changed (one byte of a
// value, still valid gob) is not read: the header's Body names the values'
// bytes.
func TestOpenChecksTheBody(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.gob")
	src := []byte(`{"id":"abc","items":[1]}` + "\n")
	var body bytes.Buffer
	if err := gob.NewEncoder(&body).Encode([]rowA{{ID: "abc", Items: []int{1}}}); err != nil {
		t.Fatal(err)
	}
	head := For[rowA](src)
	head.N = 1
	if err := Write(path, head, body.Bytes()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.LastIndex(data, []byte("abc"))
	data[i] = 'x'
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, dec, ok := Open(path, For[rowA](src)); ok {
		var back []rowA
		dec.Decode(&back)
		t.Fatalf("Open read a changed body: %+v", back)
	}
}

// OpenStat trusts a stamped header only while the source's size and time
// are the stamped ones and the source was last written well before the
// snapshot.
func TestOpenStat(t *testing.T) {
	dir := t.TempDir()
	src, snap := filepath.Join(dir, "rows.jsonl"), filepath.Join(dir, "rows.jsonl.gob")
	write := func(body string, at time.Time) os.FileInfo {
		t.Helper()
		if err := os.WriteFile(src, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(src, at, at); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(src)
		return st
	}
	snapshot := func(st os.FileInfo) {
		t.Helper()
		head := For[int]([]byte("x"))
		head.Stamp(st, st)
		var body bytes.Buffer
		gob.NewEncoder(&body).Encode(42)
		if err := Write(snap, head, body.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	schema := Schema(reflect.TypeFor[int]())
	old := time.Now().Add(-time.Hour)
	st := write("{}\n", old)
	snapshot(st)
	_, dec, ok := OpenStat(snap, schema, st)
	var v int
	if !ok || dec.Decode(&v) != nil || v != 42 {
		t.Fatalf("a stamped snapshot of an old file: ok %v, value %d", ok, v)
	}
	if _, _, ok := OpenStat(snap, "other", st); ok {
		t.Fatal("trusted a snapshot of another schema")
	}
	// Rewritten: another size, or the same size at another time.
	for _, c := range []struct {
		body string
		at   time.Time
	}{{"{}\n{}\n", old}, {"[]\n", old.Add(time.Second)}} {
		now := write(c.body, c.at)
		if _, _, ok := OpenStat(snap, schema, now); ok {
			t.Fatalf("trusted a snapshot of a rewritten file (%q)", c.body)
		}
	}
	// Written within Granularity of its snapshot: not trusted (racy).
	recent := write("{}\n", time.Now())
	snapshot(recent)
	if _, _, ok := OpenStat(snap, schema, recent); ok {
		t.Fatal("trusted the stat of a file written just before its snapshot")
	}
	// A stat that changed while the file was read is not stamped.
	var h Header
	h.Stamp(st, recent)
	if h.Size != 0 || h.ModTime != 0 {
		t.Fatal("stamped a file that changed while read")
	}
}

// The values behind an opened snapshot stay as they were when it was
// opened, and decoding them does not fault, when the snapshot is then
// truncated or rewritten in place with the same size: Open's decoder reads
// the process's own copy, not a mapping of the file.
func TestOpenValuesOutliveTheSnapshotChangingInPlace(t *testing.T) {
	rows := make([]rowA, 30000)
	for i := range rows {
		rows[i] = rowA{ID: fmt.Sprintf("ANSWER-%06d", i), Items: []int{i}}
	}
	var body bytes.Buffer
	if err := gob.NewEncoder(&body).Encode(rows); err != nil {
		t.Fatal(err)
	}
	src := []byte("source")
	for _, change := range []string{"truncate", "rewrite"} {
		path := filepath.Join(t.TempDir(), "rows.gob")
		if err := Write(path, For[rowA](src), body.Bytes()); err != nil {
			t.Fatal(err)
		}
		_, dec, ok := Open(path, For[rowA](src))
		if !ok {
			t.Fatalf("%s: not opened", change)
		}
		data, _ := os.ReadFile(path)
		if len(data) < 512<<10 {
			t.Fatalf("snapshot of %d bytes: too small to be mapped", len(data))
		}
		if change == "truncate" {
			err := os.Truncate(path, 0)
			if err != nil {
				t.Fatal(err)
			}
		} else {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt(bytes.ReplaceAll(data, []byte("ANSWER-"), []byte("FORGED-")), 0)
			f.Close()
		}
		var back []rowA
		faulted := func() (faulted bool) {
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer func() { faulted = recover() != nil }()
			dec.Decode(&back)
			return false
		}()
		switch {
		case faulted:
			t.Errorf("%s: decoding the values faulted", change)
		case !reflect.DeepEqual(back, rows):
			t.Errorf("%s: the values differ from those written (%d decoded)", change, len(back))
		}
	}
}

// A snapshot that is a FIFO or a link to /dev/zero is not opened, at once.
func TestOpenMissesOnWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo, zero := filepath.Join(dir, "fifo"), filepath.Join(dir, "zero")
	regfiletest.FIFO(t, fifo)
	regfiletest.ZeroLink(t, zero)
	st, _ := os.Stat(dir)
	for _, p := range []string{fifo, zero} {
		ok := regfiletest.Within(t, 5*time.Second, func() bool {
			_, _, ok1 := Open(p, For[int]([]byte("x")))
			_, _, ok2 := OpenStat(p, Schema(reflect.TypeFor[int]()), st)
			return ok1 || ok2
		}, fifo)
		if ok {
			t.Errorf("%s: opened", filepath.Base(p))
		}
	}
}
