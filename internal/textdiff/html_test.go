package textdiff

import (
	"strings"
	"testing"
)

func TestColumnsHTMLMarksWhatEachColumnChanges(t *testing.T) {
	got := ColumnsHTML([]string{"a", "b"}, []string{"x | LIVE\ny", "x | <DEAD>\ny"}, true)
	if !strings.Contains(got, `x | <mark style="background:#ffe08a">&lt;DEAD&gt;</mark>`) {
		t.Errorf("changed word not marked and escaped: %s", got)
	}
	if strings.Count(got, "<mark") != 1 {
		t.Errorf("want exactly one mark (the first column is never marked): %s", got)
	}
	if !strings.Contains(got, "word-break:normal") {
		t.Errorf("columns may split words: %s", got)
	}
	// The columns fit the width they are given: they wrap rather than
	// widen the page, and a long line scrolls in its own render's box
	// (internal/browser's TestLabPathFitsNinetyMinutes measures the pages).
	for _, want := range []string{"flex-wrap:wrap", "min-width:0", `class="esr-render" style="` + "font-size:11px;white-space:pre-wrap;word-break:normal;overflow-wrap:normal;overflow-x:auto"} {
		if !strings.Contains(got, want) {
			t.Errorf("columns lack %q: %s", want, got)
		}
	}
	// A column in another layout is shown plain, with a caption, not
	// highlighted whole.
	other := ColumnsHTML([]string{"a", "b"}, []string{"id|value\n1|30 s\n2|60 s", "key: x\ntime | value\n2024 | 30 s"}, true)
	if strings.Contains(other, "<mark") || !strings.Contains(other, "another layout") {
		t.Errorf("relayout column: %s", other)
	}
}
