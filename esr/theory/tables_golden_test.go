package theory_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/theory"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// Figure 4 from a small seeded fibre (Proposition 1: d-blind classes at
// most 1/2, the fine ledger at 1).
func TestFigure4Golden(t *testing.T) {
	r := theory.P1Fibre(8, 1)
	goldenimg.Check(t, theory.FibrePlot(r), "fibre-plot")
	r.Classes[0].Acc += 0.02
	goldenimg.CheckDiffers(t, theory.FibrePlot(r), "fibre-plot")
}
