package stats

import (
	"fmt"
	"math"
	"slices"
)

// Holm applies the Holm–Bonferroni step-down procedure (Holm 1979, Scand. J.
// Statist. 6:65–70) to the m p-values p at family-wise error rate alpha.
//
// With the p-values sorted ascending, p_(1) ≤ … ≤ p_(m), hypothesis (i) is
// rejected iff p_(j) ≤ alpha/(m − j + 1) for every j ≤ i, and the adjusted
// p-values are
//
//	p̃_(i) = min(1, max_{j ≤ i} (m − j + 1)·p_(j)),
//
// so that reject[i] == (adjusted[i] ≤ alpha) up to rounding. reject and adjusted
// are in the order of p. This matches
// statsmodels.stats.multitest.multipletests(p, alpha, method='holm').
//
// Holm panics if alpha is outside (0, 1). It returns an error wrapping
// ErrNonFinite if a p-value is NaN, and an error if one is outside [0, 1]. An
// empty p gives empty results.
func Holm(p []float64, alpha float64) (reject []bool, adjusted []float64, err error) {
	if !(alpha > 0 && alpha < 1) {
		panic(fmt.Sprintf("stats: Holm: alpha %v outside (0, 1)", alpha))
	}
	for i, v := range p {
		if math.IsNaN(v) {
			return nil, nil, fmt.Errorf("%w: Holm: p[%d] is NaN", ErrNonFinite, i)
		}
		if !(v >= 0 && v <= 1) {
			return nil, nil, fmt.Errorf("stats: Holm: p[%d] = %v outside [0, 1]", i, v)
		}
	}
	m := len(p)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case p[i] < p[j]:
			return -1
		case p[i] > p[j]:
			return 1
		}
		return 0
	})
	reject = make([]bool, m)
	adjusted = make([]float64, m)
	stillRejecting := true
	running := 0.0
	for rank, idx := range order {
		k := float64(m - rank)
		if stillRejecting && p[idx] <= alpha/k {
			reject[idx] = true
		} else {
			stillRejecting = false
		}
		running = math.Max(running, k*p[idx])
		adjusted[idx] = math.Min(1, running)
	}
	return reject, adjusted, nil
}
