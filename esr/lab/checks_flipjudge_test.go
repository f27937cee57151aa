package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/judge"
)

// A flip whose answers every judge reads alike is the reader's; one whose
// second answer a lenient judge accepts and the exact judge rejects is
// the judge's. Constructed answers, so the expected verdicts are known.
func TestFlipJudgeTable(t *testing.T) {
	qa := esr.QA{QID: "q", Question: "What is the timeout?", GoldAnswer: "30 s"}
	w := &lab.WorkedQuestion{QA: qa, Memories: memory.Specs("a", "b"), Readers: []string{"r1", "r2"},
		Answers: [][]lab.WorkedAnswer{
			{{Given: esr.Abstain, Answer: "ABSTAIN"}, {Given: esr.Says("30 s"), Answer: "30 s", Correct: true}},
			{{Given: esr.Says("60 s"), Answer: "60 s"}, {Given: esr.Says("it is 30 s now, was 60 s"), Answer: "it is 30 s now, was 60 s", Correct: true}},
		}}
	js := []judge.Judge{judge.Exact{}, judge.ExactLenient{}, judge.ExactStrict{}}
	tab, err := lab.FlipJudgeTable(context.Background(), w, 0, 1, js)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 4 {
		t.Fatalf("%d rows, want 2 flips × 2 memories:\n%s", len(tab.Rows), tab.Markdown())
	}
	// r1: ABSTAIN ✗ under all, "30 s" ✓ under all.
	for c := 3; c < 6; c++ {
		if tab.Rows[0][c] != eval.VerdictCell("", false) || tab.Rows[1][c] != eval.VerdictCell("", true) {
			t.Errorf("r1 under %s: %v / %v", tab.Columns[c], tab.Rows[0][c], tab.Rows[1][c])
		}
	}
	// r2's second answer names both values: only the lenient judge
	// accepts it, so that flip is the judge's.
	if got := []string{tab.Rows[3][3].Text, tab.Rows[3][4].Text, tab.Rows[3][5].Text}; got[0] != "✗" || got[1] != "✓" || got[2] != "✗" {
		t.Errorf("r2's second answer under exact, lenient, strict: %v, want ✗ ✓ ✗\n%s", got, tab.Markdown())
	}
	if note := strings.Join(tab.Notes, " "); !strings.Contains(note, "1 of 2 flips get the same verdicts from every judge") {
		t.Errorf("note %q", note)
	}
	w.Answers = w.Answers[:1]
	w.Readers = w.Readers[:1]
	tab, err = lab.FlipJudgeTable(context.Background(), w, 0, 1, js)
	if err != nil {
		t.Fatal(err)
	}
	if note := strings.Join(tab.Notes, " "); !strings.Contains(note, "each flip is the reader's") {
		t.Errorf("one flip every judge agrees on: note %q", note)
	}
}
