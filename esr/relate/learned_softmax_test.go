package relate

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGradient checks objective's analytic gradient against central finite
// differences at a random point.
func TestGradient(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n, d, k = 40, 6, 5
	xs := make([][]float64, n)
	y := make([]int, n)
	for i := range xs {
		xs[i] = make([]float64, d+1)
		for j := range d {
			xs[i][j] = r.NormFloat64()
		}
		xs[i][d] = 1
		y[i] = r.IntN(k)
	}
	w := make([]float64, k*(d+1))
	for j := range w {
		w[j] = r.NormFloat64()
	}
	const lambda = 0.3
	g := make([]float64, len(w))
	objective(w, xs, y, k, lambda, g)
	const h = 1e-6
	for j := range w {
		wp := append([]float64(nil), w...)
		wm := append([]float64(nil), w...)
		wp[j] += h
		wm[j] -= h
		num := (objective(wp, xs, y, k, lambda, nil) - objective(wm, xs, y, k, lambda, nil)) / (2 * h)
		if math.Abs(num-g[j]) > 1e-6*math.Max(1, math.Abs(num)) {
			t.Errorf("∂L/∂w[%d]: analytic %.9f, numeric %.9f", j, g[j], num)
		}
	}
}

// TestFitSeparable fits three well-separated Gaussian blobs (class = blob)
// and must classify every training point, with confident probabilities.
func TestFitSeparable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	centres := [][2]float64{{0, 0}, {6, 0}, {0, 6}}
	var x [][]float64
	var y []int
	for c, ctr := range centres {
		for range 30 {
			x = append(x, []float64{ctr[0] + 0.5*r.NormFloat64(), ctr[1] + 0.5*r.NormFloat64(), 7})
			y = append(y, c)
		}
	}
	m, err := fitSoftmax(x, y, 3, 1e-4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if got := m.predict(x[i]); got != y[i] {
			t.Fatalf("point %d %v: predicted %d, want %d", i, x[i], got, y[i])
		}
		if p := m.probs(x[i]); p[y[i]] < 0.9 {
			t.Errorf("point %d: p(true class) = %.3f, want ≥ 0.9", i, p[y[i]])
		}
	}
	// Unseen points near each centre.
	for c, ctr := range centres {
		if got := m.predict([]float64{ctr[0] + 0.3, ctr[1] - 0.3, 7}); got != c {
			t.Errorf("centre %d: predicted %d", c, got)
		}
	}
}

// TestLBFGSQuadratic minimises an ill-conditioned convex quadratic.
func TestLBFGSQuadratic(t *testing.T) {
	a := []float64{1, 10, 100, 1000}
	want := []float64{1, -2, 3, -4}
	fg := func(x, g []float64) float64 {
		f := 0.0
		for i := range x {
			e := x[i] - want[i]
			f += a[i] * e * e / 2
			g[i] = a[i] * e
		}
		return f
	}
	x, err := minimizeLBFGS(fg, make([]float64, 4), 1e-10, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if math.Abs(x[i]-want[i]) > 1e-9 {
			t.Errorf("x[%d] = %g, want %g", i, x[i], want[i])
		}
	}
}
