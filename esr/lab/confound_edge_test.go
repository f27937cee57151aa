package lab_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
)

// over one question the decomposition's pooled render
// term had a zero-width interval ([+0.200, +0.200], p = 1.000) counted as
// significant, and the summary said "the layout carries most of the
// gain". It says there are too few questions instead.
func TestDecompositionOverOneQuestion(t *testing.T) {
	var rows []eval.Outcome
	for i := range 5 {
		f := fmt.Sprintf("f%d", i)
		for _, m := range []memory.Class{memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger} {
			right := m != memory.GraphRAGAbstain && i == 0
			rows = append(rows, eval.Outcome{QID: "q1", Memory: memory.SpecOf(m), Family: reader.Family{Kind: reader.KindSim, Name: f}, Reader: reader.Spec{Kind: reader.KindSim, Name: f}, Correct: right, QueryType: "snapshot"})
		}
	}
	cs, err := lab.RenderMatchedTerms(rows, nil, eval.DefaultStats)
	if err != nil {
		t.Fatal(err)
	}
	sum := lab.DecompositionSummary(cs, "bench")
	if strings.Contains(sum, "carries most of the gain") || !strings.Contains(sum, "too few questions") {
		t.Errorf("the summary of one question:\n%s", sum)
	}
	for _, c := range cs {
		if c.Significant() {
			t.Errorf("%s is significant over one question: %s", c.Label, c)
		}
	}
	if v := lab.RenderOrMechanism(cs, rows, "bench"); !strings.Contains(v, "too few questions") {
		t.Errorf("RenderOrMechanism: %s", v)
	}
}

// hostile is bench text that is markup: a script, an image whose error
// handler runs, a javascript: link and math.
const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)>[x](javascript:alert(3)) $1 and $2`

// the answers Flips writes into Markdown came from the
// bench (and a reader's reply) unescaped, and nbconvert copied them into
// the report's HTML. They are escaped (report.MarkdownText): no raw tag, no
// link, no math survives.
func TestFlipsEscapesAnswers(t *testing.T) {
	s, atoms := bench.Build("x", bench.TimeoutKey, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Actor: "m", Value: hostile, Text: "set"},
		{ID: "e2", Date: "2024-02-01", Actor: "m", Value: "60 s", Text: "update"},
		{ID: "e3", Date: "2024-03-01", Actor: "m", Value: hostile, Text: "revert"},
	})
	qa := bench.Figure1QA()
	qa.StreamID, qa.GoldAnswer = "x", hostile
	md, err := lab.Flips(context.Background(), s, atoms, qa, []reader.Reader{reader.Oracle{}}, memory.Options{Relator: relate.Oracle{}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "alert(1)") {
		t.Fatalf("the hostile answer is not in the output at all:\n%s", md)
	}
	for _, bad := range []string{"<script", "<img", "x](javascript", " $1"} { // "\\](" is no link
		if strings.Contains(md, bad) {
			t.Errorf("Flips writes %q unescaped into Markdown:\n%s", bad, md)
		}
	}
}
