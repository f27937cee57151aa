package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

// TestAnswersTableFoldsTheReasons: the worked question's answers table
// says in its last column only what decided each answer (the reader's
// last step), and the reasons table holds each reader's whole account,
// one row per reader and memory, so the long form can be folded.
func TestAnswersTableFoldsTheReasons(t *testing.T) {
	readers, err := lab.DefaultReaders(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, err := lab.Work(context.Background(), bench.Figure1Bench(), bench.Figure1QA(), nil, readers, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at, rt := w.AnswersTable(), w.ReasonsTable()
	if len(rt.Rows) != len(w.Readers)*len(w.Memories) {
		t.Fatalf("reasons table has %d rows, want %d", len(rt.Rows), len(w.Readers)*len(w.Memories))
	}
	for ri, row := range at.Texts() {
		last := row[len(row)-1]
		whole := 0
		for mi, m := range w.Memories {
			a := w.Answers[ri][mi]
			if a.Decision != "" && !strings.Contains(last, m.String()+": "+a.Decision) {
				t.Errorf("%s on %s: the answers table does not say what decided it (%q) in %q", w.Readers[ri], m, a.Decision, last)
			}
			whole += len(a.Reason)
			if got := rt.Rows[ri*len(w.Memories)+mi][3].Text; !strings.HasSuffix(a.Reason, got) || got == "" {
				t.Errorf("%s on %s: the reasons table holds %q, the reader said %q", w.Readers[ri], m, got, a.Reason)
			}
		}
		if len(last) >= whole/2 {
			t.Errorf("%s: the answers table's cell (%d bytes) is not much shorter than the whole reasons (%d)", w.Readers[ri], len(last), whole)
		}
	}
}
