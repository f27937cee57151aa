package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// WilsonInterval returns the Wilson score interval (Wilson 1927, J. Amer.
// Statist. Assoc. 22:209–212) for a binomial proportion with k successes in n
// trials at the given confidence level. With p̂ = k/n and z = z_{(1+level)/2},
//
//	centre = (p̂ + z²/(2n)) / (1 + z²/n)
//	half   = z·√(p̂(1 − p̂)/n + z²/(4n²)) / (1 + z²/n)
//	[lo, hi] = centre ∓ half,
//
// matching statsmodels.stats.proportion.proportion_confint(k, n,
// alpha=1−level, method='wilson').
//
// It panics if k < 0, k > n or level is outside (0, 1); n = 0 gives NaN, NaN.
func WilsonInterval(k, n int, level float64) (lo, hi float64) {
	checkLevel("WilsonInterval", level)
	if k < 0 || k > n {
		panic(fmt.Sprintf("stats: WilsonInterval: k = %d outside [0, n = %d]", k, n))
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	z := distuv.UnitNormal.Quantile((1 + level) / 2)
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	denom := 1 + z2/nf
	centre := (p + z2/(2*nf)) / denom
	half := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / denom
	return centre - half, centre + half
}
