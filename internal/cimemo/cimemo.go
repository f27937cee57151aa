// Package cimemo keeps bootstrap intervals on disk, one small JSON file per
// key, for eval.SetIntervalMemo: the notebooks rerun every cell's program
// (GoNB) and would otherwise redraw the same 10,000 resamples each time.
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

// entry is one kept interval, with its key to catch a misplaced file.
type entry struct {
	Key string            `json:"key"`
	CI  stats.BootstrapCI `json:"ci"`
}

func (d *Dir) file(key [32]byte) string {
	return filepath.Join(d.path, hex.EncodeToString(key[:])+".json")
}

// Recall returns the interval kept under key.
func (d *Dir) Recall(key [32]byte) (stats.BootstrapCI, bool) {
	b, err := os.ReadFile(d.file(key))
	if err != nil {
		return stats.BootstrapCI{}, false
	}
	var e entry
	if json.Unmarshal(b, &e) != nil || e.Key != hex.EncodeToString(key[:]) {
		return stats.BootstrapCI{}, false
	}
	return e.CI, true
}

// Keep keeps ci under key. A failure to write is ignored (the interval is
// computed again next time).
func (d *Dir) Keep(key [32]byte, ci stats.BootstrapCI) {
	b, err := json.Marshal(entry{Key: hex.EncodeToString(key[:]), CI: ci})
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
