package memory_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/memory"
)

func TestDisplays(t *testing.T) {
	seen := map[memory.Class]bool{}
	for _, d := range memory.Displays {
		if seen[d.Class] || d.Paper == "" || d.Long == "" {
			t.Errorf("display %+v: duplicate or empty", d)
		}
		seen[d.Class] = true
	}
	for _, n := range append(append([]memory.Class{}, memory.Names...), memory.DeployedNames...) {
		if !seen[memory.Class(n)] {
			t.Errorf("%s has no display names", n)
		}
	}
	for c, want := range map[memory.Class][2]string{
		memory.FineLedger:      {"RevisionLedger", "RL"},
		memory.GraphRAGAbstain: {"GraphRAG+abstain", "GRA"},
		memory.CoarseRetain:    {"Graphiti", "Graphiti"},
		memory.Graphiti:        {"Graphiti (deployed, full history)", "Graphiti (deployed, full history)"},
		"exec:./mine":          {"exec:./mine", "exec:./mine"},
	} {
		if c.Paper() != want[0] || c.Abbrev() != want[1] {
			t.Errorf("%s: paper %q, abbrev %q; want %q", c, c.Paper(), c.Abbrev(), want)
		}
	}
}
