package sim

import (
	"os"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
)

// TestModelCardIsCurrent: docs/reader-model.md is the card that the
// shipped calibration, the sanity suite on the bundled bench and the
// shipped validation give now (regenerate with cardCommand).
func TestModelCardIsCurrent(t *testing.T) {
	b, err := bench.Load("../../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	shape, err := ShapeOf(b)
	if err != nil {
		t.Fatal(err)
	}
	want := ModelCard(Calibrated(), shape, ShippedValidation())
	got, err := os.ReadFile("../../../docs/reader-model.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/reader-model.md is out of date: run %s", cardCommand)
	}
	for _, must := range []string{"SIMULATED", "fitted", "cannot represent", "Envelope suite", "evidence", "Identification", "Stage 1"} {
		if !strings.Contains(want, must) {
			t.Errorf("the card does not say %q", must)
		}
	}
}
