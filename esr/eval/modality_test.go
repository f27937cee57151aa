package eval_test

import (
	"context"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// An atom of modality "text" (what the paper's reference pipeline writes
// for every atom) asserts its value exactly as one of modality "assert":
// every memory and every default reader (the raw-text readers of
// direct-context and rag-topk included) gives the same answer to every
// question when the bench's assertions say "text" instead.
func TestTextModalityIsReadAsAnAssertion(t *testing.T) {
	b := benchtest.Subset(t, "synthetic", 24)
	atoms := map[string][]esr.Atom{}
	n := 0
	for sid, as := range b.Atoms {
		cp := append([]esr.Atom(nil), as...)
		for i := range cp {
			if cp[i].Modality == esr.ModalityAssert {
				cp[i].Modality, n = esr.ModalityText, n+1
			}
		}
		atoms[sid] = cp
	}
	if n == 0 {
		t.Fatal("no asserting atom to relabel")
	}
	text := bench.New(b.Streams, atoms, b.QAs)
	rs, err := reader.ParseList(lab.DefaultReaderSpec(func(string) string { return "" }), llm.Setup{}, sim.Readers)
	if err != nil {
		t.Fatal(err)
	}
	cfg := eval.Config{Memories: memory.Specs(memory.Names...), Readers: rs}
	run := func(b *bench.Bench) map[string]string {
		rows, err := eval.Evaluate(context.Background(), b, cfg)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, o := range rows {
			out[o.Memory.String()+" "+o.Reader.String()+" "+o.QID] = o.Answer
		}
		return out
	}
	want, got := run(b), run(text)
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d rows with text, %d with assert", len(got), len(want))
	}
	differ := 0
	for id, a := range want {
		if got[id] != a {
			if differ++; differ <= 5 {
				t.Errorf("%s: %q with assert, %q with text", id, a, got[id])
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d rows differ", differ, len(want))
	}
}
