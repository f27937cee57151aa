package sim

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// TestProbesNameEveryFamilyAndCountTheConflictRows: the probes print one
// line per profile and read graphrag-abstain on every cross-source-conflict
// snapshot question once per profile.
func TestProbesNameEveryFamilyAndCountTheConflictRows(t *testing.T) {
	b, err := bench.Load("../../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	ps := CalibratedProfiles()[:2]
	text, err := Probes(context.Background(), b, ps)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if !strings.Contains(text, p.Name+": newest of 8 dated rows") {
			t.Errorf("no probe line for %s:\n%s", p.Name, text)
		}
	}
	n := 0
	for i := range b.QAs {
		if b.QAs[i].Phenomenon == esr.CrossSourceConflict && b.QAs[i].Type() == esr.Snapshot {
			n++
		}
	}
	if want := fmt.Sprintf("every family, one draw each: %d rows;", n*len(ps)); n == 0 || !strings.Contains(text, want) {
		t.Errorf("want %q in:\n%s", want, text)
	}
}
