package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// correlatedBinary returns n paired 0/1 outcomes with joint cell probabilities
// p11, p10, p01 (p00 the rest), drawn from a PCG seeded with seed.
func correlatedBinary(n int, p11, p10, p01 float64, seed uint64) (a, b []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	a, b = make([]float64, n), make([]float64, n)
	for i := range a {
		u := rng.Float64()
		switch {
		case u < p11:
			a[i], b[i] = 1, 1
		case u < p11+p10:
			a[i] = 1
		case u < p11+p10+p01:
			b[i] = 1
		}
	}
	return a, b
}

// clusterOf labels n rows in clusters of m consecutive rows: q0 ×m, q1 ×m, ...
func clusterOf(n, m int) []string {
	c := make([]string, n)
	for i := range c {
		c[i] = fmt.Sprintf("q%d", i/m)
	}
	return c
}

// stratum is the paper's largest stratum: monotonic, n = 12,382, accuracy
// 0.34 (A) vs 0.46 (B), positively correlated.
func stratum() (a, b []float64) { return correlatedBinary(12382, 0.25, 0.09, 0.21, 12382) }

func TestHolmPaperTable20(t *testing.T) {
	for _, tc := range []struct {
		family  string
		p       []float64
		rejects int
	}{
		{"Llama", []float64{.0001, .021, .067, 1.0}, 1},
		{"Mistral", []float64{.0001, .0001, .016, .75}, 3},
	} {
		reject, _, err := Holm(tc.p, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range reject {
			if r {
				n++
			}
		}
		if n != tc.rejects {
			t.Errorf("%s: %d rejections, want %d (paper Table 20)", tc.family, n, tc.rejects)
		}
	}
}

func TestFanoPaper(t *testing.T) {
	// Paper App. G: H(Y') = 1.89 bits, I(R;Y') = 0.216 bits, K = 5 relation
	// labels, Pe ≥ 0.365; spec §6: exact solution 0.364–0.365, weakened 0.290.
	pe, err := FanoBound(1.89, 0.216, 5)
	if err != nil {
		t.Fatal(err)
	}
	if pe < 0.364 || pe > 0.365 {
		t.Errorf("FanoBound(1.89, 0.216, 5) = %.5f, want in [0.364, 0.365]", pe)
	}
	if w := FanoWeakBound(1.89, 0.216, 5); math.Abs(w-0.290) > 0.0005 {
		t.Errorf("FanoWeakBound = %.5f, want 0.290", w)
	}
	// The bound is tight: Fano's expression at pe equals H − I.
	if lhs := binaryEntropy(pe) + pe*math.Log2(4); math.Abs(lhs-(1.89-0.216)) > 1e-9 {
		t.Errorf("h(pe)+pe log2 4 = %v, want %v", lhs, 1.89-0.216)
	}
}

func TestFanoEdges(t *testing.T) {
	if pe, err := FanoBound(1, 1.5, 3); err != nil || pe != 0 {
		t.Errorf("H−I<0: %v, %v", pe, err)
	}
	// At H − I = log2 K the bound sits at the flat maximum of Fano's
	// expression, where bisection resolves Pe only to about √ε.
	if pe, err := FanoBound(math.Log2(5), 0, 5); err != nil || math.Abs(pe-0.8) > 1e-7 {
		t.Errorf("H−I = log2 K: %v, %v, want 0.8", pe, err)
	}
	if _, err := FanoBound(3, 0, 5); err == nil {
		t.Error("H−I > log2 K: no error")
	}
	if _, err := FanoBound(math.NaN(), 0, 5); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN H: err = %v", err)
	}
	if pe, err := FanoListBound(0.9, 0, 5, 2); err != nil || pe != 0 {
		t.Errorf("H−I ≤ log2 L: %v, %v", pe, err)
	}
	if !math.IsNaN(FanoWeakBound(math.NaN(), 0, 5)) {
		t.Error("FanoWeakBound(NaN) not NaN")
	}
}

func TestDeterminism(t *testing.T) {
	a, b := correlatedBinary(500, 0.3, 0.12, 0.05, 3)
	for name, f := range map[string]func(seed uint64) any{
		"general": func(s uint64) any { ci, _ := PairedBootstrap(a, b, 2000, 0.95, s); return ci },
		"binary":  func(s uint64) any { ci, _ := PairedBootstrapBinary(a, b, 2000, 0.95, s); return ci },
		"perm":    func(s uint64) any { r, _ := PairedPermutation(a, b, 2000, s); return r },
		"cluster": func(s uint64) any {
			ci, _ := PairedClusterBootstrap(a, b, clusterOf(len(a), 4), 2000, 0.95, s)
			return ci
		},
	} {
		if x, y := f(9), f(9); x != y {
			t.Errorf("%s: same seed, different results: %+v %+v", name, x, y)
		}
		if x, y := f(9), f(10); x == y {
			t.Errorf("%s: seeds 9 and 10 give identical results %+v", name, x)
		}
	}
}

// TestGolden pins the exact output for fixed seeds, so that a change in the
// random streams (math/rand/v2's PCG, gonum's binomial sampler) or in the
// algorithms is noticed: published intervals must be reproducible from their
// seeds. Real-valued data keep the general bootstrap and the permutation p off
// any lattice, so every draw matters.
func TestGolden(t *testing.T) {
	rng := rand.New(rand.NewPCG(77, 1))
	x, y := make([]float64, 300), make([]float64, 300)
	for i := range x {
		x[i] = rng.NormFloat64() + 0.1
		y[i] = rng.NormFloat64()
	}
	a, b := correlatedBinary(439, 0.18, 0.228, 0.046, 439)
	g, _ := PairedBootstrap(x, y, 10000, 0.95, 1)
	bin, _ := PairedBootstrapBinary(a, b, 10000, 0.9, 1)
	perm, _ := PairedPermutation(x, y, 10000, 1)
	got := fmt.Sprint(g.Lo, g.Hi, bin.Lo, bin.Hi, perm.P)
	if got != golden {
		t.Errorf("golden outputs changed:\n got %s\nwant %s", got, golden)
	}
}

// Recorded from this implementation (Go 1.26, gonum v0.17.0).
const golden = "-0.14807623613478935 0.17319848433559912 0.11845102505694761 0.1958997722095672 0.8828117188281172"

// TestBootstrapCoverage checks, by simulation, that the 95% percentile interval
// of both paths covers the true mean paired difference about 95% of the time:
// 500 replications of n = 200 correlated binary pairs (true difference
// 0.12 − 0.05 = 0.07). The number covered is Binomial(500, c); with c = 0.95
// its standard deviation is √(500·0.95·0.05) = 4.87, so 3 sd gives the band
// [460, 490]. (The percentile interval is known to undercover slightly at small
// n; at n = 200 the shortfall is well inside the band.)
func TestBootstrapCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation skipped in -short mode")
	}
	const reps, n = 500, 200
	const p11, p10, p01 = 0.3, 0.12, 0.05
	truth := p10 - p01
	for name, f := range map[string]func(a, b []float64, B int, level float64, seed uint64) (BootstrapCI, error){
		"binary": PairedBootstrapBinary, "general": PairedBootstrap,
	} {
		B := 10000
		if name == "general" {
			B = 1000 // the general path draws n indices per resample; keep the test ~1 s
		}
		covered := 0
		for r := range reps {
			a, b := correlatedBinary(n, p11, p10, p01, uint64(1000+r))
			ci, err := f(a, b, B, 0.95, uint64(r))
			if err != nil {
				t.Fatal(err)
			}
			if ci.Lo <= truth && truth <= ci.Hi {
				covered++
			}
		}
		t.Logf("%s: coverage %d/%d = %.3f", name, covered, reps, float64(covered)/reps)
		if covered < 460 || covered > 490 {
			t.Errorf("%s: coverage %d/%d outside the binomial band [460, 490]", name, covered, reps)
		}
	}
}

func TestBinaryAgreesWithGeneral(t *testing.T) {
	// Same distribution, different streams: the intervals agree to within
	// Monte Carlo error plus one lattice step.
	a, b := stratum()
	g, err1 := PairedBootstrap(a, b, 10000, 0.95, 5)
	f, err2 := PairedBootstrapBinary(a, b, 10000, 0.95, 5)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if g.Estimate != f.Estimate {
		t.Errorf("estimates differ: %v %v", g.Estimate, f.Estimate)
	}
	// s ≈ 0.0054 here; MC SE of each bound ≈ 0.027·s·√2 ≈ 0.0002.
	if math.Abs(g.Lo-f.Lo) > 0.001 || math.Abs(g.Hi-f.Hi) > 0.001 {
		t.Errorf("general %+v vs binary %+v", g, f)
	}
}

func TestPermutationMCBinaryMatchesExact(t *testing.T) {
	a, b := correlatedBinary(300, 0.3, 0.1, 0.06, 11)
	ex, _ := PairedPermutationExact(a, b)
	mc, _ := PairedPermutation(a, b, 100000, 1)
	if ex.N10 != mc.N10 || ex.N01 != mc.N01 || ex.Estimate != mc.Estimate {
		t.Errorf("exact %+v vs MC %+v", ex, mc)
	}
	if tol := 5*math.Sqrt(ex.P*(1-ex.P)/1e5) + 1e-5; math.Abs(ex.P-mc.P) > tol {
		t.Errorf("MC p = %v, exact %v (tol %v)", mc.P, ex.P, tol)
	}
	// The paper's floor: nothing more extreme in B draws gives 1/(B+1).
	a2, b2 := stratum()
	r, _ := PairedPermutation(a2, b2, 10000, 1)
	if r.P != 1.0/10001 {
		t.Errorf("floor p = %v, want 1/10001", r.P)
	}
}

func TestDataErrors(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"bootstrap empty", second(PairedBootstrap(nil, nil, 10, 0.95, 1)), ErrEmpty},
		{"bootstrap NaN", second(PairedBootstrap([]float64{1, nan}, []float64{0, 0}, 10, 0.95, 1)), ErrNonFinite},
		{"bootstrap Inf", second(PairedBootstrap([]float64{math.Inf(1)}, []float64{0}, 10, 0.95, 1)), ErrNonFinite},
		{"binary empty", second(PairedBootstrapBinary(nil, nil, 10, 0.95, 1)), ErrEmpty},
		{"cluster empty", second(PairedClusterBootstrap(nil, nil, nil, 10, 0.95, 1)), ErrEmpty},
		{"cluster NaN", second(PairedClusterBootstrap([]float64{1, 0}, []float64{nan, 0}, []string{"q", "q"}, 10, 0.95, 1)), ErrNonFinite},
		{"cluster Inf", second(PairedClusterBootstrap([]float64{math.Inf(-1)}, []float64{0}, []string{"q"}, 10, 0.95, 1)), ErrNonFinite},
		{"mde none", second(PairedBinaryMDE(60, 0.1, 0.05, 0.8)), ErrNoSolution},
		{"binary 0.5", second(PairedBootstrapBinary([]float64{1, 0.5}, []float64{0, 0}, 10, 0.95, 1)), ErrNotBinary},
		{"binary NaN", second(PairedBootstrapBinary([]float64{1, 0}, []float64{0, nan}, 10, 0.95, 1)), ErrNotBinary},
		{"exact empty", second(PairedPermutationExact(nil, nil)), ErrEmpty},
		{"exact 2", second(PairedPermutationExact([]float64{2}, []float64{0})), ErrNotBinary},
		{"perm NaN", second(PairedPermutation([]float64{nan}, []float64{0}, 10, 1)), ErrNonFinite},
		{"perm empty", second(PairedPermutation(nil, nil, 10, 1)), ErrEmpty},
		{"kappa empty", second(CohenKappa([]string{}, []string{}, 0.95)), ErrEmpty},
		{"kappa one label", second(CohenKappa([]string{"a", "a"}, []string{"a", "a"}, 0.95)), ErrKappaUndefined},
		{"kappa negative", second(CohenKappaTable([][]float64{{1, -1}, {0, 1}}, 0.95)), ErrNegativeCount},
		{"kappa NaN", second(CohenKappaTable([][]float64{{1, nan}, {0, 1}}, 0.95)), ErrNonFinite},
		{"mi empty", second(MutualInformationLabels([]int{}, []int{})), ErrEmpty},
		{"mi negative", second(MutualInformationTable([][]float64{{1, -2}})), ErrNegativeCount},
		{"calibration empty", second(CalibrateAbstain(nil, nil, 0.95)), ErrEmpty},
		{"calibration degenerate", second(CalibrateAbstain([]bool{false, false}, []bool{false, false}, 0.95)), ErrKappaUndefined},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.want)
		} else if !strings.HasPrefix(tc.err.Error(), "stats: ") {
			t.Errorf("%s: error %q lacks the stats: prefix", tc.name, tc.err)
		}
	}
	if _, _, err := Holm([]float64{0.1, nan}, 0.05); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Holm NaN: %v", err)
	}
	if _, _, err := Holm([]float64{1.5}, 0.05); err == nil || !strings.HasPrefix(err.Error(), "stats: ") {
		t.Errorf("Holm p > 1: %v", err)
	}
	if r, a, err := Holm(nil, 0.05); err != nil || len(r) != 0 || len(a) != 0 {
		t.Errorf("Holm empty: %v %v %v", r, a, err)
	}
	for _, c := range [][]float64{nil, {}, {0, 0}, {1, nan}, {1, -1}, {math.Inf(1)}} {
		if !math.IsNaN(Entropy(c)) || !math.IsNaN(EntropyMillerMadow(c)) {
			t.Errorf("Entropy(%v) not NaN", c)
		}
	}
	if lo, hi := WilsonInterval(0, 0, 0.95); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("Wilson n=0: %v %v", lo, hi)
	}
	// The degenerate calibration still reports its table and agreement.
	cal, _ := CalibrateAbstain([]bool{false, false}, []bool{false, false}, 0.95)
	if cal.Table[0][0] != 2 || cal.Agreement != 1 || !math.IsNaN(cal.Kappa.Kappa) {
		t.Errorf("degenerate calibration: %+v", cal)
	}
}

func second[T any](_ T, err error) error { return err }

func TestKappaPerfectAgreement(t *testing.T) {
	k, err := CohenKappa([]int{1, 2, 1, 3, 2}, []int{1, 2, 1, 3, 2}, 0.95)
	if err != nil || k.Kappa != 1 || k.SE > 1e-7 || math.IsNaN(k.SE) {
		t.Errorf("perfect agreement: %+v, %v", k, err)
	}
}

func TestNoDiscordantPairs(t *testing.T) {
	a := []float64{1, 0, 1}
	r, err := PairedPermutationExact(a, a)
	if err != nil || r.P != 1 || r.Estimate != 0 {
		t.Errorf("%+v %v", r, err)
	}
	ci, err := PairedBootstrapBinary(a, a, 100, 0.95, 1)
	if err != nil || ci.Lo != 0 || ci.Hi != 0 {
		t.Errorf("%+v %v", ci, err)
	}
	ci, err = PairedBootstrapBinary([]float64{1, 1}, []float64{0, 0}, 100, 0.95, 1)
	if err != nil || ci.Lo != 1 || ci.Hi != 1 {
		t.Errorf("all +1: %+v %v", ci, err)
	}
}

func TestPercentileLinear(t *testing.T) {
	// numpy.percentile([1, 2, 3, 4, 10], [0, 2.5, 50, 97.5, 100]) =
	// [1, 1.1, 3, 9.4, 10].
	s := []float64{1, 2, 3, 4, 10}
	for q, want := range map[float64]float64{0: 1, 0.025: 1.1, 0.5: 3, 0.975: 9.4, 1: 10} {
		if got := percentileLinear(s, q); math.Abs(got-want) > 1e-12 {
			t.Errorf("q=%v: %v, want %v", q, got, want)
		}
	}
}

func TestLabelHelpers(t *testing.T) {
	counts, labels := LabelCounts([]string{"b", "a", "b", "c", "b"})
	if len(labels) != 3 || labels[0] != "b" || counts[0] != 3 || counts[1] != 1 {
		t.Errorf("LabelCounts: %v %v", counts, labels)
	}
	table, xs, ys := ContingencyTable([]int{1, 1, 2}, []string{"u", "v", "v"})
	if len(xs) != 2 || len(ys) != 2 || table[0][0] != 1 || table[0][1] != 1 || table[1][1] != 1 || table[1][0] != 0 {
		t.Errorf("ContingencyTable: %v %v %v", table, xs, ys)
	}
}

// TestMisusePanics checks that every documented misuse panics with a message
// prefixed "stats: ".
func TestMisusePanics(t *testing.T) {
	one := []float64{1}
	two := []float64{1, 0}
	for name, f := range map[string]func(){
		"bootstrap lengths":      func() { PairedBootstrap(one, two, 10, 0.95, 1) },
		"bootstrap B":            func() { PairedBootstrap(one, one, 0, 0.95, 1) },
		"bootstrap level 0":      func() { PairedBootstrap(one, one, 10, 0, 1) },
		"bootstrap level 1":      func() { PairedBootstrap(one, one, 10, 1, 1) },
		"bootstrap level NaN":    func() { PairedBootstrap(one, one, 10, math.NaN(), 1) },
		"binary lengths":         func() { PairedBootstrapBinary(one, two, 10, 0.95, 1) },
		"binary B":               func() { PairedBootstrapBinary(one, one, -1, 0.95, 1) },
		"binary level":           func() { PairedBootstrapBinary(one, one, 10, 1.5, 1) },
		"cluster lengths":        func() { PairedClusterBootstrap(one, two, []string{"q"}, 10, 0.95, 1) },
		"cluster labels":         func() { PairedClusterBootstrap(one, one, []string{"q", "r"}, 10, 0.95, 1) },
		"cluster no labels":      func() { PairedClusterBootstrap(one, one, nil, 10, 0.95, 1) },
		"cluster B":              func() { PairedClusterBootstrap(one, one, []string{"q"}, 0, 0.95, 1) },
		"cluster level":          func() { PairedClusterBootstrap(one, one, []string{"q"}, 10, 1, 1) },
		"mde n":                  func() { PairedBinaryMDE(0, 0.2, 0.05, 0.8) },
		"mde alpha 0":            func() { PairedBinaryMDE(10, 0.2, 0, 0.8) },
		"mde alpha 1":            func() { PairedBinaryMDE(10, 0.2, 1, 0.8) },
		"mde power 1":            func() { PairedBinaryMDE(10, 0.2, 0.05, 1) },
		"mde power NaN":          func() { PairedBinaryMDE(10, 0.2, 0.05, math.NaN()) },
		"mde discordant 0":       func() { PairedBinaryMDE(10, 0, 0.05, 0.8) },
		"mde discordant > 1":     func() { PairedBinaryMDE(10, 1.01, 0.05, 0.8) },
		"exact lengths":          func() { PairedPermutationExact(one, two) },
		"perm lengths":           func() { PairedPermutation(one, two, 10, 1) },
		"perm B":                 func() { PairedPermutation(one, one, 0, 1) },
		"sign test negative":     func() { SignTestP(-1, 2) },
		"holm alpha":             func() { Holm([]float64{0.1}, 0) },
		"holm alpha 1":           func() { Holm([]float64{0.1}, 1) },
		"kappa lengths":          func() { CohenKappa([]string{"a"}, []string{"a", "b"}, 0.95) },
		"kappa level":            func() { CohenKappa([]string{"a"}, []string{"a"}, 2) },
		"kappa table not square": func() { CohenKappaTable([][]float64{{1, 2}}, 0.95) },
		"wilson k > n":           func() { WilsonInterval(3, 2, 0.95) },
		"wilson k < 0":           func() { WilsonInterval(-1, 2, 0.95) },
		"wilson level":           func() { WilsonInterval(1, 2, -0.1) },
		"mi lengths":             func() { MutualInformationLabels([]int{1}, []int{}) },
		"mi ragged":              func() { MutualInformationTable([][]float64{{1, 2}, {3}}) },
		"contingency lengths":    func() { ContingencyTable([]int{1}, []int{}) },
		"fano K":                 func() { FanoBound(1, 0, 1) },
		"fano list K":            func() { FanoListBound(1, 0, 1, 1) },
		"fano list L 0":          func() { FanoListBound(1, 0, 5, 0) },
		"fano list L K":          func() { FanoListBound(1, 0, 5, 5) },
		"fano weak K":            func() { FanoWeakBound(1, 0, 0) },
		"calibration lengths":    func() { CalibrateAbstain([]bool{true}, nil, 0.95) },
		"calibration level":      func() { CalibrateAbstain([]bool{true}, []bool{true}, 1) },
	} {
		msg := func() (msg string) {
			defer func() {
				r := recover()
				if r == nil {
					msg = "<no panic>"
					return
				}
				s, ok := r.(string)
				if !ok {
					msg = "<non-string panic>"
					return
				}
				msg = s
			}()
			f()
			return ""
		}()
		if !strings.HasPrefix(msg, "stats: ") {
			t.Errorf("%s: panic %q, want prefix \"stats: \"", name, msg)
		}
	}
}
