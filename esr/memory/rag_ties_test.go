package memory_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// A key updated eight times by events that BM25 scores alike (same words,
// same length): rag-topk breaks the ties toward the newer events, so its
// five events are the five newest and the newest value is among them; the
// structured read-out and a reader of the retrieved text (time-sorter:
// the newest dated value) answer it.
func TestRAGTopKBreaksTiesTowardNewerEvents(t *testing.T) {
	k := esr.Key{Entity: "ci", Attribute: "timeout"}
	var evs []bench.Event
	for i := 1; i <= 8; i++ {
		v := fmt.Sprintf("%d s", 10*i)
		evs = append(evs, bench.Event{ID: fmt.Sprintf("e%d", i), Date: fmt.Sprintf("2024-0%d-01", i), Actor: "ann",
			Value: v, Text: "The ci timeout is now " + v + "."})
	}
	s, atoms := bench.Build("s1", k, evs)
	st, err := memory.Build(memory.SpecOf(memory.RAGTopK), s, atoms, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := esr.Query{Type: esr.Snapshot, Key: k, Question: "What is the ci timeout?"}
	text := st.Render(q)
	for i := 1; i <= 8; i++ {
		if in, want := strings.Contains(text, fmt.Sprintf("now %d s.", 10*i)), i > 3; in != want {
			t.Errorf("update %d (%d s) retrieved: %v, want %v, in\n%s", i, 10*i, in, want, text)
		}
	}
	if a := st.Answer(q); a.String() != "80 s" {
		t.Errorf("structured read-out %q, want the newest update, 80 s", a)
	}
	r, err := sim.Readers.Reader(reader.Spec{Kind: reader.KindScripted, Name: "time-sorter"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Read(context.Background(), reader.Input{QID: "q", Question: q.Question, QueryType: q.Type, Context: text,
		MayAbstain: st.MayAbstain(), Memory: memory.SpecOf(memory.RAGTopK), State: st, Query: q, Stated: reader.StatedValues(atoms, k)})
	if err != nil || out.Answer.String() != "80 s" {
		t.Errorf("time-sorter on rag-topk: %q (%v), want 80 s; note %s", out.Answer, err, out.Note)
	}
}
