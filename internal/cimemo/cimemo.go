// Package cimemo keeps bootstrap intervals on disk, one small JSON file per
// key, for eval.SetIntervalMemo, fitted weights for relate.SetFitMemo and
// accuracy counts for lab.SetCountsMemo: the notebooks rerun every cell's
// program (GoNB) and would otherwise redraw the same 10,000 resamples, refit
// the same pair scorer, or evaluate the same classes again, each time.
//
// Entries live in a folder named for the library's code (codefp.Tag), and
// opening the memo removes the folders of other code versions, as the rows
// cache does with its files, so the memo does not grow with every change.
// Files are written atomically (write, then rename), so two notebooks
// sharing a memo never read a half-written entry. An entry carries the
// SHA-256 of its key and value, as the snapshots carry a checksum of their
// body, and its value is checked (an interval: finite numbers, Lo ≤ Hi, at
// least one pair and one resample, a level in (0, 1); weights: at least one,
// all finite; counts: at least one, none negative); an entry that does not
// decode, names another key, does not match its checksum or fails the checks
// is a miss, computed again and
// kept over the bad one. Entries are not synced to disk: one lost to a
// crash is computed again.
package cimemo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"

	"github.com/esrkit/esrkit/internal/codefp"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/stats"
)

// Dir is a memo in a folder.
type Dir struct{ path string }

// tagName matches a code version's folder (codefp.Tag).
var tagName = regexp.MustCompile(`^[0-9a-f]{8}$`)

// Open returns the memo under root for the current code (root/TAG) and
// removes root's folders of other code versions. Failures to remove are
// ignored: the memo is only a cache.
func Open(root string) *Dir {
	tag := codefp.Tag()
	if ents, err := os.ReadDir(root); err == nil {
		for _, e := range ents {
			if e.IsDir() && tagName.MatchString(e.Name()) && e.Name() != tag {
				_ = os.RemoveAll(filepath.Join(root, e.Name()))
			}
		}
	}
	return &Dir{path: filepath.Join(root, tag)}
}

// entry is one kept value, with its key to catch a misplaced file and the
// SHA-256 of both (sum) to catch a changed one.
type entry struct {
	Key   string          `json:"key"`
	Sum   string          `json:"sha256"`
	Value json.RawMessage `json:"value"`
}

// sum is the checksum of an entry: its key and the value's JSON text.
func sum(key string, value []byte) string {
	h := sha256.New()
	h.Write([]byte(key + "\n"))
	h.Write(value)
	return hex.EncodeToString(h.Sum(nil))
}

func (d *Dir) file(key [32]byte) string {
	return filepath.Join(d.path, hex.EncodeToString(key[:])+".json")
}

// Recall returns the interval kept under key.
func (d *Dir) Recall(key [32]byte) (stats.BootstrapCI, bool) {
	return recall(d, key, validCI)
}

// validCI reports whether ci is an interval Compare could have computed.
func validCI(ci stats.BootstrapCI) bool {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	return ci.N >= 1 && ci.B >= 1 && ci.Clusters >= 0 && finite(ci.Estimate) && finite(ci.Lo) && finite(ci.Hi) &&
		ci.Lo <= ci.Hi && ci.Level > 0 && ci.Level < 1
}

// validFloats reports whether v is a weight vector a fit could have
// returned: not empty, every number finite.
func validFloats(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return len(v) > 0
}

// Keep keeps ci under key. A failure to write is ignored (the interval is
// computed again next time).
func (d *Dir) Keep(key [32]byte, ci stats.BootstrapCI) { keep(d, key, ci) }

// RecallFloats returns the numbers kept under key (JSON carries a float64
// exactly: Go writes the shortest text that reads back to the same bits).
func (d *Dir) RecallFloats(key [32]byte) ([]float64, bool) { return recall(d, key, validFloats) }

// KeepFloats keeps v under key; one that cannot be written (a NaN, which
// JSON has no text for, or a full disk) is computed again next time.
func (d *Dir) KeepFloats(key [32]byte, v []float64) { keep(d, key, v) }

// RecallCounts returns the counts kept under key (lab.SetCountsMemo: a
// class's accuracy counts per reader group).
func (d *Dir) RecallCounts(key [32]byte) ([]int, bool) { return recall(d, key, validCounts) }

// KeepCounts keeps c under key.
func (d *Dir) KeepCounts(key [32]byte, c []int) { keep(d, key, c) }

// validCounts reports whether c is a list of counts: not empty, none
// negative.
func validCounts(c []int) bool {
	for _, n := range c {
		if n < 0 {
			return false
		}
	}
	return len(c) > 0
}

// maxEntry bounds an entry's file: the largest kept are weight vectors of
// a few hundred numbers.
const maxEntry = 16 << 20

// recall returns the value kept under key when its entry is whole (its
// key, its checksum) and valid says the value is one the code could have
// computed; else a miss.
func recall[T any](d *Dir, key [32]byte, valid func(T) bool) (T, bool) {
	var zero T
	var e entry
	b, err := regfile.ReadFile(d.file(key), maxEntry)
	hexKey := hex.EncodeToString(key[:])
	if err != nil || json.Unmarshal(b, &e) != nil || e.Key != hexKey || e.Sum != sum(hexKey, e.Value) {
		return zero, false
	}
	var v T
	dec := json.NewDecoder(bytes.NewReader(e.Value))
	dec.DisallowUnknownFields()
	if bytes.Equal(bytes.TrimSpace(e.Value), []byte("null")) || dec.Decode(&v) != nil || !valid(v) {
		return zero, false
	}
	return v, true
}

func keep[T any](d *Dir, key [32]byte, v T) {
	value, err := json.Marshal(v)
	if err != nil {
		return
	}
	hexKey := hex.EncodeToString(key[:])
	b, err := json.Marshal(entry{Key: hexKey, Sum: sum(hexKey, value), Value: value})
	if err != nil {
		return
	}
	if os.MkdirAll(d.path, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(d.path, ".tmp-*")
	if err != nil {
		return
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), d.file(key))
	}
	if err != nil {
		os.Remove(f.Name())
	}
}
