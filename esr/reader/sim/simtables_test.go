package sim_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// TestSimTables: one row per capability and per built-in profile, each
// profile's cells being its capabilities, and both tables say SIMULATED.
func TestSimTables(t *testing.T) {
	caps := sim.CapabilityTable()
	if len(caps.Rows) != len(sim.Capabilities) {
		t.Fatalf("%d capability rows, want %d", len(caps.Rows), len(sim.Capabilities))
	}
	for i, c := range sim.Capabilities {
		if caps.Rows[i][0].Text != c.Name || caps.Rows[i][2].Text != c.Evidence {
			t.Errorf("row %d = %v, want %s with its evidence", i, caps.Rows[i][:1], c.Name)
		}
	}
	prof := sim.ProfileTable()
	ps := sim.Profiles()
	if len(prof.Rows) != len(ps) {
		t.Fatalf("%d profile rows, want %d", len(prof.Rows), len(ps))
	}
	if prof.Rows[0][0].Text != "sim:"+ps[0].Name || prof.Rows[0][1] != eval.NumberCell("%g", 0.9) {
		t.Errorf("first profile row = %v", prof.Rows[0])
	}
	if !strings.Contains(caps.Notes[0], "SIMULATED") || !strings.Contains(prof.Notes[0], "SIMULATED") {
		t.Error("tables do not say SIMULATED")
	}
}
