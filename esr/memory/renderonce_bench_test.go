package memory_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// streamRenders builds, for every stream of b, the deployed suite's kind
// of states (Graphiti, both Mem0 models, graphrag-abstain and, when python3 is here,
// the reference exec: adapter) and renders each of the stream's questions
// through each, as the evaluation loop does.
func streamRenders(tb testing.TB, b *bench.Bench, classes []memory.Class) int {
	n := 0
	byStream := map[string][]int{}
	for i, q := range b.QAs {
		byStream[q.StreamID] = append(byStream[q.StreamID], i)
	}
	for _, s := range b.Streams {
		for _, c := range classes {
			st, err := memory.Build(memory.SpecOf(c), s, b.Atoms[s.ID], memory.Options{})
			if err != nil {
				tb.Fatal(err)
			}
			for _, qi := range byStream[s.ID] {
				q := &b.QAs[qi]
				k, _ := q.Locate(b.Atoms[s.ID])
				n += len(st.Render(q.Query(k)))
			}
			if err := memory.Err(st); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return n
}

func deployedRenderClasses(tb testing.TB) []memory.Class {
	classes := []memory.Class{memory.Graphiti, memory.Mem0V3, memory.Mem0Update, memory.GraphRAGAbstain}
	if ref, err := filepath.Abs("../../examples/adapter/coarse_adapter.py"); err == nil {
		if _, err := os.Stat("/usr/bin/python3"); err == nil {
			classes = append(classes, memory.Class(memory.ExecPrefix+ref))
		}
	}
	return classes
}

// TestRenderMemosChangeNoRender: the renders of 30 Debian streams' questions
// are the same bytes with the render memos on and off.
func TestRenderMemosChangeNoRender(t *testing.T) {
	defer memory.CloseAdapters()
	b := benchtest.Subset(t, "debian", 30)
	classes := deployedRenderClasses(t)
	collect := func() []string {
		var out []string
		for _, s := range b.Streams {
			for _, c := range classes {
				st := memory.MustBuild(memory.SpecOf(c), s, b.Atoms[s.ID], memory.Options{})
				for i := range b.QAs {
					if q := &b.QAs[i]; q.StreamID == s.ID {
						k, _ := q.Locate(b.Atoms[s.ID])
						out = append(out, st.Render(q.Query(k)))
					}
				}
			}
		}
		return out
	}
	with := collect()
	restore := memory.RendersPerQuery()
	without := collect()
	restore()
	if len(with) != len(without) || len(with) == 0 {
		t.Fatalf("%d renders with the memos, %d without", len(with), len(without))
	}
	for i := range with {
		if with[i] != without[i] {
			t.Fatalf("render %d differs with the memos on and off", i)
		}
	}
}

// BenchmarkStreamRenders: building the deployed suite's states for 40
// Debian streams (long changelogs) and rendering every question through
// each, a render per query (the baseline, same run) against a render per
// state (renderOnce, and an adapter that declares render_per_state).
func BenchmarkStreamRenders(b *testing.B) {
	defer memory.CloseAdapters()
	bb := benchtest.Subset(b, "debian", 40)
	classes := deployedRenderClasses(b)
	for _, c := range []struct {
		name     string
		perQuery bool
	}{{"per-query", true}, {"per-state", false}} {
		b.Run(c.name, func(b *testing.B) {
			if c.perQuery {
				defer memory.RendersPerQuery()()
			}
			for b.Loop() {
				streamRenders(b, bb, classes)
			}
		})
	}
}
