package textdiff

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// joined reconstructs the text from its marked lines.
func joined(lines []Line) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = l.Text()
	}
	return strings.Join(parts, "\n")
}

// A render diff takes memory bounded by a constant, not by the square of
// what a render holds: one value of 3,000 words changed in a few (6,000
// tokens a side: a word-by-word table of 36 million entries) is marked
// changed whole, and 6,000 lines changed at both ends (a line table of 36
// million entries) are aligned by what they share, each within 64 MiB;
// the text comes back whole either way.
func TestAgainstTakesBoundedMemoryOnHugeRenders(t *testing.T) {
	const bound = 64 << 20
	var w []string
	for i := range 3000 {
		w = append(w, fmt.Sprintf("w%d", i))
	}
	base := "key | " + strings.Join(w, " ")
	w[10], w[2000] = "CHANGED", "ALSO"
	text := "key | " + strings.Join(w, " ")
	var lines []Line
	if got := allocated(func() { lines = Against(base, text) }); got > bound {
		t.Errorf("a line of 3,000 words: %d MiB allocated, want at most %d", got>>20, bound>>20)
	}
	if len(lines) != 1 || !lines[0].Changed() || joined(lines) != text {
		t.Errorf("the long line: %d lines, changed %v, text kept %v", len(lines), len(lines) == 1 && lines[0].Changed(), joined(lines) == text)
	}

	var bl, tl []string
	for i := range 6000 {
		bl = append(bl, fmt.Sprintf("row %d | LIVE", i))
		tl = append(tl, fmt.Sprintf("row %d | LIVE", i))
	}
	tl[0], tl[len(tl)-1] = "row 0 | DEAD", "row 5999 | DEAD"
	base, text = strings.Join(bl, "\n"), strings.Join(tl, "\n")
	if got := allocated(func() { lines = Against(base, text) }); got > bound {
		t.Errorf("6,000 lines: %d MiB allocated, want at most %d", got>>20, bound>>20)
	}
	changed := 0
	for _, l := range lines {
		if l.Changed() {
			changed++
		}
	}
	if len(lines) != len(tl) || changed != 2 || !lines[0].Changed() || !lines[len(lines)-1].Changed() || joined(lines) != text {
		t.Errorf("6,000 lines: %d lines, %d changed (want the first and last), text kept %v", len(lines), changed, joined(lines) == text)
	}
}
