package memory_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The paper's Figure 1 stream (30 s → 60 s → 30 s) as a golden test of every
// class's answers and render. Run `go test ./esr/memory -update` after an
// intended render change and review the diff.
func TestFigure1Golden(t *testing.T) {
	s, atoms := bench.Figure1()
	qa := bench.Figure1QA()
	snap := qa.Query(bench.TimeoutKey)
	prov := snap
	prov.Type = esr.Provenance
	kind := snap
	kind.Type = esr.RelationType
	want := map[string][3]string{ // snapshot, provenance, relation type
		memory.DirectContext: {"30 s", "60 s", "ABSTAIN"},
		memory.RAGTopK:       {"30 s", "60 s", "ABSTAIN"},
		memory.LatestOnly:    {"30 s", "ABSTAIN", "ABSTAIN"},
		memory.GraphRAGLite:  {"30 s", "60 s", "replaces"},
		// d-blind: no order, so no prior value to name (the one d-blind rule).
		memory.GraphRAGAbstain: {"ABSTAIN", "ABSTAIN", "ABSTAIN"},
		memory.CoarseDiscard:   {"30 s", "ABSTAIN", "ABSTAIN"},
		memory.CoarseRetain:    {"30 s", "60 s", "replaces"},
		memory.FineLedger:      {"30 s", "60 s", "replaces"},
		memory.RenderOnly:      {"ABSTAIN", "ABSTAIN", "ABSTAIN"},
	}
	for _, c := range memory.Names {
		st := memory.MustBuild(memory.SpecOf(c), s, atoms, memory.Options{})
		got := [3]string{st.Answer(snap).String(), st.Answer(prov).String(), st.Answer(kind).String()}
		if got != want[string(c)] {
			t.Errorf("%s answers %v, want %v", c, got, want[string(c)])
		}
		render := st.Render(snap)
		path := filepath.Join("testdata", "figure1", string(c+".txt"))
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(render), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		golden, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update once)", err)
		}
		if render != string(golden) {
			t.Errorf("%s render changed:\n--- got\n%s--- want\n%s", c, render, golden)
		}
	}
}

// render-only and fine-ledger differ only in the status cells and the
// header's status word: same rows, columns, ids and order.
func TestRenderOnlyMatchesFineLayout(t *testing.T) {
	s, atoms := bench.Figure1()
	q := esr.Query{Type: esr.Snapshot, Key: bench.TimeoutKey}
	fine := strings.Split(memory.MustBuild(memory.SpecOf(memory.FineLedger), s, atoms, memory.Options{}).Render(q), "\n")
	ctrl := strings.Split(memory.MustBuild(memory.SpecOf(memory.RenderOnly), s, atoms, memory.Options{}).Render(q), "\n")
	if len(fine) != len(ctrl) {
		t.Fatalf("line counts differ: %d vs %d", len(fine), len(ctrl))
	}
	strip := func(line string) string {
		for _, w := range []string{"LIVE", "DEPRECATED", "REFINED", "UNRELATED", "neutral", "unresolved", "ok"} {
			line = strings.ReplaceAll(line, w, "")
		}
		return strings.Join(strings.Fields(line), " ")
	}
	for i := range fine {
		if strip(fine[i]) != strip(ctrl[i]) {
			t.Errorf("line %d differs beyond status:\n  fine: %s\n  ctrl: %s", i, fine[i], ctrl[i])
		}
	}
	if strings.Contains(strings.Join(ctrl, "\n"), "LIVE") || strings.Contains(strings.Join(ctrl, "\n"), "DEPRECATED") {
		t.Error("render-only leaks the mechanism's status")
	}
}

// Deployed renders append the raw events, keeping the memory's own render.
func TestDeployedRender(t *testing.T) {
	s, atoms := bench.Figure1()
	q := esr.Query{Type: esr.Snapshot, Key: bench.TimeoutKey}
	plain := memory.MustBuild(memory.SpecOf(memory.CoarseRetain), s, atoms, memory.Options{}).Render(q)
	dep := memory.MustBuild(memory.SpecOf(memory.CoarseRetain), s, atoms, memory.Options{Deployed: true}).Render(q)
	if !strings.HasPrefix(dep, plain) || !strings.Contains(dep, "[e2 2024-02-01] Update: use 60 s instead.") {
		t.Errorf("deployed render:\n%s", dep)
	}
}

func TestParseNames(t *testing.T) {
	got, err := memory.ParseNames("fine-ledger, coarse-retain")
	if err != nil || len(got) != 2 {
		t.Fatalf("%v %v", got, err)
	}
	if all, _ := memory.ParseNames("all"); len(all) != 9 {
		t.Errorf("all = %d classes, want 9", len(all))
	}
	if _, err := memory.ParseNames("zep"); err == nil || !strings.Contains(err.Error(), "coarse-retain") {
		t.Errorf("unknown name error should list the names: %v", err)
	}
}

// TestEventIndexKeepsInitials: the ledger's event index cuts an event's text
// at its first sentence end, not at a name's initial.
func TestEventIndexKeepsInitials(t *testing.T) {
	s, atoms := bench.Build("initials", esr.Key{Entity: "Pelara", Attribute: "head_of_government"}, []bench.Event{
		{ID: "e1", Date: "2000-01-01", Actor: "wikidata", Value: "L. Haddad", Text: "In 2000, L. Haddad became head of government again. More text."},
	})
	r := memory.MustBuild(memory.SpecOf(memory.FineLedger), s, atoms, memory.Options{}).Render(esr.Query{Type: esr.Snapshot, Key: atoms[0].Key()})
	if !strings.Contains(r, `e1 "In 2000, L. Haddad became head of government again."`) {
		t.Errorf("event index:\n%s", r)
	}
}
