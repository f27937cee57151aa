package theory

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Acc(F) − Acc(C) = β − κ for any four accuracies; with the paper's
// snapshot numbers (β = 0 by P2b, gap −0.084) κ is +0.084.
func TestCorollary1(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1000; i++ {
		d := Corollary1(rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64())
		if math.Abs(d.Gap-(d.Beta-d.Kappa)) > 1e-12 {
			t.Fatalf("%+v: gap ≠ β − κ", d)
		}
	}
	d := Corollary1(0.9, 0.9, 0.408, 0.492)
	if math.Abs(d.Beta) > 1e-12 || math.Abs(d.Kappa-0.084) > 1e-12 || math.Abs(d.Gap+0.084) > 1e-12 {
		t.Errorf("paper's reverted-revert slice: %+v", d)
	}
}

// On single-source histories both arms recover Π, so β = 0 at every noise
// level; relation noise costs the fine ledger (κ > 0), growing with p.
func TestCorollary1Noise(t *testing.T) {
	prev := -1.0
	for _, p := range []float64{0, 0.1, 0.3, 0.5} {
		d := corollary1Noise(1500, p, 3)
		t.Logf("%+v", d)
		if d.OracleF != 1 || d.OracleC != 1 || d.Beta != 0 {
			t.Errorf("p=%v: oracle accuracies %v, %v (β %v); want 1, 1, 0", p, d.OracleF, d.OracleC, d.Beta)
		}
		if math.Abs(d.Gap+d.Kappa) > 1e-12 {
			t.Errorf("p=%v: gap %v ≠ −κ (%v)", p, d.Gap, d.Kappa)
		}
		if p == 0 && d.Kappa != 0 || p > 0 && d.Kappa <= prev {
			t.Errorf("p=%v: κ = %v after %v", p, d.Kappa, prev)
		}
		prev = d.Kappa
	}
}
