package upstream

import (
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// byValue is a relation source that reads values only: a later atom with
// another value supersedes, one with the same value restates.
func byValue(a, b *esr.Atom) esr.Relation {
	if a.State() == b.State() {
		return esr.SameState
	}
	return esr.Supersedes
}

func figure1Texts(third string) (*esr.Stream, []esr.Atom, []string) {
	s, atoms := bench.Figure1()
	texts := []string{"service request_timeout is 30 s", "service request_timeout is 60 s", third}
	return s, atoms, texts
}

type window struct {
	value   string
	present bool
}

func windows(keys []*GraphKey, atoms []esr.Atom) []window {
	var out []window
	for _, e := range keys[0].Edges {
		out = append(out, window{atoms[e.Atom].Display(), e.InvalidAt.IsZero()})
	}
	return out
}

// Graphiti on A → B → A (Figure 1): the fast path and the LLM duplicate
// judgement both reuse A's closed edge and leave B "Present" (Graphiti
// #1865); only a new text the LLM does not call a duplicate reopens A.
func TestGraphRevertedRevert(t *testing.T) {
	never := func(int) bool { return false }
	always := func(int) bool { return true }
	for _, c := range []struct {
		name, third string
		dup         func(int) bool
		want        []window
	}{
		{"fast path", "service request_timeout is 30 s", never, []window{{"30 s", false}, {"60 s", true}}},
		{"duplicate judgement", "service request_timeout became 30 s", always, []window{{"30 s", false}, {"60 s", true}}},
		{"new edge", "service request_timeout became 30 s", never, []window{{"30 s", false}, {"60 s", false}, {"30 s", true}}},
	} {
		_, atoms, texts := figure1Texts(c.third)
		keys := IngestGraph(atoms, texts, byValue, c.dup)
		if got := windows(keys, atoms); !equalWindows(got, c.want) {
			t.Errorf("%s: edges %v, want %v", c.name, got, c.want)
		}
	}
}

func equalWindows(a, b []window) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Mem0 on A → B → A: the add-only pipeline drops the returning value as a
// hash duplicate of A's memory (both memories stay, A's old created_at);
// the update pipeline keeps one memory, updated twice.
func TestMem0RevertedRevert(t *testing.T) {
	s, atoms, texts := figure1Texts("service request_timeout is 30 s")
	cfg := Mem0Config{DedupK: DedupAll, Skip: func(int) bool { return false },
		Clock: func(i int) esr.Time { return atoms[i].Timestamp }}

	add := IngestMem0(s, atoms, texts, nil, cfg)
	if len(add) != 2 || add[0].Atom != 0 || add[1].Atom != 1 {
		t.Fatalf("add-only: %d memories %+v, want atoms 0 and 1", len(add), add)
	}
	if !add[0].CreatedAt.Equal(atoms[0].Timestamp.Time) {
		t.Errorf("add-only: A's memory created %v, want A's first date %v", add[0].CreatedAt, atoms[0].Timestamp)
	}

	upd := IngestMem0(s, atoms, texts, byValue, cfg)
	if len(upd) != 1 || upd[0].Atom != 2 || len(upd[0].History) != 3 {
		t.Fatalf("update: %+v, want one memory holding atom 2 with three history rows", upd)
	}
	if !upd[0].CreatedAt.Equal(atoms[0].Timestamp.Time) || !upd[0].UpdatedAt.Equal(atoms[2].Timestamp.Time) {
		t.Errorf("update: created %v updated %v, want the first and the last date", upd[0].CreatedAt, upd[0].UpdatedAt)
	}
}

// BM25 ranks by term overlap and keeps document order among equal scores.
func TestBM25Top(t *testing.T) {
	x := NewBM25([]string{"timeout is 30 s", "retries is 3", "timeout raised to 60 s"})
	if got := x.Top("what timeout, 60?", 2); len(got) != 2 || got[0] != 2 || got[1] != 0 {
		t.Errorf("Top = %v, want [2 0]", got)
	}
	if got := x.Top("nothing shared", 3); len(got) != 3 || got[0] != 0 || got[1] != 1 || got[2] != 2 {
		t.Errorf("ties: Top = %v, want document order", got)
	}
}
