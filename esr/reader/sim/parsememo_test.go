package sim_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// TestRenderMemoConcurrentReads: readers on several goroutines share
// parsed renders (the memo) and answer exactly as one reader at a time
// with an empty memo does, each render read by every family. Run it with
// -race to check the sharing.
func TestRenderMemoConcurrentReads(t *testing.T) {
	b := benchtest.Subset(t, "debian", 6)
	var ins []reader.Input
	for _, q := range b.QAs {
		s := b.Stream(q.StreamID)
		k, ok := q.Locate(b.Atoms[q.StreamID])
		if !ok {
			continue
		}
		for _, m := range []memory.Class{memory.FineLedger, memory.GraphRAGAbstain, memory.RenderOnly, memory.Graphiti} {
			ctx := memory.MustBuild(memory.SpecOf(m), s, b.Atoms[q.StreamID], memory.Options{}).Render(q.Query(k))
			ins = append(ins, reader.Input{QID: q.QID, Question: q.Question, QueryType: q.QueryType, Context: ctx, MayAbstain: true, Memory: memory.SpecOf(m)})
		}
	}
	var sims []*sim.Sim
	for _, name := range []string{"fit-llama-3.1-8b", "fit-qwen3-8b", "fit-mistral-7b"} {
		p, err := sim.ProfileNamed(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(p, 0)
		if err != nil {
			t.Fatal(err)
		}
		sims = append(sims, s)
	}
	read := func(s *sim.Sim, in reader.Input) string {
		o, err := s.Read(context.Background(), in)
		if err != nil {
			t.Error(err)
		}
		return fmt.Sprintf("%s|%d|%s", o.Raw, o.ContextTokens, o.Note)
	}
	// One at a time, parsing every render afresh.
	want := make([][]string, len(ins))
	for i, in := range ins {
		for _, s := range sims {
			sim.ResetRenderMemo()
			want[i] = append(want[i], read(s, in))
		}
	}
	sim.ResetRenderMemo()
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ins {
				i := (j*7 + g*13) % len(ins) // each goroutine in its own order
				for k, s := range sims {
					if got := read(s, ins[i]); got != want[i][k] {
						t.Errorf("goroutine %d, %s on %s: %q, one at a time %q", g, s.Spec(), ins[i].QID, got, want[i][k])
					}
				}
			}
		}()
	}
	wg.Wait()
	if n := sim.RenderMemoLen(); n == 0 || n > 16 {
		t.Errorf("memo holds %d renders, want 1 to 16", n)
	}
	if len(ins) < 50 {
		t.Fatalf("only %d inputs", len(ins))
	}
}
