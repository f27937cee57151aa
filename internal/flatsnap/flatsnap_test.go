package flatsnap_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/flatsnap"
	"github.com/esrkit/esrkit/internal/mapfile"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/regfile/regfiletest"
)

// row has every kind of field flatsnap stores.
type row struct {
	ID     string
	Memo   string
	OK     bool
	N      int
	Small  int8
	Big    int64
	Wide   int32
	Shorts int16
}

func sample() []row {
	return []row{
		{ID: "q1", Memo: "", OK: true, N: -3, Small: math.MinInt8, Big: math.MaxInt64, Wide: math.MinInt32, Shorts: 7},
		{ID: "q2", Memo: "two live values ⊕", OK: false, N: 1 << 40, Small: math.MaxInt8, Big: math.MinInt64},
		{ID: "q1", Memo: "two live values ⊕", OK: true}, // repeated strings are stored once
	}
}

// writeSource writes rows as JSON lines and dates the file an hour back, as
// a cache file is by the time a later cell reads it.
func writeSource(t testing.TB, path string, rows []row) {
	t.Helper()
	var b bytes.Buffer
	for _, r := range rows {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func snapshot(t testing.TB, src, snap string, rows []row) {
	t.Helper()
	_, s, stable, err := flatsnap.ReadSource(src)
	if err != nil || !stable {
		t.Fatalf("ReadSource: stable %v, %v", stable, err)
	}
	if err := flatsnap.Write(snap, s, rows); err != nil {
		t.Fatal(err)
	}
}

// read is flatsnap.Read with fresh for "trusted by the source's stat".
func read[T any](snap, src string) (rows []T, fresh, ok bool) {
	rows, hashed, ok := flatsnap.Read[T](snap, src)
	return rows, ok && hashed == nil, ok
}

// fixture writes sample rows as an hour-old source in a fresh folder and
// snapshots them, the snapshot dated an hour after the source's last change
// (its ctime, which only the clock sets), as a cache file's snapshot is by
// the time a later cell reads it.
func fixture(t testing.TB) (src, snap string, rows []row) {
	t.Helper()
	dir := t.TempDir()
	src, snap = filepath.Join(dir, "rows.jsonl"), filepath.Join(dir, "rows.jsonl.snap")
	rows = sample()
	writeSource(t, src, rows)
	snapshot(t, src, snap, rows)
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(snap, later, later); err != nil {
		t.Fatal(err)
	}
	return src, snap, rows
}

func TestRoundTrip(t *testing.T) {
	src, snap, rows := fixture(t)
	got, fresh, ok := read[row](snap, src)
	if !ok || !fresh {
		t.Fatalf("Read: ok %v fresh %v, want both", ok, fresh)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Fatalf("got %+v\nwant %+v", got, rows)
	}
	// No rows is a snapshot too.
	snapshot(t, src, snap, nil)
	if got, _, ok := read[row](snap, src); !ok || len(got) != 0 {
		t.Fatalf("empty: %v %v", got, ok)
	}
}

// Same rows and source, same bytes.
func TestDeterministic(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "rows.jsonl")
	writeSource(t, src, sample())
	a, b := filepath.Join(dir, "a.snap"), filepath.Join(dir, "b.snap")
	snapshot(t, src, a, sample())
	snapshot(t, src, b, sample())
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Fatal("two snapshots of the same rows differ")
	}
}

// A snapshot is never read for a source that changed, whether the change
// shows in the stat or not.
func TestStaleSource(t *testing.T) {
	src, snap, rows := fixture(t)

	// Appended to: the size differs.
	f, _ := os.OpenFile(src, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"ID":"q3"}` + "\n")
	f.Close()
	if _, _, ok := read[row](snap, src); ok {
		t.Fatal("read a snapshot of a source that grew")
	}

	// Rewritten with the same size at another time: hashed, and refused.
	writeSource(t, src, rows)
	snapshot(t, src, snap, rows)
	changed := append([]row(nil), rows...)
	changed[0].ID = "q9" // same length
	writeSource(t, src, changed)
	now := time.Now()
	os.Chtimes(src, now, now)
	if _, _, ok := read[row](snap, src); ok {
		t.Fatal("read a snapshot of a source rewritten with the same size")
	}

	// Rewritten with the same size and the recorded time, racily (within
	// Granularity of the snapshot): the time is not trusted, the hash refuses.
	writeSource(t, src, rows)
	now = time.Now()
	os.Chtimes(src, now, now)
	snapshot(t, src, snap, rows)
	writeSource(t, src, changed)
	os.Chtimes(src, now, now)
	if _, fresh, ok := read[row](snap, src); ok || fresh {
		t.Fatalf("racy rewrite: ok %v fresh %v, want neither", ok, fresh)
	}

	// Same bytes, touched: read by hash (not fresh), still right.
	writeSource(t, src, rows)
	snapshot(t, src, snap, rows)
	os.Chtimes(src, now, now)
	got, fresh, ok := read[row](snap, src)
	if !ok || fresh || !reflect.DeepEqual(got, rows) {
		t.Fatalf("touched source: ok %v fresh %v", ok, fresh)
	}

	// Rewritten with the same size and its modification time given back
	// (cp -p, touch -r), well before the snapshot: the change time shows
	// it, and the hash refuses.
	writeSource(t, src, rows)
	snapshot(t, src, snap, rows)
	later := time.Now().Add(time.Hour)
	os.Chtimes(snap, later, later)
	st, _ := os.Stat(src)
	time.Sleep(20 * time.Millisecond) // past the clock's tick
	writeSource(t, src, changed)
	os.Chtimes(src, st.ModTime(), st.ModTime())
	if _, _, ok := read[row](snap, src); ok {
		t.Fatal("read a snapshot of a source rewritten with its size and modification time given back")
	}

	// No source: no rows.
	os.Remove(src)
	if _, _, ok := read[row](snap, src); ok {
		t.Fatal("read a snapshot whose source is gone")
	}
}

// A damaged snapshot is not read, wherever the damage is.
func TestDamaged(t *testing.T) {
	src, snap, rows := fixture(t)
	good, _ := os.ReadFile(snap)
	for i := range good {
		bad := bytes.Clone(good)
		bad[i] ^= 0x20
		os.WriteFile(snap, bad, 0o644)
		if got, _, ok := read[row](snap, src); ok && !reflect.DeepEqual(got, rows) {
			t.Fatalf("byte %d flipped: read wrong rows %+v", i, got)
		}
	}
	for _, n := range []int{0, 5, len(good) / 2, len(good) - 1} {
		os.WriteFile(snap, good[:n], 0o644)
		if _, _, ok := read[row](snap, src); ok {
			t.Fatalf("truncated to %d bytes: read", n)
		}
	}
}

// A snapshot of another version of the type is not read.
func TestSchema(t *testing.T) {
	src, snap, _ := fixture(t)
	type row2 struct { // row with a field renamed
		ID, Note string
		OK       bool
		N        int
		Small    int8
		Big      int64
		Wide     int32
		Shorts   int16
	}
	if _, _, ok := read[row2](snap, src); ok {
		t.Fatal("read a snapshot of another type")
	}
}

func TestUnsupported(t *testing.T) {
	var src flatsnap.Source
	for _, f := range []func() error{
		func() error { return flatsnap.Write(filepath.Join(t.TempDir(), "s"), src, []struct{ X []string }{{}}) },
		func() error { return flatsnap.Write(filepath.Join(t.TempDir(), "s"), src, []struct{ x string }{{}}) },
		func() error { return flatsnap.Write(filepath.Join(t.TempDir(), "s"), src, []float64{1}) },
	} {
		if err := f(); !errors.Is(err, flatsnap.ErrUnsupported) {
			t.Errorf("got %v, want ErrUnsupported", err)
		}
	}
}

// BenchmarkRead compares reading 100,000 rows shaped like a suite's cached
// outcomes (one long, mostly distinct note per row) from a flatsnap
// snapshot with reading them from a gob snapshot (the baseline: what esrkit kept before flatsnap),
// both in this run.
//
//	go test ./internal/flatsnap -run '^$' -bench Read
func BenchmarkRead(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "rows.jsonl")
	rows := make([]row, 100000)
	for i := range rows {
		rows[i] = row{ID: "syn-dk-" + strconv.Itoa(i/20) + "-k1-snap", OK: i%3 == 0, N: 39 + i%200,
			Memo: "sim:fit-llama-3.1-8b: render difficulty 0.25; status read (p=0.59); newest of " + strconv.Itoa(i) + " dated (2007-12-22)"}
	}
	writeSource(b, src, rows)
	data, s, _, _ := flatsnap.ReadSource(src)
	flat := filepath.Join(dir, "rows.flat")
	if err := flatsnap.Write(flat, s, rows); err != nil {
		b.Fatal(err)
	}
	var body bytes.Buffer
	gob.NewEncoder(&body).Encode(rows)
	gobPath := filepath.Join(dir, "rows.gob")
	if err := os.WriteFile(gobPath, body.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	sum := sha256.Sum256(data)
	b.Run("gob", func(b *testing.B) {
		for b.Loop() {
			// What the gob snapshots did: check the source's hash, then decode.
			data, _ := os.ReadFile(src)
			snap, err := mapfile.Read(gobPath)
			var got []row
			if err != nil || sha256.Sum256(data) != sum || gob.NewDecoder(bytes.NewReader(snap)).Decode(&got) != nil || len(got) != len(rows) {
				b.Fatal("gob snapshot not read")
			}
		}
	})
	b.Run("flatsnap", func(b *testing.B) {
		for b.Loop() {
			if got, _, ok := read[row](flat, src); !ok || len(got) != len(rows) {
				b.Fatal("flatsnap snapshot not read")
			}
		}
	})
}

// bigFixture is fixture with enough rows (each with its own note) that
// the snapshot is past the size below which mapfile reads into the heap.
func bigFixture(t testing.TB) (src, snap string, rows []row) {
	t.Helper()
	dir := t.TempDir()
	src, snap = filepath.Join(dir, "rows.jsonl"), filepath.Join(dir, "rows.jsonl.snap")
	rows = make([]row, 20000)
	for i := range rows {
		rows[i] = row{ID: "q" + strconv.Itoa(i), Memo: "ANSWER-" + strconv.Itoa(100000+i), N: i}
	}
	writeSource(t, src, rows)
	snapshot(t, src, snap, rows)
	if st, _ := os.Stat(snap); st.Size() < 512<<10 {
		t.Fatalf("snapshot of %d bytes: too small to be mapped", st.Size())
	}
	return src, snap, rows
}

// equalNoFault reports whether got equals want, reading every string of
// got with faults turned into a recovered panic (faulted), so that a
// SIGBUS from a mapping that lost its pages fails the test instead of
// ending the process.
func equalNoFault(got, want []row) (equal, faulted bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			equal, faulted = false, true
		}
	}()
	return reflect.DeepEqual(got, want), false
}

// Rows read from a snapshot stay as read, and reading them does not fault,
// when the snapshot is then truncated or rewritten in place with the same
// size (both used to reach the rows' strings, which viewed a mapping of
// the file: SIGBUS, and ANSWER- turned FORGED-).
func TestRowsOutliveTheirSnapshotChangingInPlace(t *testing.T) {
	for _, change := range []string{"truncate", "rewrite"} {
		src, snap, rows := bigFixture(t)
		got, _, ok := read[row](snap, src)
		if !ok {
			t.Fatalf("%s: snapshot not read", change)
		}
		data, _ := os.ReadFile(snap)
		f, err := os.OpenFile(snap, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if change == "truncate" {
			err = f.Truncate(0)
		} else {
			_, err = f.WriteAt(bytes.ReplaceAll(data, []byte("ANSWER-"), []byte("FORGED-")), 0)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		switch equal, faulted := equalNoFault(got, rows); {
		case faulted:
			t.Errorf("%s: reading the rows faulted", change)
		case !equal:
			t.Errorf("%s: the rows read before changed with the snapshot", change)
		}
	}
}

// A snapshot or a source that is a FIFO, or a link to /dev/zero, is a miss
// at once: no hang waiting for a writer, no endless read.
func TestReadMissesOnWhatIsNotARegularFile(t *testing.T) {
	src, snap, _ := fixture(t)
	dir := filepath.Dir(src)
	fifo, zero := filepath.Join(dir, "fifo"), filepath.Join(dir, "zero")
	regfiletest.FIFO(t, fifo)
	regfiletest.ZeroLink(t, zero)
	for _, c := range []struct{ snap, src string }{{fifo, src}, {zero, src}, {snap, fifo}, {snap, zero}} {
		ok := regfiletest.Within(t, 5*time.Second, func() bool {
			_, _, ok := flatsnap.Read[row](c.snap, c.src)
			return ok
		}, fifo)
		if ok {
			t.Errorf("snapshot %s of source %s: read", filepath.Base(c.snap), filepath.Base(c.src))
		}
	}
	for _, p := range []string{fifo, zero} {
		err := regfiletest.Within(t, 5*time.Second, func() error {
			_, _, _, err := flatsnap.ReadSource(p)
			return err
		}, fifo)
		if !errors.Is(err, regfile.ErrNotRegular) {
			t.Errorf("ReadSource(%s): %v, want ErrNotRegular", filepath.Base(p), err)
		}
	}
}
