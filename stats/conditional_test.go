package stats

import (
	"math"
	"testing"
)

// ConditionalMI on X = Y xor Z with Y, Z fair bits: I(X; Y) = 0, but
// I(X; Y | Z) = 1 bit; conditioning on X itself leaves 0.
func TestConditionalMutualInformation(t *testing.T) {
	var x, y, z []int
	for rep := 0; rep < 25; rep++ {
		for _, yz := range [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
			x, y, z = append(x, yz[0]^yz[1]), append(y, yz[0]), append(z, yz[1])
		}
	}
	c, err := ConditionalMutualInformation(x, y, z)
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
	c, _ = ConditionalMutualInformation(x, y, make([]int, len(x)))
	if math.Abs(c.PlugIn) > 1e-12 {
		t.Errorf("I(X; Y) = %v, want 0", c.PlugIn)
	}
	c, _ = ConditionalMutualInformation(x, y, x)
	if c.PlugIn != 0 || c.MillerMadow != 0 {
		t.Errorf("I(X; Y | X) = %v, %v; want exactly 0", c.PlugIn, c.MillerMadow)
	}
	if h := ConditionalEntropy(x, z); math.Abs(h-1) > 1e-12 {
		t.Errorf("H(X | Z) = %v, want 1", h)
	}
	if _, err := ConditionalMutualInformation([]int{}, []int{}, []int{}); err == nil {
		t.Error("no samples accepted")
	}
}
