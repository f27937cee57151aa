package eval_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
)

// pairRows is n questions answered by memories a and b (family f): a right
// on the first k, b wrong everywhere.
func pairRows(n, k int) []eval.Outcome {
	var rows []eval.Outcome
	for i := range n {
		q := fmt.Sprintf("q%02d", i)
		rows = append(rows, eval.Outcome{QID: q, Memory: "a", Family: "f", Reader: "f", Correct: i < k, Answer: fmt.Sprint(i < k)},
			eval.Outcome{QID: q, Memory: "b", Family: "f", Reader: "f", Answer: "x"})
	}
	return rows
}

// Item 5 (issue 30): conflicting duplicate rows were paired last-one-wins.
// Compare refuses them, naming both rows; identical duplicates count once.
func TestCompareConflictingDuplicates(t *testing.T) {
	rows := pairRows(20, 0)
	want, err := eval.Compare(rows, "a−b", "a", "b", nil, eval.DefaultStats)
	if err != nil {
		t.Fatal(err)
	}
	same := append(append([]eval.Outcome(nil), rows...), rows[0])
	if got, err := eval.Compare(same, "a−b", "a", "b", nil, eval.DefaultStats); err != nil || got != want {
		t.Errorf("an identical duplicate: %v, %v; want %v", got, err, want)
	}
	dup := rows[0]
	dup.Correct, dup.Answer = true, "true"
	conflict := append(append([]eval.Outcome(nil), rows...), dup)
	got, err := eval.Compare(conflict, "a−b", "a", "b", nil, eval.DefaultStats)
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
