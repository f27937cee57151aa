package bench_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
)

// The Figure 1 bench survives a save and a validated load.
func TestFigure1BenchRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if err := bench.Figure1Bench().Save(dir); err != nil {
		t.Fatal(err)
	}
	b, err := bench.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Streams) != 1 || len(b.Atoms["figure1"]) != 3 || len(b.QAs) != 2 {
		t.Fatalf("got %d streams, %d atoms, %d QAs", len(b.Streams), len(b.Atoms["figure1"]), len(b.QAs))
	}
	if got := b.Stream("figure1").Events[2].ID; got != "e3" {
		t.Errorf("last event %q, want e3", got)
	}
}
