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

// A stat is trusted only while the source's size, times and inode are the
// recorded ones and the source was last modified and changed well before
// the snapshot: an edit that gives the file back its size and modification
// time (cp -p, touch -r) still changes its ctime, and a file put in its
// place has another inode.
func TestStatTrustedOnlyAnUntouchedFile(t *testing.T) {
	dir := t.TempDir()
	src, snap := filepath.Join(dir, "rows.jsonl"), filepath.Join(dir, "rows.snap")
	stat := func(path string) os.FileInfo {
		t.Helper()
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	write := func(path, body string, at time.Time) os.FileInfo {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
		return stat(path)
	}
	old := time.Now().Add(-time.Hour)
	st := write(src, "{}\n", old)
	// The snapshot's time stands for when it was written: an hour after
	// the source's last change (a ctime cannot be set back).
	snapSt := write(snap, "snapshot", time.Now().Add(time.Hour))
	was := StampOf(st)
	if was.Change == 0 || was.Inode == 0 {
		t.Skip("this system's stat gives no ctime or inode: no stat is trusted")
	}
	if !StatTrusted(st, snapSt, was) {
		t.Fatal("did not trust the stat of an unchanged file changed well before its snapshot")
	}
	// Each edit below waits for the clock to move past the last change (a
	// file's times come from a clock that ticks every few milliseconds).
	tick := func() { time.Sleep(20 * time.Millisecond) }
	tick()
	restored := write(src, "[]\n", old) // same size, same modification time
	tick()
	replaced := filepath.Join(dir, "other")
	write(replaced, "{}\n", old)
	if err := os.Rename(replaced, src); err != nil {
		t.Fatal(err)
	}
	put := stat(src) // the same bytes and times, another file
	tick()
	unknown := was
	unknown.Change = 0
	for _, c := range []struct {
		name      string
		src, snap os.FileInfo
		was       Stamp
	}{
		{"another size", write(filepath.Join(dir, "longer"), "{}\n{}\n", old), snapSt, was},
		{"an edit with size and modification time restored", restored, snapSt, was},
		{"another file put in its place", put, snapSt, was},
		{"an unknown ctime", st, snapSt, unknown},
		{"a snapshot within Granularity of the change", st, write(snap, "snapshot", time.Unix(0, was.Change).Add(Granularity/2)), was},
		{"no source", nil, snapSt, was},
	} {
		if StatTrusted(c.src, c.snap, c.was) {
			t.Errorf("trusted the stat with %s", c.name)
		}
	}
	if OldEnough(StampOf(stat(src))) {
		t.Error("OldEnough: a file changed just now (its ctime) is not old enough")
	}
	if OldEnough(Stamp{}) || !OldEnough(Stamp{ModTime: old.UnixNano(), Change: old.UnixNano()}) {
		t.Error("OldEnough: want false for unknown, true for an hour ago")
	}
}
