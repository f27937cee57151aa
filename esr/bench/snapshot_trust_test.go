package bench

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// savedFigure1 saves the Figure 1 benchmark in a fresh folder, its files
// dated an hour back, and returns the folder.
func savedFigure1(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := Figure1Bench().Save(dir); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, name := range snapFiles {
		os.Chtimes(filepath.Join(dir, name), old, old)
	}
	return dir
}

// dateSnapshot dates dir's snapshot in snaps an hour ahead: written that
// long after its files' last change (their ctime, which only the clock
// sets), as it is by the time a later cell reads it.
func dateSnapshot(t *testing.T, snaps, dir string) string {
	t.Helper()
	path := snapPath(snaps, dir)
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	return path
}

// A snapshot made well after its files' last change is trusted by their
// stamps: no file is read. A touched file is hashed (and matches); an edit
// that gives a file back its size and modification time is seen.
func TestLoadSnapshotsTrustTheStat(t *testing.T) {
	dir := savedFigure1(t)
	snaps := t.TempDir()
	opt := LoadOptions{Snapshots: snaps}
	if _, err := LoadWith(dir, opt); err != nil { // writes the snapshot
		t.Fatal(err)
	}
	path := dateSnapshot(t, snaps, dir)
	head := readHead(t, path)
	snapStat, _ := os.Stat(path)
	if _, ok := loadSnapshot(dir, opt); !ok {
		t.Fatal("the snapshot did not answer")
	}
	qa := filepath.Join(dir, QAFile)
	var qaHead snapSource
	for _, f := range head.Files {
		if f.Absent {
			continue
		}
		if f.Name == QAFile {
			qaHead = f
		}
		if _, matches, hashed := sourceMatches(filepath.Join(dir, f.Name), f, snapStat); !matches || hashed {
			t.Fatalf("%s: matches %v, hashed %v; want trusted by its stamp", f.Name, matches, hashed)
		}
	}
	now := time.Now()
	os.Chtimes(qa, now, now)
	if _, matches, hashed := sourceMatches(qa, qaHead, snapStat); !matches || !hashed {
		t.Fatalf("touched: matches %v, hashed %v; want hashed, and the same bytes", matches, hashed)
	}
	data, _ := os.ReadFile(qa)
	edited := strings.Replace(string(data), `"question":"What`, `"question":"Whet`, 1)
	if edited == string(data) || len(edited) != len(data) {
		t.Fatal("test setup: no same-length edit")
	}
	time.Sleep(20 * time.Millisecond) // past the clock's tick
	os.WriteFile(qa, []byte(edited), 0o644)
	at := time.Unix(0, qaHead.ModTime)
	os.Chtimes(qa, at, at)
	if _, matches, _ := sourceMatches(qa, qaHead, snapStat); matches {
		t.Fatal("an edit with the file's size and modification time given back matched the snapshot")
	}
	if b, ok := loadSnapshot(dir, opt); ok {
		t.Fatalf("the snapshot answered for an edited file (question %q)", b.QAs[0].Question)
	}
}

// readHead decodes a snapshot's header.
func readHead(t *testing.T, path string) snapHeader {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var head snapHeader
	if err := gobDecode(data[len(snapMagic):], &head); err != nil {
		t.Fatal(err)
	}
	return head
}

// gob decodes an empty list as nil, but the JSON's "[]" and null are two
// benchmarks (the hash, which keys every cache, tells them apart): a
// qa.jsonl with both is snapshotted, and the rows read back from the
// snapshot keep each as it was.
func TestLoadSnapshotsKeepEmptyLists(t *testing.T) {
	dir := savedFigure1(t)
	path := filepath.Join(dir, QAFile)
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
	os.WriteFile(path, []byte(edited), 0o644)
	want, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	opt := LoadOptions{Snapshots: t.TempDir()}
	if _, err := LoadWith(dir, opt); err != nil { // writes the snapshot
		t.Fatal(err)
	}
	got, ok := loadSnapshot(dir, opt)
	if !ok {
		t.Fatal("the snapshot did not answer")
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

func gobDecode(data []byte, v any) error { return gob.NewDecoder(bytes.NewReader(data)).Decode(v) }
