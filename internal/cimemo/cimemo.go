// Package cimemo keeps bootstrap intervals on disk, one small JSON file per
// key, for eval.SetIntervalMemo, and fitted weights for relate.SetFitMemo:
// the notebooks rerun every cell's program (GoNB) and would otherwise redraw
// the same 10,000 resamples, or refit the same pair scorer, each time.
//
// Entries live in a folder named for the library's code (codefp.Tag), and
// opening the memo removes the folders of other code versions, as the rows
// cache does with its files, so the memo does not grow with every change.
// Files are written atomically (write, then rename), so two notebooks
// sharing a memo never read a half-written entry; an entry that does not
// decode, or names another key, is a miss. Entries are not synced to disk:
// one lost to a crash is computed again.
package cimemo

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"

	"github.com/esrkit/esrkit/internal/codefp"
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

// entry is one kept value, with its key to catch a misplaced file.
type entry[T any] struct {
	Key   string `json:"key"`
	Value T      `json:"value"`
}

func (d *Dir) file(key [32]byte) string {
	return filepath.Join(d.path, hex.EncodeToString(key[:])+".json")
}

// Recall returns the interval kept under key.
func (d *Dir) Recall(key [32]byte) (stats.BootstrapCI, bool) {
	return recall[stats.BootstrapCI](d, key)
}

// Keep keeps ci under key. A failure to write is ignored (the interval is
// computed again next time).
func (d *Dir) Keep(key [32]byte, ci stats.BootstrapCI) { keep(d, key, ci) }

// RecallFloats returns the numbers kept under key (JSON carries a float64
// exactly: Go writes the shortest text that reads back to the same bits).
func (d *Dir) RecallFloats(key [32]byte) ([]float64, bool) { return recall[[]float64](d, key) }

// KeepFloats keeps v under key; one that cannot be written (a NaN, which
// JSON has no text for, or a full disk) is computed again next time.
func (d *Dir) KeepFloats(key [32]byte, v []float64) { keep(d, key, v) }

func recall[T any](d *Dir, key [32]byte) (T, bool) {
	var e entry[T]
	b, err := os.ReadFile(d.file(key))
	if err != nil || json.Unmarshal(b, &e) != nil || e.Key != hex.EncodeToString(key[:]) {
		var zero T
		return zero, false
	}
	return e.Value, true
}

func keep[T any](d *Dir, key [32]byte, v T) {
	b, err := json.Marshal(entry[T]{Key: hex.EncodeToString(key[:]), Value: v})
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
