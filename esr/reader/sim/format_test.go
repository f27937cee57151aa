package sim_test

import (
	"context"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// The scripted readers read every ledger format; which answers survive a
// format change is the render effect in miniature: without visible dates
// (minimal) the time-sorter can no longer order render-only's rows.
func TestScriptedReadsLedgerFormats(t *testing.T) {
	s, atoms := bench.Figure1()
	qa := bench.Figure1QA()
	q := qa.Query(bench.TimeoutKey)
	want := map[string]map[string]string{ // format → "class/profile" → answer
		"compact": {"fine-ledger/status-reader": "30 s", "render-only/time-sorter": "30 s", "render-only/status-reader": "30 s"},
		"verbose": {"fine-ledger/status-reader": "30 s", "render-only/time-sorter": "30 s", "render-only/status-reader": "30 s"},
		"json":    {"fine-ledger/status-reader": "30 s", "render-only/time-sorter": "30 s", "render-only/status-reader": "30 s"},
		"minimal": {"fine-ledger/status-reader": "30 s", "render-only/time-sorter": esr.AbstainText, "render-only/status-reader": esr.AbstainText},
	}
	for _, f := range memory.LedgerFormats {
		for cp, ans := range want[f] {
			class, profile := split(cp)
			st := memory.MustBuild(memory.MustParseSpec(class), s, atoms, memory.Options{LedgerFormat: f})
			r, err := sim.NewScripted(profile)
			if err != nil {
				t.Fatal(err)
			}
			out, err := r.Read(context.Background(), reader.Input{Question: qa.Question, QueryType: esr.Snapshot,
				Context: st.Render(q), MayAbstain: true, Memory: memory.MustParseSpec(class)})
			if err != nil {
				t.Fatal(err)
			}
			if out.Answer.String() != ans {
				t.Errorf("format %s, %s: %v, want %s\n%s", f, cp, out.Answer, ans, st.Render(q))
			}
		}
	}
	if _, err := memory.Build(memory.SpecOf(memory.FineLedger), s, atoms, memory.Options{LedgerFormat: "yaml"}); err == nil {
		t.Error("unknown ledger format accepted")
	}
}

func split(s string) (string, string) {
	for i := range s {
		if s[i] == '/' {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}
