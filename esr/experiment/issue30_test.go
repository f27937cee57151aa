package experiment_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/experiment"
	"github.com/esrkit/esrkit/esr/memory"
)

// Item 6 (issue 30): over one question the decomposition's pooled render
// term had a zero-width interval ([+0.200, +0.200], p = 1.000) counted as
// significant, and the summary said "the layout carries most of the
// gain". It says there are too few questions instead.
func TestDecompositionOverOneQuestion(t *testing.T) {
	var rows []eval.Outcome
	for i := range 5 {
		f := fmt.Sprintf("f%d", i)
		for _, m := range []string{memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger} {
			right := m != memory.GraphRAGAbstain && i == 0
			rows = append(rows, eval.Outcome{QID: "q1", Memory: m, Family: f, Reader: f, Correct: right, QueryType: "snapshot"})
		}
	}
	cs, err := experiment.RenderMatchedTerms(rows, nil, eval.DefaultStats)
	if err != nil {
		t.Fatal(err)
	}
	sum := experiment.DecompositionSummary(cs)
	if strings.Contains(sum, "carries most of the gain") || !strings.Contains(sum, "too few questions") {
		t.Errorf("the summary of one question:\n%s", sum)
	}
	for _, c := range cs {
		if c.Significant() {
			t.Errorf("%s is significant over one question: %s", c.Label, c)
		}
	}
	if v := experiment.RenderOrMechanism(cs, rows, "bench"); !strings.Contains(v, "too few questions") {
		t.Errorf("RenderOrMechanism: %s", v)
	}
}
