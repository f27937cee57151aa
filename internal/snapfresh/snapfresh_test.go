package snapfresh

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

type rowA struct {
	ID    string `json:"id"`
	Items []int  `json:"items"`
}

type rowB struct {
	ID    string `json:"id"`
	Items []int  `json:"items,omitempty"` // only the tag differs
}

type rowC struct {
	ID    string `json:"id"`
	Items []int8 `json:"items"` // only a type differs
}

// A schema names every field's name, type and tag: changing any one
// changes it.
func TestSchemaTellsTypesApart(t *testing.T) {
	a := Schema(reflect.TypeFor[rowA]())
	if a != Schema(reflect.TypeFor[rowA]()) {
		t.Fatal("one type, two schemas")
	}
	for _, other := range []reflect.Type{reflect.TypeFor[rowB](), reflect.TypeFor[rowC](), reflect.TypeFor[[]rowA]()} {
		if Schema(other) == a {
			t.Errorf("%s has the schema of rowA", other)
		}
	}
}

// A stat is trusted only while the source's size and time are the
// recorded ones and the source was last written well before the snapshot.
func TestStatTrusted(t *testing.T) {
	dir := t.TempDir()
	src, snap := filepath.Join(dir, "rows.jsonl"), filepath.Join(dir, "rows.snap")
	stat := func(path, body string, at time.Time) os.FileInfo {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	old := time.Now().Add(-time.Hour)
	st := stat(src, "{}\n", old)
	snapSt := stat(snap, "snapshot", time.Now())
	size, mod := st.Size(), st.ModTime().UnixNano()
	if !StatTrusted(st, snapSt, size, mod) {
		t.Fatal("did not trust the stat of an old, unchanged file")
	}
	for _, c := range []struct {
		name      string
		src, snap os.FileInfo
		size, mod int64
	}{
		{"another size", stat(src, "{}\n{}\n", old), snapSt, size, mod},
		{"another time", stat(src, "[]\n", old.Add(time.Second)), snapSt, size, mod},
		{"an unknown time", st, snapSt, size, 0},
		{"a snapshot within Granularity of the write", st, stat(snap, "snapshot", old.Add(Granularity/2)), size, mod},
		{"no source", nil, snapSt, size, mod},
	} {
		if StatTrusted(c.src, c.snap, c.size, c.mod) {
			t.Errorf("trusted the stat with %s", c.name)
		}
	}
	if OldEnough(time.Now().UnixNano()) || OldEnough(0) || !OldEnough(old.UnixNano()) {
		t.Error("OldEnough: want false for now and for unknown, true for an hour ago")
	}
}
