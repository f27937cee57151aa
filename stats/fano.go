package stats

import (
	"fmt"
	"math"
)

// binaryEntropy is h(p) = −p log2 p − (1−p) log2(1−p) in bits, h(0) = h(1) = 0.
func binaryEntropy(p float64) float64 {
	if p <= 0 || p >= 1 {
		return 0
	}
	return -p*math.Log2(p) - (1-p)*math.Log2(1-p)
}

// FanoBound returns Fano's lower bound on the error probability of any
// estimator of a K-ary variable Y from an observation carrying I bits about it
// (Fano 1961; Cover & Thomas 2006, Thm. 2.10.1): the smallest Pe in
// [0, 1 − 1/K] with
//
//	h(Pe) + Pe·log2(K − 1) ≥ H − I,
//
// where H = H(Y) and H − I = H(Y|Ŷ) by the data-processing inequality; h is
// the binary entropy in bits. The left side increases on [0, 1 − 1/K] from 0 to
// log2 K, so Pe is found by bisection (to 1e−13); it is 0 when H − I ≤ 0. The
// paper's H = 1.89, I = 0.216, K = 5 gives Pe ≈ 0.3645 (reported as 0.365).
// FanoBound is FanoListBound with L = 1.
//
// It panics if K < 2. It returns an error wrapping ErrNonFinite if H or I is
// not finite, and an error if H − I > log2 K (no distribution on K values has
// that much conditional entropy).
func FanoBound(H, I float64, K int) (float64, error) {
	if K < 2 {
		panic(fmt.Sprintf("stats: FanoBound: K = %d < 2", K))
	}
	return fanoList("FanoBound", H, I, K, 1)
}

// FanoListBound is the list-decoding form of Fano's inequality: for an
// estimator that outputs a list of L of the K values and errs when Y is not in
// the list, the smallest Pe in [0, 1 − L/K] with
//
//	h(Pe) + Pe·log2(K − L) + (1 − Pe)·log2 L ≥ H − I
//
// (the generalised Fano inequality for list decoding; Ahlswede, Gács & Körner
// 1976, Z. Wahrscheinlichkeitstheorie verw. Geb. 34:157–177; Sason & Verdú
// 2018, IEEE Trans. Inf. Theory 64(1):4–25, the α = 1 case of their list-decision
// bound). The left side increases on [0, 1 − L/K] from log2 L to log2 K; Pe is
// found by bisection and is 0 when H − I ≤ log2 L. L = 1 is FanoBound.
//
// It panics if K < 2 or L is outside [1, K−1], and returns the errors of
// FanoBound.
func FanoListBound(H, I float64, K, L int) (float64, error) {
	if K < 2 {
		panic(fmt.Sprintf("stats: FanoListBound: K = %d < 2", K))
	}
	if L < 1 || L >= K {
		panic(fmt.Sprintf("stats: FanoListBound: list size L = %d outside [1, K−1 = %d]", L, K-1))
	}
	return fanoList("FanoListBound", H, I, K, L)
}

func fanoList(fn string, H, I float64, K, L int) (float64, error) {
	if math.IsNaN(H) || math.IsInf(H, 0) || math.IsNaN(I) || math.IsInf(I, 0) {
		return math.NaN(), fmt.Errorf("%w: %s: H = %v, I = %v", ErrNonFinite, fn, H, I)
	}
	target := H - I
	k, l := float64(K), float64(L)
	f := func(pe float64) float64 {
		return binaryEntropy(pe) + pe*math.Log2(k-l) + (1-pe)*math.Log2(l)
	}
	hi := 1 - l/k
	if target <= math.Log2(l) {
		return 0, nil
	}
	if target > math.Log2(k) {
		if target-math.Log2(k) > 1e-12 {
			return math.NaN(), fmt.Errorf("stats: %s: H − I = %v exceeds log2 K = %v", fn, target, math.Log2(k))
		}
		return hi, nil
	}
	lo := 0.0
	for hi-lo > 1e-13 {
		mid := (lo + hi) / 2
		if f(mid) >= target {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}

// FanoWeakBound returns the weakened Fano bound obtained from h(Pe) ≤ 1 and
// log2(K − 1) ≤ log2 K (Cover & Thomas 2006, eq. 2.132):
//
//	Pe ≥ (H − I − 1) / log2 K,
//
// clipped at 0 (a negative bound is vacuous). The paper's H = 1.89, I = 0.216,
// K = 5 gives 0.290. It panics if K < 2 and returns NaN if H or I is NaN.
func FanoWeakBound(H, I float64, K int) float64 {
	if K < 2 {
		panic(fmt.Sprintf("stats: FanoWeakBound: K = %d < 2", K))
	}
	if math.IsNaN(H) || math.IsNaN(I) {
		return math.NaN()
	}
	return math.Max(0, (H-I-1)/math.Log2(float64(K)))
}
