package lab_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// With five families that always agree on a question, the rows of a
// question are copies: the clustered interval is wider than the pair one,
// and the table and sentence say so.
func TestIntervalTableClusteredWider(t *testing.T) {
	var rows []eval.Outcome
	for q := 0; q < 60; q++ {
		a := q%3 != 0 // memory A right on 2/3 of the questions
		b := q%5 == 0
		for f := 0; f < 5; f++ {
			fam := reader.Family{Kind: reader.KindSim, Name: fmt.Sprint("fam", f)}
			rows = append(rows, eval.Outcome{QID: fmt.Sprint("q", q), Family: fam, Memory: memory.SpecOf("A"), Correct: a},
				eval.Outcome{QID: fmt.Sprint("q", q), Family: fam, Memory: memory.SpecOf("B"), Correct: b})
		}
	}
	terms := []eval.Term{{Label: "A − B", A: memory.SpecOf("A"), B: memory.SpecOf("B")}}
	tab, err := lab.IntervalTable(rows, terms, nil, eval.StatOptions{B: 2000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var ratio float64
	fmt.Sscan(fmt.Sprint(tab.Rows[0][len(tab.Rows[0])-1]), &ratio)
	if ratio < 1.5 {
		t.Errorf("width ratio %v with perfectly correlated families; want about √5", ratio)
	}
	s, err := lab.IntervalWidthSentence(rows, terms, nil, eval.StatOptions{B: 2000, Seed: 3})
	if err != nil || !strings.Contains(s, "move together") {
		t.Errorf("sentence %q (%v), want the positive-correlation explanation", s, err)
	}
}
