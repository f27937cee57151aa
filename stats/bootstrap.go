package stats

import (
	"math/bits"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultResamples is the paper's number of bootstrap resamples and
// permutations, B = 10,000.
const DefaultResamples = 10000

// BootstrapCI is a percentile bootstrap confidence interval for the mean paired
// difference. N counts the pairs (rows); Clusters is set only by
// PairedClusterBootstrap.
type BootstrapCI struct {
	N        int     // number of pairs
	Estimate float64 // mean(a_i − b_i) on the observed pairs
	Lo, Hi   float64 // percentile interval bounds
	B        int     // number of resamples
	Seed     uint64  // seed of the PCG generator
	Level    float64 // confidence level, e.g. 0.95
	Clusters int     // number of clusters resampled (PairedClusterBootstrap); 0 when pairs are resampled
}

// PairedBootstrap returns the percentile bootstrap confidence interval of the
// mean paired difference
//
//	θ = (1/n) Σ_i (a_i − b_i)
//
// resampling the n pairs (a_i, b_i) with replacement B times. With α = 1 − level,
// the interval is the α/2 and 1 − α/2 quantiles of the B resampled means, by
// numpy's linear interpolation, as scipy.stats.bootstrap(method='percentile')
// computes them (Efron & Tibshirani 1993, An Introduction to the Bootstrap,
// §13.3). Each resample draws n uniform indices from rand.NewPCG(seed, 0) by
// Lemire's unbiased multiply-shift.
//
// PairedBootstrap panics if len(a) != len(b), B < 1 or level is outside (0, 1).
// It returns an error wrapping ErrEmpty for no pairs and ErrNonFinite for a NaN
// or infinite value. For 0/1 outcomes PairedBootstrapBinary gives the same
// interval in distribution at a fraction of the cost.
func PairedBootstrap(a, b []float64, B int, level float64, seed uint64) (BootstrapCI, error) {
	const fn = "PairedBootstrap"
	checkPaired(fn, len(a), len(b))
	checkResamples(fn, B)
	checkLevel(fn, level)
	ci := BootstrapCI{N: len(a), B: B, Seed: seed, Level: level}
	d, err := pairedDiffs(fn, a, b)
	if err != nil {
		return ci, err
	}
	n := len(d)
	var sum float64
	for _, v := range d {
		sum += v
	}
	ci.Estimate = sum / float64(n)

	src := rand.NewPCG(seed, 0)
	means := make([]float64, B)
	for r := range means {
		var s float64
		for range n {
			s += d[boundedIndex(src, uint64(n))]
		}
		means[r] = s / float64(n)
	}
	ci.Lo, ci.Hi = percentileInterval(means, level)
	return ci, nil
}

// PairedBootstrapBinary is PairedBootstrap for paired binary outcomes
// a_i, b_i ∈ {0, 1}, e.g. 1[system A correct] and 1[system B correct].
//
// The differences take values in {−1, 0, +1}, so a resample's mean depends only
// on how many +1 (n10: a=1, b=0) and −1 (n01: a=0, b=1) pairs it holds:
//
//	θ* = (N10* − N01*)/n,  (N10*, N01*, n − N10* − N01*) ~ Multinomial(n; n10/n, n01/n, 1 − (n10+n01)/n).
//
// Each resample therefore draws N10* ~ Binomial(n, n10/n) and then
// N01* ~ Binomial(n − N10*, n01/(n − n10)) (gonum's distuv.Binomial with the
// PCG source) instead of n indices: the resampled means have exactly the
// distribution of PairedBootstrap's, though not the same random stream, so the
// two functions give different (equally valid) intervals for the same seed.
// The interval is taken as in PairedBootstrap.
//
// It panics on the same misuse as PairedBootstrap and returns an error wrapping
// ErrEmpty for no pairs and ErrNotBinary for a value other than 0 or 1.
func PairedBootstrapBinary(a, b []float64, B int, level float64, seed uint64) (BootstrapCI, error) {
	const fn = "PairedBootstrapBinary"
	checkPaired(fn, len(a), len(b))
	checkResamples(fn, B)
	checkLevel(fn, level)
	ci := BootstrapCI{N: len(a), B: B, Seed: seed, Level: level}
	n10, n01, err := discordant(fn, a, b)
	if err != nil {
		return ci, err
	}
	n := len(a)
	fn64 := float64(n)
	ci.Estimate = float64(n10-n01) / fn64

	src := rand.NewPCG(seed, 0)
	p10 := float64(n10) / fn64
	var p01 float64 // P(−1 | not +1)
	if n-n10 > 0 {
		p01 = float64(n01) / float64(n-n10)
	}
	means := make([]float64, B)
	for r := range means {
		x10 := binomialDraw(n, p10, src)
		x01 := binomialDraw(n-x10, p01, src)
		means[r] = float64(x10-x01) / fn64
	}
	ci.Lo, ci.Hi = percentileInterval(means, level)
	return ci, nil
}

// boundedIndex returns a uniform integer in [0, n) from src by Lemire's
// multiply-shift with rejection (Lemire 2019, ACM TOMACS 29(1):3), unbiased.
// Calling the concrete *rand.PCG directly (rather than rand.Rand.IntN through
// the rand.Source interface) lets the compiler inline the generator; the
// general bootstrap spends nearly all its time here.
func boundedIndex(src *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}

// binomialDraw draws from Binomial(n, p), short-cutting the degenerate cases
// (gonum's sampler requires n > 0 and wastes draws when p is 0 or 1).
func binomialDraw(n int, p float64, src rand.Source) int {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	}
	return int(distuv.Binomial{N: float64(n), P: p, Src: src}.Rand())
}

// percentileInterval sorts stats in place and returns its (1−level)/2 and
// (1+level)/2 quantiles.
func percentileInterval(stats []float64, level float64) (lo, hi float64) {
	slices.Sort(stats)
	alpha := (1 - level) / 2
	return percentileLinear(stats, alpha), percentileLinear(stats, 1-alpha)
}
