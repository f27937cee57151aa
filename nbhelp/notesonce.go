package nbhelp

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
)

// Table notes (which readers, which interval, which judge) repeat under
// most tables of a notebook; they are printed under the first table that
// carries them and counted under the others. GoNB runs every cell as its
// own program, so the notes already shown are kept in a file in the
// kernel's temporary folder (GONB_TMP_DIR), one hash a line; outside GoNB
// (tests, scripts) the process remembers them.
var notesShown = struct {
	sync.Mutex
	seen map[string]bool
}{seen: map[string]bool{}}

// notesFile is where a kernel's shown notes are kept ("" outside GoNB).
func notesFile() string {
	dir := os.Getenv("GONB_TMP_DIR")
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "esrkit-notes-shown")
}

func noteKey(n string) string {
	h := sha256.Sum256([]byte(n))
	return hex.EncodeToString(h[:8])
}

// newNotes returns the notes not shown before in this kernel (marking them
// shown) and how many were left out as shown already.
func newNotes(notes []string) (fresh []string, repeated int) {
	notesShown.Lock()
	defer notesShown.Unlock()
	path := notesFile()
	if path != "" {
		if f, err := os.Open(path); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				notesShown.seen[sc.Text()] = true
			}
			f.Close()
		}
	}
	var add []string
	for _, n := range notes {
		k := noteKey(n)
		if notesShown.seen[k] {
			repeated++
			continue
		}
		notesShown.seen[k] = true
		add = append(add, k)
		fresh = append(fresh, n)
	}
	if path != "" && len(add) > 0 {
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			for _, k := range add {
				f.WriteString(k + "\n")
			}
			f.Close()
		}
	}
	return fresh, repeated
}
