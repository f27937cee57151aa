package theory

import (
	"math"
	"testing"

	"github.com/esrkit/esrkit/esr"
)

// Proposition 2b: b_type = I(v*; R | Π, values) is exactly 0 (plug-in and
// Miller–Madow), while I(v*; R | values) is positive and equals, plug-in,
// H(v* | values) = I(v*; Π | values).
func TestP2bTypingBenefit(t *testing.T) {
	for _, cfg := range []P2bConfig{
		{Seed: 1},
		{N: 5000, MinAtoms: 1, MaxAtoms: 6, Values: 2, Seed: 2},
		{N: 5000, Labels: []esr.Relation{esr.SameState, esr.Supersedes, esr.Refines, esr.Contradicts}, Seed: 3},
	} {
		r, err := P2bTypingBenefit(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v", r)
		if r.ReadOutMismatches != 0 {
			t.Errorf("seed %d: g(Π, values) ≠ ⊕ on %d keys", cfg.Seed, r.ReadOutMismatches)
		}
		if r.BType.PlugIn != 0 || r.BType.MillerMadow != 0 {
			t.Errorf("seed %d: b_type = %v (plug-in), %v (Miller–Madow), want 0", cfg.Seed, r.BType.PlugIn, r.BType.MillerMadow)
		}
		if r.RGivenValues.PlugIn < 0.5 || r.RGivenValues.MillerMadow < 0.5 {
			t.Errorf("seed %d: I(v*; R | values) = %v, %v; want clearly positive", cfg.Seed, r.RGivenValues.PlugIn, r.RGivenValues.MillerMadow)
		}
		for _, x := range []float64{r.RGivenValues.PlugIn, r.PiGivenValues.PlugIn} {
			if math.Abs(x-r.HSnapshotGivenValues) > 1e-9 {
				t.Errorf("seed %d: %v, want H(v* | values) = %v", cfg.Seed, x, r.HSnapshotGivenValues)
			}
		}
		if r.BType.Cells <= r.RGivenValues.Cells {
			t.Errorf("seed %d: %d (Π, values) cells but %d values cells", cfg.Seed, r.BType.Cells, r.RGivenValues.Cells)
		}
	}
}
