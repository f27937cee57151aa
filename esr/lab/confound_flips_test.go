package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// Flips reads the render-matched staircase on Figure 1 from the answers: a
// reader that ignores dates and reads status turns right only at the
// mechanism step; a date-sorting reader is right on all three (the d-blind
// control shows dates).
func TestFlipsOnFigure1(t *testing.T) {
	s, atoms := bench.Figure1()
	var rs []reader.Reader
	for _, p := range []string{"cautious", "time-sorter"} {
		r, err := sim.NewScripted(p)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	got, err := lab.Flips(context.Background(), s, atoms, bench.Figure1QA(), rs, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"`scripted:cautious`: ABSTAIN → ABSTAIN → 30 s: turns right at the mechanism step.",
		"`scripted:time-sorter`: 30 s → 30 s → 30 s: is right on all three."} {
		if !strings.Contains(got, want) {
			t.Errorf("Flips:\n%s\nwant a line %q", got, want)
		}
	}
}
