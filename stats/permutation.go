package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// PermutationResult is the result of a two-sided paired permutation test of
// mean(a_i − b_i) = 0.
type PermutationResult struct {
	N        int     // number of pairs
	N10      int     // pairs with a_i > b_i (for 0/1 outcomes: a=1, b=0)
	N01      int     // pairs with a_i < b_i (for 0/1 outcomes: a=0, b=1)
	Estimate float64 // mean(a_i − b_i)
	P        float64 // two-sided p-value
	Exact    bool    // true for the exact binomial path, false for Monte Carlo
	B        int     // Monte Carlo sign-flip draws (0 when Exact)
	Seed     uint64  // seed of the Monte Carlo draws (0 when Exact)
}

// PairedPermutationExact is the exact two-sided paired permutation (sign-flip)
// test for paired binary outcomes a_i, b_i ∈ {0, 1}.
//
// Under the null each pair's difference d_i ∈ {−1, 0, +1} is equally likely to
// carry either sign, so only the m = n10 + n01 discordant pairs matter and the
// permutation distribution of Σd_i is that of 2X − m with X ~ Binomial(m, 1/2).
// The p-value P(|2X − m| ≥ |n10 − n01|) is the two-sided exact binomial (sign,
// or exact McNemar) test of n10 against n01 (McNemar 1947):
//
//	p = min(1, 2·P(X ≤ min(n10, n01)))   (p = 1 when n10 = n01),
//
// which is scipy.stats.binomtest(n10, m, 0.5, alternative='two-sided').pvalue;
// the binomial CDF is gonum's distuv.Binomial (regularised incomplete beta).
// With no discordant pairs (m = 0, where binomtest is undefined) p = 1.
//
// It panics if len(a) != len(b) and returns an error wrapping ErrEmpty for no
// pairs and ErrNotBinary for a value other than 0 or 1.
func PairedPermutationExact(a, b []float64) (PermutationResult, error) {
	const fn = "PairedPermutationExact"
	checkPaired(fn, len(a), len(b))
	res := PermutationResult{N: len(a), Exact: true}
	n10, n01, err := discordant(fn, a, b)
	if err != nil {
		return res, err
	}
	res.N10, res.N01 = n10, n01
	res.Estimate = float64(n10-n01) / float64(len(a))
	res.P = SignTestP(n10, n01)
	return res, nil
}

// SignTestP returns the two-sided exact binomial test p-value of k successes
// against n − k failures with success probability 1/2,
//
//	p = min(1, 2·Σ_{i ≤ min(k, n−k)} C(n, i)/2^n)   (p = 1 when k = n − k or n = 0),
//
// matching scipy.stats.binomtest(k, n, 0.5).pvalue for n ≥ 1. k and n − k are
// given as the two counts n10 and n01; it panics if either is negative.
func SignTestP(n10, n01 int) float64 {
	if n10 < 0 || n01 < 0 {
		panic("stats: SignTestP: negative count")
	}
	m := n10 + n01
	if n10 == n01 {
		return 1
	}
	k := min(n10, n01)
	p := 2 * distuv.Binomial{N: float64(m), P: 0.5}.CDF(float64(k))
	return math.Min(1, p)
}

// PairedPermutation is the Monte Carlo two-sided paired permutation test of
// mean(a_i − b_i) = 0 for real-valued pairs. Each of B draws flips the sign of
// every difference independently with probability 1/2, T* = (1/n)Σ s_i d_i, and
//
//	p = (1 + #{b : |T*_b| ≥ |T|}) / (B + 1),
//
// the add-one estimate that never reports p = 0 (Phipson & Smyth 2010,
// Stat. Appl. Genet. Mol. Biol. 9(1):39; the paper's floor 1/(B+1) ≈ 0.0001 at
// B = 10,000). The comparison allows a relative tolerance of 1e−12·Σ|d_i| so that
// rounding in the sums cannot drop ties (as scipy.stats.permutation_test does).
// Zero differences are unaffected by a flip and are skipped; signs come 64 at a
// time from the Uint64 stream of rand.NewPCG(seed, 0). N10 and N01 count pairs
// with a_i > b_i and a_i < b_i.
//
// It panics if len(a) != len(b) or B < 1 and returns an error wrapping ErrEmpty
// for no pairs and ErrNonFinite for a NaN or infinite value. For 0/1 outcomes
// prefer the exact PairedPermutationExact.
func PairedPermutation(a, b []float64, B int, seed uint64) (PermutationResult, error) {
	const fn = "PairedPermutation"
	checkPaired(fn, len(a), len(b))
	checkResamples(fn, B)
	res := PermutationResult{N: len(a), B: B, Seed: seed}
	d, err := pairedDiffs(fn, a, b)
	if err != nil {
		return res, err
	}
	nz := d[:0] // nonzero differences, reusing d
	var sum, sumAbs float64
	for _, v := range d {
		switch {
		case v > 0:
			res.N10++
		case v < 0:
			res.N01++
		default:
			continue
		}
		nz = append(nz, v)
		sum += v
		sumAbs += math.Abs(v)
	}
	res.Estimate = sum / float64(len(a))
	threshold := math.Abs(sum) - 1e-12*sumAbs
	rng := newRand(seed)
	count := 0
	for range B {
		// Σ s_i d_i = Σ d_i − 2·Σ_{flipped} d_i, summed without branches.
		var flipped float64
		for i := 0; i < len(nz); i += 64 {
			w := rng.Uint64()
			for _, v := range nz[i:min(i+64, len(nz))] {
				flipped += v * float64(w&1)
				w >>= 1
			}
		}
		if math.Abs(sum-2*flipped) >= threshold {
			count++
		}
	}
	res.P = float64(1+count) / float64(B+1)
	return res, nil
}
