package nbhelp

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
)

// A note shown under one table is counted, not repeated, under the next,
// across cells too (each cell a program of its own, sharing GONB_TMP_DIR).
func TestNotesShownOnce(t *testing.T) {
	t.Setenv("GONB_TMP_DIR", t.TempDir())
	reset := func() { // a new cell: a new process's memory
		notesShown.Lock()
		notesShown.seen = map[string]bool{}
		notesShown.Unlock()
	}
	reset()
	a := &eval.Table{Title: "A", Columns: []string{"x"}, Notes: []string{"readers are SIMULATED", "95% CI: bootstrap"}}
	b := &eval.Table{Title: "B", Columns: []string{"x"}, Notes: []string{"readers are SIMULATED", "only under B"}}
	first := shownOnce(a)
	if !strings.Contains(first, "readers are SIMULATED") || !strings.Contains(first, "95% CI") || strings.Contains(first, "earlier table") {
		t.Errorf("first table: %s", first)
	}
	reset()
	second := shownOnce(b)
	if strings.Contains(second, "readers are SIMULATED") || !strings.Contains(second, "only under B") || !strings.Contains(second, "and 1 note as under an earlier table") {
		t.Errorf("second table (another cell): %s", second)
	}
	if got := reportHTML(b); !strings.Contains(got, "readers are SIMULATED") {
		t.Errorf("reportHTML must keep every note: %s", got)
	}
}
