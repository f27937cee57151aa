package memory_test

import (
	"strings"
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
		memory.CoarseRetain:    {"coarse-retain (idealised Graphiti)", "coarse-retain (idealised Graphiti)"},
		memory.Graphiti:        {"graphiti (deployed-system model, full history)", "graphiti (deployed-system model, full history)"},
		"exec:./mine":          {"exec:./mine", "exec:./mine"},
	} {
		if c.Paper() != want[0] || c.Abbrev() != want[1] {
			t.Errorf("%s: paper %q, abbrev %q; want %q", c, c.Paper(), c.Abbrev(), want)
		}
	}
	// The idealised coarse store and the deployed-system models never
	// share a name: none is plain "Graphiti", each deployed one says so.
	for _, d := range memory.Displays {
		if d.Paper == "Graphiti" || d.Long == "Graphiti" {
			t.Errorf("%s is displayed as plain Graphiti: %+v", d.Class, d)
		}
	}
	for _, c := range memory.DeployedNames {
		if p := memory.Class(c).Paper(); !strings.Contains(p, "deployed-system model") {
			t.Errorf("deployed class %s displayed %q, without \"deployed-system model\"", c, p)
		}
	}
}
