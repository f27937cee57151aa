package memory_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

// The kit's earlier fixed template: no paraphrase, Mem0 dedup against every
// memory, created_at at the event's time.
const (
	gTemplate = "@paraphrase=0"
	mTemplate = "@paraphrase=0@dedup-k=all@created-at=event"
)

// The reverted revert of Figure 1 (30 s → 60 s → 30 s) through the deployed
// classes and their render-matched controls, under the fixed template.
func TestDeployedRevertedRevert(t *testing.T) {
	s, atoms := bench.Figure1()
	qa := bench.Figure1QA()
	snap := qa.Query(bench.TimeoutKey)
	prov := snap
	prov.Type = esr.Provenance
	want := map[string][2]string{ // snapshot, provenance
		memory.Graphiti + gTemplate:                          {"60 s", "30 s"},    // fast path: A's closed edge reused, B stays Present
		memory.GraphitiCurrent + gTemplate:                   {"60 s", "ABSTAIN"}, // current-only: only B shown
		memory.Mem0V3 + mTemplate:                            {"ABSTAIN", "ABSTAIN"},
		memory.Mem0Update + mTemplate:                        {"30 s", "ABSTAIN"}, // UPDATE in place, history not rendered
		memory.Graphiti + gTemplate + memory.ControlSuffix:   {"ABSTAIN", "ABSTAIN"},
		memory.Mem0V3 + mTemplate + memory.ControlSuffix:     {"ABSTAIN", "ABSTAIN"},
		memory.Mem0Update + mTemplate + memory.ControlSuffix: {"ABSTAIN", "ABSTAIN"},
	}
	for c, w := range want {
		st, err := memory.Build(memory.MustParseSpec(c), s, atoms, memory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := [2]string{st.Answer(snap).String(), st.Answer(prov).String()}; got != w {
			t.Errorf("%s answers %v, want %v", c, got, w)
		}
	}
	g := memory.MustBuild(memory.MustParseSpec(memory.Graphiti+gTemplate), s, atoms, memory.Options{})
	r := g.Render(snap)
	for _, line := range []string{
		`{"fact":"service request_timeout is 30 s","valid_at":"2024-01-01 00:00:00+00:00","invalid_at":"2024-02-01 00:00:00+00:00"}`,
		`{"fact":"service request_timeout is 60 s","valid_at":"2024-02-01 00:00:00+00:00","invalid_at":"Present"}`,
		"<FACTS>", "<ENTITIES>", "<EPISODES>", `"source_description":"event e3 (comment)"`,
	} {
		if !strings.Contains(r, line) {
			t.Errorf("graphiti render lacks %s:\n%s", line, r)
		}
	}
	if h := g.Rows()[0].History; len(h) != 2 || h[0].InvalidAt.IsZero() || !h[1].InvalidAt.IsZero() {
		t.Errorf("graphiti history %+v: want A closed at B's valid_at, B open, no third edge", h)
	}
	cur := memory.MustBuild(memory.MustParseSpec(memory.GraphitiCurrent+gTemplate), s, atoms, memory.Options{}).Render(snap)
	if strings.Contains(cur, "is 30 s") {
		t.Errorf("graphiti-current shows a closed fact:\n%s", cur)
	}
	m := memory.MustBuild(memory.MustParseSpec(memory.Mem0Update+mTemplate), s, atoms, memory.Options{}).Render(snap)
	if !strings.Contains(m, `"memory":"service request_timeout is 30 s"`) || !strings.Contains(m, `"created_at":"2024-01-01T00:00:00+00:00","updated_at":"2024-03-01T00:00:00+00:00"`) {
		t.Errorf("mem0-update render:\n%s", m)
	}
	// mem0-v3 uses no relations: its control is the same store, and the
	// update pipeline with its mechanism off is the add-only store.
	v3 := memory.MustBuild(memory.MustParseSpec(memory.Mem0V3+mTemplate), s, atoms, memory.Options{}).Render(snap)
	for _, c := range []string{memory.Mem0V3 + mTemplate + memory.ControlSuffix, memory.Mem0Update + mTemplate + memory.ControlSuffix} {
		if got := memory.MustBuild(memory.MustParseSpec(c), s, atoms, memory.Options{}).Render(snap); got != v3 {
			t.Errorf("%s render differs from mem0-v3:\n%s", c, got)
		}
	}
	if strings.Count(v3, `"memory"`) != 2 {
		t.Errorf("mem0-v3 keeps the returning value as a hash duplicate; render:\n%s", v3)
	}
}

func TestDeployedNames(t *testing.T) {
	names, err := memory.ParseNames("graphiti,graphiti-current~render-only,mem0-v3,mem0-update")
	if err != nil || len(names) != 4 {
		t.Fatal(names, err)
	}
	if _, err := memory.ParseNames("graphiti-x"); err == nil {
		t.Error("unknown class accepted")
	}
	if err := memory.Register(memory.Graphiti, nil); err == nil {
		t.Error("Register overrode a deployed class")
	}
	if !memory.SpecOf(memory.FineLedger).RenderMatched().Is(memory.RenderOnly) || memory.SpecOf(memory.Mem0V3).RenderMatched().String() != "mem0-v3~render-only" {
		t.Error("RenderMatched")
	}
}
