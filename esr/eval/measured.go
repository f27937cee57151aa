package eval

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr/memory"

	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"
)

// NotMeasured is the cell of an accuracy whose rows a simulated reader could
// not read (Outcome.Unreadable): such a row is the reader's parser failing
// on a layout, not an answer about the memory, so it counts neither as
// right nor as wrong.
const NotMeasured = "not measured"

// Measured reports whether an accuracy rests on at least one readable row.
func (a Accuracy) Measured() bool { return a.N > 0 }

// WilsonCell formats an accuracy's Wilson interval, or "—" when nothing was
// measured.
func WilsonCell(a Accuracy) string {
	if !a.Measured() {
		return "—"
	}
	return "[" + report.Prop(a.Lo) + ", " + report.Prop(a.Hi) + "]"
}

// unreadableNote is the note of a table whose rows (kept by f) include
// unreadable ones, naming the memories and readers, or "" when none are.
func unreadableNote(rows []Outcome, f Filter) string {
	n := 0
	mems, fams := map[memory.Spec]bool{}, map[reader.Family]bool{}
	var ms, fs []string
	for i := range rows {
		o := &rows[i]
		if (f != nil && !f(o)) || !o.Unreadable {
			continue
		}
		n++
		if !mems[o.Memory] {
			mems[o.Memory] = true
			ms = append(ms, o.Memory.String())
		}
		if !fams[o.Family] {
			fams[o.Family] = true
			fs = append(fs, o.Family.String())
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %d rows (%s; %s) come from a simulated reader that cannot read the layout (raw text with no value pattern for the attribute); they are left out of accuracies and paired comparisons, and a cell with no other row says %q",
		NotMeasured, n, strings.Join(ms, ", "), strings.Join(fs, ", "), NotMeasured)
}

// UnreadableNotes appends unreadableNote(rows, f) to notes when it is
// not empty.
func UnreadableNotes(notes []string, rows []Outcome, f Filter) []string {
	if s := unreadableNote(rows, f); s != "" {
		return append(notes, s)
	}
	return notes
}
