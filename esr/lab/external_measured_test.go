package lab_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// row is an outcome of one (qid, memory), readable or not.
func row(qid, mem string, correct, unreadable bool) eval.Outcome {
	x := reader.Spec{Kind: reader.KindScripted, Name: "x"}
	return eval.Outcome{QID: qid, StreamID: qid, Phenomenon: esr.Monotonic, QueryType: esr.Snapshot,
		Memory: memory.MustParseSpec(mem), Reader: x, Family: reader.Family(x), Correct: correct, Abstained: !correct, Unreadable: unreadable}
}

// Unreadable rows count neither as right nor as wrong: an accuracy leaves
// them out, one with no other row is not measured, and a paired comparison
// skips their pairs.
func TestUnreadableRowsAreNotMeasured(t *testing.T) {
	rows := []eval.Outcome{
		row("q1", memory.DirectContext, false, true), row("q2", memory.DirectContext, false, true),
		row("q1", memory.FineLedger, true, false), row("q2", memory.FineLedger, false, false),
		row("q1", memory.RAGTopK, false, true), row("q2", memory.RAGTopK, true, false),
	}
	acc := map[string]eval.Accuracy{}
	for _, a := range eval.AccuracyBy(rows, memory.Specs(memory.DirectContext, memory.FineLedger, memory.RAGTopK), nil, nil, 0.95) {
		acc[a.Memory.String()] = a
	}
	if a := acc[memory.DirectContext]; a.Measured() || a.N != 0 || a.Unreadable != 2 || !math.IsNaN(a.Acc) {
		t.Errorf("direct-context: %+v, want not measured (N 0, 2 unreadable)", a)
	}
	if a := acc[memory.RAGTopK]; a.N != 1 || a.Unreadable != 1 || a.Acc != 1 {
		t.Errorf("rag-topk: %+v, want 1/1 measured, 1 unreadable", a)
	}
	if a := acc[memory.FineLedger]; a.N != 2 || a.Unreadable != 0 || a.Acc != 0.5 {
		t.Errorf("fine-ledger: %+v", a)
	}
	if _, err := eval.Compare(rows, eval.Term{Label: "x", A: memory.SpecOf(memory.FineLedger), B: memory.SpecOf(memory.DirectContext)}, nil, eval.StatOptions{B: 200}); err == nil {
		t.Error("a comparison with only unreadable pairs was made")
	}
	c, err := eval.Compare(rows, eval.Term{Label: "x", A: memory.SpecOf(memory.RAGTopK), B: memory.SpecOf(memory.FineLedger)}, nil, eval.StatOptions{B: 200})
	if err != nil || c.N != 1 || c.Delta != 1 {
		t.Errorf("rag-topk − fine-ledger: %+v %v, want the one readable pair (Δ = 1)", c, err)
	}
	tab := lab.SnapshotCeilingTable(rows, "mini", esr.Monotonic, memory.Specs(memory.DirectContext, memory.FineLedger))
	md := tab.Markdown()
	if !strings.Contains(md, "| direct-context | 0 | "+eval.NotMeasured+" | — |") || !strings.Contains(md, "2 rows (direct-context") {
		t.Errorf("ceiling table does not mark direct-context as not measured:\n%s", md)
	}
}

// On the bundled DyKnow conversion the scripted readers cannot read raw
// event text for names and teams: Appendix D's ceiling table says so rather
// than printing 0.
func TestSnapshotCeilingMarksUnreadableOnDyKnow(t *testing.T) {
	b, err := bench.Load("../../data/dyknow")
	if err != nil {
		t.Fatal(err)
	}
	rs := sim.AllScripted()
	mems := []memory.Class{memory.DirectContext, memory.RAGTopK, memory.FineLedger}
	rows, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: memory.Specs(mems...), Readers: rs, QueryTypes: []esr.QueryType{esr.Snapshot},
		Phenomena: []esr.Phenomenon{esr.Monotonic}})
	if err != nil {
		t.Fatal(err)
	}
	unread := 0
	for i := range rows {
		if rows[i].Unreadable {
			unread++
			if rows[i].Memory.Is(memory.FineLedger) {
				t.Errorf("%s: a ledger render marked unreadable (%s)", rows[i].QID, rows[i].Reason)
			}
		}
	}
	if unread == 0 {
		t.Fatal("no raw-text row marked unreadable")
	}
	// A raw-text cell counts only the rows a reader could read (a value
	// pattern fired, rightly or not), and the note counts the rest.
	tab := lab.SnapshotCeilingTable(rows, "dyknow", esr.Monotonic, memory.Specs(mems...))
	md := tab.Markdown()
	for _, a := range eval.AccuracyBy(rows, memory.Specs(mems...), nil, nil, 0.95) {
		if a.N+a.Unreadable != len(rows)/len(mems) {
			t.Errorf("%s: %d measured + %d unreadable, want %d rows", a.Memory, a.N, a.Unreadable, len(rows)/len(mems))
		}
		if !a.Memory.Is(memory.FineLedger) && a.Unreadable < 10*a.N {
			t.Errorf("%s: %d unreadable of %d, want almost all", a.Memory, a.Unreadable, a.N+a.Unreadable)
		}
	}
	if !strings.Contains(md, fmt.Sprintf("%s: %d rows (direct-context, rag-topk;", eval.NotMeasured, unread)) {
		t.Errorf("the table does not count the %d unreadable rows:\n%s", unread, md)
	}
	t.Logf("%d of %d rows unreadable\n%s", unread, len(rows), md)
}
