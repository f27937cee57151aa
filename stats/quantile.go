package stats

import "math"

// percentileLinear returns the q-quantile (0 ≤ q ≤ 1) of sorted by linear
// interpolation between order statistics at virtual index h = q·(n−1): the
// default ("linear", Hyndman–Fan type 7) method of numpy.percentile, which
// scipy.stats.bootstrap(method='percentile') uses. gonum's stat.Quantile offers
// only the Empirical and LinInterp (type 4) estimators and montanaflynn/stats'
// Percentile is nearest-rank, so neither reproduces scipy; this follows numpy's
// lerp exactly, including its t ≥ 0.5 branch.
func percentileLinear(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := q * float64(n-1)
	lo := math.Floor(h)
	i := int(lo)
	if i >= n-1 {
		return sorted[n-1]
	}
	if i < 0 {
		return sorted[0]
	}
	a, b, t := sorted[i], sorted[i+1], h-lo
	diff := b - a
	if t >= 0.5 {
		return b - diff*(1-t)
	}
	return a + diff*t
}
