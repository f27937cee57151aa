package sim

import (
	"context"
	"math"
	"runtime"
	"sort"
	"sync"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// This file is the least-squares machinery both calibration stages share:
// a MAP fit of bounded parameters (each value = Lo + (Hi − Lo)·σ(x), x
// pulled toward its prior centre with its own weight), minimised by
// Gauss–Newton, and the identification table that says which target (or
// prior) carries each parameter.

// lsqProblem is a weighted least-squares fit with a Gaussian prior per
// parameter:
//
//	minimise ½‖r(x)‖² + ½·Σ_j λ_j·(x_j − x0_j)²
//
// r are the weighted residuals (sqrt(weight)·(model − target)).
type lsqProblem struct {
	resid  func(x []float64) []float64
	x0     []float64 // the prior centres in the fitted space
	lambda []float64 // the prior weight of each parameter
	// columns, when set, computes column j of the Jacobian faster than a
	// full residual evaluation (the calibration's per-family columns).
	columns func(x []float64) *mat.Dense
}

// jacobian of r at x by central differences (step 1e-4), columns on
// GOMAXPROCS goroutines.
func (q *lsqProblem) jacobian(x []float64) *mat.Dense {
	if q.columns != nil {
		return q.columns(x)
	}
	const h = 1e-4
	n := len(q.resid(x))
	J := mat.NewDense(n, len(x), nil)
	col := func(j int) {
		at := func(v float64) []float64 {
			xp := append([]float64(nil), x...)
			xp[j] = v
			return q.resid(xp)
		}
		rp, rm := at(x[j]+h), at(x[j]-h)
		for i := 0; i < n; i++ {
			J.Set(i, j, (rp[i]-rm[i])/(2*h))
		}
	}
	parallel(len(x), col)
	return J
}

// parallel runs f(0..n-1) on GOMAXPROCS goroutines.
func parallel(n int, f func(int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				f(j)
			}
		}()
	}
	for j := 0; j < n; j++ {
		next <- j
	}
	close(next)
	wg.Wait()
}

// objective is ½‖r(x)‖² + ½·Σ λ_j (x_j − x0_j)².
func (q *lsqProblem) objective(x []float64) float64 {
	s := 0.0
	for _, r := range q.resid(x) {
		s += r * r
	}
	for i := range x {
		d := x[i] - q.x0[i]
		s += q.lambda[i] * d * d
	}
	return s / 2
}

// minimize runs Gauss–Newton from start (gonum's Newton method with the
// Hessian JᵀJ + diag(λ) and the gradient Jᵀr + λ∘(x − x0)).
func (q *lsqProblem) minimize(ctx context.Context, start []float64, iters int) ([]float64, float64, error) {
	var lastX []float64
	var lastJ *mat.Dense
	jac := func(x []float64) *mat.Dense {
		if lastX != nil && floatsEqual(lastX, x) {
			return lastJ
		}
		lastX, lastJ = append([]float64(nil), x...), q.jacobian(x)
		return lastJ
	}
	var ctxErr error
	p := optimize.Problem{
		Func: q.objective,
		Grad: func(grad, x []float64) {
			if err := ctx.Err(); err != nil {
				ctxErr = err
			}
			J := jac(x)
			r := mat.NewVecDense(J.RawMatrix().Rows, q.resid(x))
			var g mat.VecDense
			g.MulVec(J.T(), r)
			for i := range grad {
				grad[i] = g.AtVec(i) + q.lambda[i]*(x[i]-q.x0[i])
			}
		},
		Hess: func(hess *mat.SymDense, x []float64) {
			J := jac(x)
			var h mat.Dense
			h.Mul(J.T(), J)
			n := len(x)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					v := h.At(i, j)
					if i == j {
						v += q.lambda[i]
					}
					hess.SetSym(i, j, v)
				}
			}
		},
		Status: func() (optimize.Status, error) { return optimize.NotTerminated, ctxErr },
	}
	res, err := optimize.Minimize(p, start, &optimize.Settings{MajorIterations: iters, GradientThreshold: 1e-7,
		Converger: &optimize.FunctionConverge{Absolute: 1e-10, Relative: 1e-9, Iterations: 4}}, &optimize.Newton{})
	if ctxErr != nil {
		return nil, 0, ctxErr
	}
	if res == nil {
		return nil, 0, err
	}
	return res.X, res.F, nil
}

func floatsEqual(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ParamShare is how one fitted parameter is identified: each target's
// share of the squared norm of the parameter's column of the weighted
// Jacobian, with the prior's row (√λ) counted as one more row.
type ParamShare struct {
	Param string `json:"param"`
	// Top are the rows with the largest share, largest first (at most
	// three; "prior" for the prior's row), and Share each one's share.
	Top   []string  `json:"top"`
	Share []float64 `json:"share"`
	// MaxTarget is the largest share any one target carries (the prior
	// excluded), and Prior the prior's share.
	MaxTarget float64 `json:"max_target"`
	Prior     float64 `json:"prior"`
	// Lambda is the prior weight the fit used.
	Lambda float64 `json:"lambda"`
}

// PriorRow names the prior's row in a ParamShare.
const PriorRow = "prior"

// maxTargetShare is the most any single target may carry of a
// parameter's identification (the rule: add targets or priors
// until none carries more than half).
const maxTargetShare = 0.5

// identification computes every parameter's shares from J (rows named
// rows, columns named params) and the prior weights lambda.
func identification(J *mat.Dense, rows, params []string, lambda []float64) []ParamShare {
	nr, nc := J.Dims()
	out := make([]ParamShare, nc)
	for j := 0; j < nc; j++ {
		type d struct {
			name string
			v    float64
		}
		var ds []d
		norm := lambda[j]
		for i := 0; i < nr; i++ {
			v := J.At(i, j) * J.At(i, j)
			norm += v
			ds = append(ds, d{rows[i], v})
		}
		ds = append(ds, d{PriorRow, lambda[j]})
		sort.SliceStable(ds, func(a, b int) bool { return ds[a].v > ds[b].v })
		ps := ParamShare{Param: params[j], Lambda: lambda[j]}
		for k := 0; k < len(ds) && norm > 0; k++ {
			sh := ds[k].v / norm
			if k < 3 {
				ps.Top = append(ps.Top, ds[k].name)
				ps.Share = append(ps.Share, round6(sh))
			}
			if ds[k].name == PriorRow {
				ps.Prior = round6(sh)
			} else if sh > ps.MaxTarget {
				ps.MaxTarget = round6(sh)
			}
		}
		out[j] = ps
	}
	return out
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// balancePriors raises each parameter's prior weight until no single
// target carries more than half of its identification at J: λ_j ≥ A − B,
// with A the largest target's squared entry and B the other targets'. It
// reports whether any weight moved.
func balancePriors(J *mat.Dense, lambda []float64) bool {
	nr, nc := J.Dims()
	moved := false
	for j := 0; j < nc; j++ {
		a, sum := 0.0, 0.0
		for i := 0; i < nr; i++ {
			v := J.At(i, j) * J.At(i, j)
			sum += v
			a = math.Max(a, v)
		}
		// A/(A + B + λ) ≤ ½ ⇔ λ ≥ A − B; a margin keeps it strictly
		// inside once the refit moves J a little.
		if need := (a - (sum - a)) * 1.1; need > lambda[j]*(1+1e-9) {
			lambda[j] = need
			moved = true
		}
	}
	return moved
}
