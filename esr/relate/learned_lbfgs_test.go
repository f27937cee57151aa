package relate

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/optimize"
)

// minimizeLBFGS reuses the gradient computed with f at the same x: its
// optimum is bit for bit what gonum finds when f and ∇f are evaluated
// separately (the problem as it was before the reuse), with fewer
// evaluations of the objective.
func TestMinimizeLBFGSReusesGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	const n, d, k = 300, 4, 3
	xs := make([][]float64, n)
	y := make([]int, n)
	for i := range xs {
		xs[i] = []float64{1, rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		y[i] = rng.IntN(k)
		xs[i][y[i]+1] += 1.5 // separable enough to have a clear optimum
	}
	calls := 0
	fg := func(w, g []float64) float64 {
		calls++
		if g == nil {
			return objective(w, xs, y, k, 1e-3, nil)
		}
		return objective(w, xs, y, k, 1e-3, g)
	}
	got, err := minimizeLBFGS(fg, make([]float64, d*k), 1e-6, 500)
	if err != nil {
		t.Fatal(err)
	}
	reused := calls

	calls = 0
	p := optimize.Problem{
		Func: func(x []float64) float64 { return fg(x, nil) },
		Grad: func(g, x []float64) { fg(x, g) },
	}
	res, err := optimize.Minimize(p, make([]float64, d*k), &optimize.Settings{GradientThreshold: 1e-6, MajorIterations: 500}, &optimize.LBFGS{Store: 10})
	if err != nil && res == nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, res.X) {
		t.Fatalf("weights with the reused gradient %v\ndiffer from separate evaluations %v", got, res.X)
	}
	if reused >= calls {
		t.Fatalf("%d objective evaluations with reuse, %d without: no gradient was reused", reused, calls)
	}
	t.Logf("objective evaluations: %d with reuse, %d without", reused, calls)
}
