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
		t.Log("\n" + r.Table().Markdown())
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

// ConditionalMI on X = Y xor Z with Y, Z fair bits: I(X; Y) = 0, but
// I(X; Y | Z) = 1 bit; conditioning on X itself leaves 0.
func TestConditionalMI(t *testing.T) {
	var x, y, z []int
	for rep := 0; rep < 25; rep++ {
		for _, yz := range [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
			x, y, z = append(x, yz[0]^yz[1]), append(y, yz[0]), append(z, yz[1])
		}
	}
	c, err := ConditionalMI(x, y, z)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.PlugIn-1) > 1e-12 || c.Cells != 2 {
		t.Errorf("I(X; Y | Z) = %v over %d cells, want 1 over 2", c.PlugIn, c.Cells)
	}
	// Each cell holds 50 samples on 2 X, 2 Y and 2 joint cells: Miller–Madow
	// adds (1 + 1 − 1)/(2·50·ln 2).
	if want := 1 + 1/(100*math.Ln2); math.Abs(c.MillerMadow-want) > 1e-12 {
		t.Errorf("Miller–Madow %v, want %v", c.MillerMadow, want)
	}
	c, _ = ConditionalMI(x, y, make([]int, len(x)))
	if math.Abs(c.PlugIn) > 1e-12 {
		t.Errorf("I(X; Y) = %v, want 0", c.PlugIn)
	}
	c, _ = ConditionalMI(x, y, x)
	if c.PlugIn != 0 || c.MillerMadow != 0 {
		t.Errorf("I(X; Y | X) = %v, %v; want exactly 0", c.PlugIn, c.MillerMadow)
	}
	if h := ConditionalEntropy(x, z); math.Abs(h-1) > 1e-12 {
		t.Errorf("H(X | Z) = %v, want 1", h)
	}
	if _, err := ConditionalMI([]int{}, []int{}, []int{}); err == nil {
		t.Error("no samples accepted")
	}
}
