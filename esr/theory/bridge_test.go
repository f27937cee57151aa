package theory_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/theory"
)

// The bridge pair: fine's Π and snapshot agree under R and R′, coarse's
// snapshot equals fine's, render-only abstains, the relation type differs.
func TestBridge(t *testing.T) {
	rows := theory.Bridge()
	if len(rows) != 6 {
		t.Fatalf("%d rows", len(rows))
	}
	s := theory.BridgeSentence(rows)
	for _, want := range []string{"answers the same snapshot", "fine − coarse is 0", "read-out is ABSTAIN", "Only the relation-type query"} {
		if !strings.Contains(s, want) {
			t.Errorf("bridge sentence %q lacks %q", s, want)
		}
	}
	if tab := theory.BridgeTable(rows); len(tab.Rows) != 6 {
		t.Errorf("table rows %d", len(tab.Rows))
	}
}
