package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// clusteredBinary returns G clusters of m paired 0/1 rows. Each cluster (a
// question) is, with probability ½ each, one that favours A (cells p11, p10,
// p01 = .30, .40, .05) or one that favours B (.30, .05, .30), so the rows of a
// cluster share their expected difference: the differences are positively
// correlated within clusters.
func clusteredBinary(G, m int, seed uint64) (a, b []float64, cluster []string) {
	rng := rand.New(rand.NewPCG(seed, 2))
	for g := range G {
		p10, p01 := 0.40, 0.05
		if rng.IntN(2) == 1 {
			p10, p01 = 0.05, 0.30
		}
		x, y := correlatedBinary(m, 0.30, p10, p01, rng.Uint64())
		a, b = append(a, x...), append(b, y...)
		for range m {
			cluster = append(cluster, fmt.Sprintf("q%d", g))
		}
	}
	return a, b, cluster
}

// TestClusterBootstrapOneRowPerCluster: with one row per cluster the cluster
// bootstrap is the pair bootstrap. Clusters are numbered by first appearance,
// so the same seed draws the same indices and gives the same interval; with
// different seeds the two intervals agree within Monte Carlo error. That error
// is derived as in TestReferenceBootstrap: each bound has standard error
// s·√(p(1−p))/φ(z_p)·√(2/B) for two independent runs of B resamples, with
// s = sd(d)/√n the bootstrap standard error of a mean (divisor n); allow 5 of
// them, widened by 25%.
func TestClusterBootstrapOneRowPerCluster(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	const n, B = 300, 20000
	x, y := make([]float64, n), make([]float64, n)
	cluster := make([]string, n)
	for i := range x {
		x[i] = rng.ExpFloat64()
		y[i] = rng.NormFloat64() + 0.5*x[i]
		cluster[i] = fmt.Sprintf("row%d", n-i) // labels need not sort in row order
	}
	pair, err1 := PairedBootstrap(x, y, B, 0.95, 5)
	same, err2 := PairedClusterBootstrap(x, y, cluster, B, 0.95, 5)
	other, err3 := PairedClusterBootstrap(x, y, cluster, B, 0.95, 6)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	if same.Clusters != n || other.Clusters != n {
		t.Errorf("Clusters = %d, %d, want %d", same.Clusters, other.Clusters, n)
	}
	same.Clusters = 0
	if same != pair {
		t.Errorf("same seed: cluster %+v, pair %+v", same, pair)
	}

	var mean, ss float64
	for i := range x {
		mean += x[i] - y[i]
	}
	mean /= n
	for i := range x {
		ss += (x[i] - y[i] - mean) * (x[i] - y[i] - mean)
	}
	s := math.Sqrt(ss/n) / math.Sqrt(n)
	const p = 0.025
	tol := 1.25 * 5 * s * math.Sqrt(p*(1-p)) / distuv.UnitNormal.Prob(distuv.UnitNormal.Quantile(p)) * math.Sqrt(2.0/B)
	if other.Estimate != pair.Estimate || math.Abs(other.Lo-pair.Lo) > tol || math.Abs(other.Hi-pair.Hi) > tol {
		t.Errorf("seeds 5 and 6: cluster [%v, %v], pair [%v, %v], tol %v", other.Lo, other.Hi, pair.Lo, pair.Hi, tol)
	}
}

// TestClusterBootstrapWiderUnderCorrelation: on positively correlated clustered
// rows the cluster interval is wider than the pair interval, by the square root
// of the design effect. For equal cluster sizes the bootstrap variances are
// exactly v_cluster = Σ_g (S_g − n_g·θ̂)²/n² and v_pair = Σ_i (d_i − θ̂)²/n², so
// the width ratio should be √(v_cluster/v_pair) up to the non-normality of
// the resampled means and Monte Carlo error (about 1% at B = 10,000); allow 10%.
func TestClusterBootstrapWiderUnderCorrelation(t *testing.T) {
	a, b, cluster := clusteredBinary(200, 5, 17)
	pair, err1 := PairedBootstrapBinary(a, b, 10000, 0.95, 1)
	cl, err2 := PairedClusterBootstrap(a, b, cluster, 10000, 0.95, 1)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	if cl.Estimate != pair.Estimate || cl.Clusters != 200 || cl.N != 1000 {
		t.Fatalf("cluster %+v vs pair %+v", cl, pair)
	}
	theta := cl.Estimate
	var vPair, vCluster float64
	S := map[string]float64{}
	for i := range a {
		d := a[i] - b[i]
		vPair += (d - theta) * (d - theta)
		S[cluster[i]] += d - theta
	}
	for _, s := range S {
		vCluster += s * s
	}
	want := math.Sqrt(vCluster / vPair)
	got := (cl.Hi - cl.Lo) / (pair.Hi - pair.Lo)
	t.Logf("width ratio %.3f, √(design effect) %.3f", got, want)
	if want < 1.3 {
		t.Fatalf("test data not clustered enough: √deff = %v", want)
	}
	if got <= 1 || math.Abs(got/want-1) > 0.10 {
		t.Errorf("cluster/pair width ratio %v, want %v ± 10%%", got, want)
	}
}

// TestClusterBootstrapUnequalSizes checks the ratio mean on a tiny case whose
// bootstrap distribution is known exactly: clusters {d = 1, 1} and {d = 0}.
// Drawing G = 2 clusters gives the ratio means 1 (both draws the first, prob.
// ¼), 2/3 (one of each, ½) and 0 (¼); the estimate is the row mean 2/3, not the
// mean of cluster means ½.
func TestClusterBootstrapUnequalSizes(t *testing.T) {
	a := []float64{1, 1, 0}
	b := []float64{0, 0, 0}
	ci, err := PairedClusterBootstrap(a, b, []string{"x", "x", "y"}, 4000, 0.4, 3)
	if err != nil {
		t.Fatal(err)
	}
	// The 30% and 70% quantiles fall inside the atom at 2/3 (mass from ¼ to ¾).
	if ci.Estimate != 2.0/3 || ci.Lo != 2.0/3 || ci.Hi != 2.0/3 || ci.Clusters != 2 || ci.N != 3 {
		t.Errorf("%+v", ci)
	}
	ci, err = PairedClusterBootstrap(a, b, []string{"x", "x", "y"}, 4000, 0.99, 3)
	if err != nil || ci.Lo != 0 || ci.Hi != 1 {
		t.Errorf("99%%: %+v %v", ci, err)
	}
}

func TestClusterBootstrapGolden(t *testing.T) {
	a, b, cluster := clusteredBinary(50, 3, 5)
	ci, err := PairedClusterBootstrap(a, b, cluster, 10000, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ci.Estimate, ci.Lo, ci.Hi); got != goldenCluster {
		t.Errorf("golden output changed:\n got %s\nwant %s", got, goldenCluster)
	}
}

// Recorded from this implementation (Go 1.26).
const goldenCluster = "0.03333333333333333 -0.08683333333333186 0.15333333333333332"

func TestPairedBinaryMDE(t *testing.T) {
	// Connor's sample size at the returned δ is n again, for every power
	// (including power < ½, where z_power < 0 and the other root applies).
	connorN := func(delta, pd, alpha, power float64) float64 {
		za := distuv.UnitNormal.Quantile(1 - alpha/2)
		zb := distuv.UnitNormal.Quantile(power)
		r := (za*math.Sqrt(pd) + zb*math.Sqrt(pd-delta*delta)) / delta
		return r * r
	}
	for _, tc := range []struct {
		n                int
		pd, alpha, power float64
	}{
		{439, 0.28, 0.05, 0.8}, {100, 0.5, 0.05, 0.3}, {5000, 0.05, 0.001, 0.99},
		{12382, 0.3, 0.05, 0.5}, {40, 0.9, 0.2, 0.2},
	} {
		d, err := PairedBinaryMDE(tc.n, tc.pd, tc.alpha, tc.power)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if got := connorN(d, tc.pd, tc.alpha, tc.power); math.Abs(got-float64(tc.n)) > 1e-9*float64(tc.n) {
			t.Errorf("%+v: δ = %v, Connor's n(δ) = %v", tc, d, got)
		}
		// The approximate power at δ is the requested power.
		za := distuv.UnitNormal.Quantile(1 - tc.alpha/2)
		pw := distuv.UnitNormal.CDF((math.Sqrt(float64(tc.n))*d - za*math.Sqrt(tc.pd)) / math.Sqrt(tc.pd-d*d))
		if math.Abs(pw-tc.power) > 1e-9 {
			t.Errorf("%+v: power at δ = %v", tc, pw)
		}
		// More pairs detect smaller effects.
		if d4, err := PairedBinaryMDE(4*tc.n, tc.pd, tc.alpha, tc.power); err != nil || d4 >= d {
			t.Errorf("%+v: 4n gives %v, %v; n gives %v", tc, d4, err, d)
		}
	}
	// A power of at most α/2 is reached by any δ > 0.
	if d, err := PairedBinaryMDE(10, 0.2, 0.2, 0.05); err != nil || d != 0 {
		t.Errorf("power ≤ α/2: %v, %v", d, err)
	}
	// n + z_β² < z_α²: the approximate power never reaches 0.9.
	if _, err := PairedBinaryMDE(1, 1, 0.001, 0.9); !errors.Is(err, ErrNoSolution) {
		t.Errorf("n = 1: err = %v", err)
	}
}

// TestClusterBootstrapTypesMatchIndices: on many clusters of few types
// (binary rows, 2,000 questions of 5 rows) PairedClusterBootstrap draws the
// types' counts, and its interval agrees with drawing cluster indices
// within Monte Carlo error (the two are the same distribution from two
// random streams): the tolerance of TestClusterBootstrapOneRowPerCluster,
// s·√(p(1−p))/φ(z_p)·√(2/B) times 5, widened by 25%, plus one lattice step
// 1/n, with s the standard deviation of the index draws' resampled means.
func TestClusterBootstrapTypesMatchIndices(t *testing.T) {
	a, b, cluster := clusteredBinary(2000, 5, 9)
	const B = 20000
	ci, err := PairedClusterBootstrap(a, b, cluster, B, 0.95, 3)
	if err != nil {
		t.Fatal(err)
	}
	sums, counts := make([]float64, 2000), make([]int, 2000)
	for i := range a {
		var g int
		fmt.Sscanf(cluster[i], "q%d", &g)
		sums[g] += a[i] - b[i]
		counts[g]++
	}
	if _, _, tm := clusterTypes(sums, counts); len(tm)*clusterTypeDraws > len(sums) {
		t.Fatalf("%d types for %d clusters: the test does not reach the type draws", len(tm), len(sums))
	}
	means := make([]float64, B)
	resampleClusters(means, sums, counts, rand.NewPCG(4, 0))
	var m, ss float64
	for _, v := range means {
		m += v
	}
	m /= B
	for _, v := range means {
		ss += (v - m) * (v - m)
	}
	s := math.Sqrt(ss / B)
	lo, hi := percentileInterval(means, 0.95)
	const p = 0.025
	tol := 1.25*5*s*math.Sqrt(p*(1-p))/distuv.UnitNormal.Prob(distuv.UnitNormal.Quantile(p))*math.Sqrt(2.0/B) + 1/float64(len(a))
	if math.Abs(ci.Lo-lo) > tol || math.Abs(ci.Hi-hi) > tol {
		t.Errorf("types [%v, %v], indices [%v, %v], tol %v", ci.Lo, ci.Hi, lo, hi, tol)
	}
	if ci.Clusters != 2000 || ci.N != len(a) {
		t.Errorf("Clusters %d, N %d", ci.Clusters, ci.N)
	}
}
