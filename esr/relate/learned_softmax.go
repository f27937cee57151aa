package relate

import (
	"errors"
	"fmt"
	"math"
)

// softmax is multinomial logistic regression (Bishop 2006 §4.3.4) on
// standardised inputs: with x̃_j = (x_j − μ_j)/σ_j and x̃_D = 1 (bias),
//
//	p(k | x) = exp(w_k·x̃) / Σ_c exp(w_c·x̃).
type softmax struct {
	k, d        int
	mean, scale []float64 // per feature, from the training rows
	w           []float64 // k rows of d+1 weights (bias last), row-major
}

// objective is the penalised mean negative log-likelihood of the
// standardised design xs (n rows of d+1, bias column last) with labels y:
//
//	L(W) = −(1/n) Σ_i ln p(y_i | x_i) + (λ/2) ‖W‖²
//	∂L/∂w_kj = (1/n) Σ_i (p_ik − [y_i = k]) x̃_ij + λ w_kj
//
// (Bishop 2006 eq. 4.108–4.109 plus the L2 term). The bias is penalised too,
// which keeps L strictly convex (the softmax is otherwise invariant to adding
// one constant to every bias) and keeps the bias of a class absent from the
// training rows finite. grad may be nil.
func objective(w []float64, xs [][]float64, y []int, k int, lambda float64, grad []float64) float64 {
	d1 := len(w) / k
	if grad != nil {
		clear(grad)
	}
	z := make([]float64, k)
	loss := 0.0
	for i, x := range xs {
		zmax := math.Inf(-1)
		for c := range k {
			s := 0.0
			for j, v := range w[c*d1 : (c+1)*d1] {
				s += v * x[j]
			}
			z[c] = s
			zmax = max(zmax, s)
		}
		sum := 0.0
		for c := range k {
			z[c] = math.Exp(z[c] - zmax)
			sum += z[c]
		}
		loss -= math.Log(z[y[i]] / sum)
		if grad == nil {
			continue
		}
		for c := range k {
			r := z[c] / sum
			if c == y[i] {
				r--
			}
			g := grad[c*d1 : (c+1)*d1]
			for j, v := range x {
				g[j] += r * v
			}
		}
	}
	n := float64(len(xs))
	loss /= n
	reg := 0.0
	for j, v := range w {
		reg += v * v
		if grad != nil {
			grad[j] = grad[j]/n + lambda*v
		}
	}
	return loss + lambda/2*reg
}

// fitSoftmax standardises x (n rows of d features), then minimises objective
// by gonum's L-BFGS (optimize.LBFGS) from W = 0. The fit is deterministic: the same rows give the
// same weights bit for bit.
func fitSoftmax(x [][]float64, y []int, k int, lambda float64) (*softmax, error) {
	if len(x) == 0 {
		return nil, errors.New("learn: no training pairs")
	}
	if lambda <= 0 {
		return nil, fmt.Errorf("learn: lambda must be positive, got %g", lambda)
	}
	d := len(x[0])
	m := &softmax{k: k, d: d, mean: make([]float64, d), scale: make([]float64, d)}
	n := float64(len(x))
	for _, row := range x {
		for j, v := range row {
			m.mean[j] += v / n
		}
	}
	for _, row := range x {
		for j, v := range row {
			m.scale[j] += (v - m.mean[j]) * (v - m.mean[j]) / n
		}
	}
	for j, v := range m.scale {
		if m.scale[j] = math.Sqrt(v); m.scale[j] < 1e-12 {
			m.scale[j] = 1 // a constant feature: centred to 0, left unscaled
		}
	}
	xs := make([][]float64, len(x))
	for i, row := range x {
		xs[i] = m.standardise(row, make([]float64, d+1))
	}
	for _, c := range y {
		if c < 0 || c >= k {
			return nil, fmt.Errorf("learn: label %d outside 0..%d", c, k-1)
		}
	}
	fg := func(w, g []float64) float64 { return objective(w, xs, y, k, lambda, g) }
	w, err := minimizeMemo(func() [32]byte { return fitKey(xs, y, k, lambda) }, fg, k*(d+1))
	if err != nil {
		return nil, fmt.Errorf("learn: fit: %w", err)
	}
	m.w = w
	return m, nil
}

// standardise writes (x − μ)/σ and the bias 1 into out (length d+1).
func (m *softmax) standardise(x, out []float64) []float64 {
	for j, v := range x {
		out[j] = (v - m.mean[j]) / m.scale[j]
	}
	out[m.d] = 1
	return out
}

// probs returns p(· | x) for raw features x.
func (m *softmax) probs(x []float64) []float64 {
	xs := m.standardise(x, make([]float64, m.d+1))
	p := make([]float64, m.k)
	zmax := math.Inf(-1)
	for c := range m.k {
		s := 0.0
		for j, v := range m.w[c*(m.d+1) : (c+1)*(m.d+1)] {
			s += v * xs[j]
		}
		p[c] = s
		zmax = max(zmax, s)
	}
	sum := 0.0
	for c := range p {
		p[c] = math.Exp(p[c] - zmax)
		sum += p[c]
	}
	for c := range p {
		p[c] /= sum
	}
	return p
}

// predict is the most probable class (the lowest index on ties).
func (m *softmax) predict(x []float64) int {
	p := m.probs(x)
	best := 0
	for c := range p {
		if p[c] > p[best] {
			best = c
		}
	}
	return best
}
