package lab

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
)

// FlipJudgeTable judges both answers of every reader whose verdict changes
// between memories i and j of w (w.Flips(i, j)) with each of js: when every
// judge gives the same verdicts, the flip is the reader's (it answered
// differently), not the judge's (the same answer read two ways). One row
// per flip and memory: the reader, the memory, its answer and each judge's
// verdict (✓ correct, ✗ not).
func FlipJudgeTable(ctx context.Context, w *WorkedQuestion, i, j int, js []judge.Judge) (*eval.Table, error) {
	t := &eval.Table{ID: eval.TableID("flip-judges-" + w.QA.QID), Title: "The render step's flips under each judge: “" + w.QA.Question + "” (gold: " + w.QA.GoldAnswer + ")",
		Columns: []string{"reader", "memory", "answer"}}
	for _, jg := range js {
		t.Columns = append(t.Columns, jg.Name())
	}
	agree, n := 0, 0
	for _, f := range w.Flips(i, j) {
		same := true
		for _, side := range []struct {
			memory string
			a      WorkedAnswer
		}{{f.From.String(), f.Before}, {f.To.String(), f.After}} {
			row := []any{f.Reader, side.memory, side.a.Answer}
			for k, jg := range js {
				v, err := jg.Judge(ctx, &w.QA, side.a.Given)
				if err != nil {
					return nil, err
				}
				mark := eval.VerdictCell("", v.Correct)
				// Every judge must mark the answer as the first does.
				same = same && (k == 0 || mark == row[3])
				row = append(row, mark)
			}
			t.AddRow(row...)
		}
		n++
		if same {
			agree++
		}
	}
	if n > 0 {
		t.Notes = []string{flipJudgeNote(agree, n)}
	}
	return t, nil
}

// flipJudgeNote says in how many of the flips every judge agrees.
func flipJudgeNote(agree, n int) string {
	switch agree {
	case n:
		return "every judge gives the same verdicts on both answers of every flip: each flip is the reader's, not the judge's"
	case 0:
		return "on every flip some judge disagrees with another: the flips depend on the judge"
	}
	return fmt.Sprintf("%d of %d flips get the same verdicts from every judge; on the others the verdict depends on the judge", agree, n)
}
