package eval_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// pairRows is n questions answered by memories a and b (family f): a right
// on the first k, b wrong everywhere.
func pairRows(n, k int) []eval.Outcome {
	var rows []eval.Outcome
	for i := range n {
		q := fmt.Sprintf("q%02d", i)
		rows = append(rows, eval.Outcome{QID: q, Memory: memory.MustParseSpec("a"), Family: reader.Family{Kind: reader.KindSim, Name: "f"}, Reader: reader.Spec{Kind: reader.KindSim, Name: "f"}, Correct: i < k, Answer: fmt.Sprint(i < k)},
			eval.Outcome{QID: q, Memory: memory.MustParseSpec("b"), Family: reader.Family{Kind: reader.KindSim, Name: "f"}, Reader: reader.Spec{Kind: reader.KindSim, Name: "f"}, Answer: "x"})
	}
	return rows
}

// conflicting duplicate rows were paired last-one-wins.
// Compare refuses them, naming both rows; identical duplicates count once.
func TestCompareConflictingDuplicates(t *testing.T) {
	rows := pairRows(20, 0)
	want, err := eval.Compare(rows, eval.Term{Label: "a−b", A: memory.MustParseSpec("a"), B: memory.MustParseSpec("b")}, nil, eval.DefaultStats)
	if err != nil {
		t.Fatal(err)
	}
	same := append(append([]eval.Outcome(nil), rows...), rows[0])
	if got, err := eval.Compare(same, eval.Term{Label: "a−b", A: memory.MustParseSpec("a"), B: memory.MustParseSpec("b")}, nil, eval.DefaultStats); err != nil || got != want {
		t.Errorf("an identical duplicate: %v, %v; want %v", got, err, want)
	}
	dup := rows[0]
	dup.Correct, dup.Answer = true, "true"
	conflict := append(append([]eval.Outcome(nil), rows...), dup)
	got, err := eval.Compare(conflict, eval.Term{Label: "a−b", A: memory.MustParseSpec("a"), B: memory.MustParseSpec("b")}, nil, eval.DefaultStats)
	var ce *eval.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("a conflicting duplicate was paired: %v (Δ %+.3f, without it %+.3f)", err, got.Delta, want.Delta)
	}
	if ce.First != 1 || ce.Second != len(conflict) || !strings.Contains(err.Error(), fmt.Sprintf("row 1 and row %d", len(conflict))) {
		t.Errorf("the error does not name both rows: %v", err)
	}
	if err := eval.CheckConflicts(conflict, "rows.jsonl"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("rows.jsonl:1 and rows.jsonl:%d", len(conflict))) {
		t.Errorf("CheckConflicts: %v", err)
	}
	if err := eval.CheckConflicts(same, "rows.jsonl"); err != nil {
		t.Errorf("CheckConflicts on an identical duplicate: %v", err)
	}
}

// oneQuestion is one question answered by five families under memories a
// and b: a right for the first k families, b wrong for all.
func oneQuestion(k int) []eval.Outcome {
	var rows []eval.Outcome
	for i := range 5 {
		f := fmt.Sprintf("f%d", i)
		rows = append(rows, eval.Outcome{QID: "q1", Memory: memory.MustParseSpec("a"), Family: reader.Family{Kind: reader.KindSim, Name: f}, Reader: reader.Spec{Kind: reader.KindSim, Name: f}, Correct: i < k},
			eval.Outcome{QID: "q1", Memory: memory.MustParseSpec("b"), Family: reader.Family{Kind: reader.KindSim, Name: f}, Reader: reader.Spec{Kind: reader.KindSim, Name: f}})
	}
	return rows
}

// one question gave a zero-width "95% CI" counted as
// significant ([+0.200, +0.200], p = 1.000). Below MinQuestions questions,
// or with too few discordant pairs for any paired test to reach the level,
// a comparison says "too few questions" instead of an interval and a
// verdict.
func TestTooFewQuestionsHaveNoVerdict(t *testing.T) {
	for _, c := range []struct {
		name string
		rows []eval.Outcome
		want string
	}{
		{"one question, one discordant pair", oneQuestion(1), "too few questions"},
		{"one question, five discordant pairs", oneQuestion(5), "too few questions"},
		{"twenty questions, three discordant pairs", pairRows(20, 3), "too few discordant pairs"},
		{"five questions, five discordant pairs", pairRows(5, 5), "too few questions"},
	} {
		for _, opt := range []eval.StatOptions{eval.DefaultStats, {B: 2000, Seed: 1, Level: 0.95, Interval: eval.IntervalPair}} {
			got, err := eval.Compare(c.rows, eval.Term{Label: "a−b", A: memory.MustParseSpec("a"), B: memory.MustParseSpec("b")}, nil, opt)
			if err != nil {
				t.Fatal(err)
			}
			if got.Significant() || !got.TooFew || !strings.Contains(got.String(), c.want) || strings.Contains(got.String(), "[") {
				t.Errorf("%s (%s interval): %s, significant %v; want %q and no verdict", c.name, opt.Interval, got, got.Significant(), c.want)
			}
		}
	}
	// Enough questions and discordant pairs keep their interval and verdict.
	got, err := eval.Compare(pairRows(40, 12), eval.Term{Label: "a−b", A: memory.MustParseSpec("a"), B: memory.MustParseSpec("b")}, nil, eval.DefaultStats)
	if err != nil || !got.Significant() || strings.Contains(got.String(), "too few") {
		t.Errorf("40 questions, 12 discordant pairs: %s, %v", got, err)
	}
	// No discordant pair over enough questions is a measured zero, as before.
	got, err = eval.Compare(pairRows(40, 0), eval.Term{Label: "a−b", A: memory.MustParseSpec("a"), B: memory.MustParseSpec("b")}, nil, eval.DefaultStats)
	if err != nil || got.Significant() || !strings.Contains(got.String(), "[+0.000, +0.000]") {
		t.Errorf("40 questions, no discordant pair: %s, %v", got, err)
	}
}

// a table's title and cells may hold data (a worked
// question's text, a reader's answer): Table.Markdown escapes what could
// start HTML in them, and leaves the kit's own cells as they were.
func TestTableMarkdownEscapesData(t *testing.T) {
	tab := &eval.Table{Title: `“<script>alert(1)</script>” (gold: <img src=x onerror=alert(2)>)`, Columns: []string{"memory", "p"},
		Notes: []string{"<iframe src=x>"}}
	tab.AddRow("reverted_revert <b>", "<0.0001")
	md := tab.Markdown()
	for _, bad := range []string{"<script", "<img", "<iframe", "<b>"} {
		if strings.Contains(md, bad) {
			t.Errorf("Markdown keeps %q:\n%s", bad, md)
		}
	}
	if !strings.Contains(md, "| <0.0001 |") || !strings.Contains(md, "reverted_revert") {
		t.Errorf("Markdown changed the kit's cells:\n%s", md)
	}
}
