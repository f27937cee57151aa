package relate

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// minimizeLBFGS minimises a smooth function with gonum's limited-memory BFGS
// (Nocedal & Wright 2006, Alg. 7.4). fg returns f(x) and writes ∇f(x) into
// g. It stops when ‖∇f‖∞ ≤ gtol or after maxIter major iterations; a run
// that ends for another reason (a line search stalling at the optimum in
// floating-point flatness) is accepted when the gradient there is small.
// Everything is sequential, so the result is deterministic.
func minimizeLBFGS(fg func(x, g []float64) float64, x0 []float64, gtol float64, maxIter int) ([]float64, error) {
	// gonum asks for f and then ∇f at the same x at most trial points: each
	// evaluation keeps the gradient it computes beside its x, and a gradient
	// asked for at that x (bit for bit) is copied instead of computed again.
	// fg's f does not depend on whether it writes g, so the numbers are the
	// same as evaluating twice.
	var lastX, lastG []float64
	p := optimize.Problem{
		Func: func(x []float64) float64 {
			lastX, lastG = append(lastX[:0], x...), make([]float64, len(x))
			return fg(x, lastG)
		},
		Grad: func(g, x []float64) {
			if lastG != nil && slices.Equal(x, lastX) {
				copy(g, lastG)
				return
			}
			fg(x, g)
		},
	}
	settings := &optimize.Settings{GradientThreshold: gtol, MajorIterations: maxIter, Concurrent: 0}
	res, err := optimize.Minimize(p, x0, settings, &optimize.LBFGS{Store: 10})
	if res == nil {
		return nil, err
	}
	if err != nil {
		g := make([]float64, len(x0))
		fg(res.X, g)
		if gmax := normInf(g); !(gmax <= 1e-5) {
			return nil, fmt.Errorf("%w (‖∇L‖∞ = %g)", err, gmax)
		}
	}
	return res.X, nil
}

func normInf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}
