package stats

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// reference.json is written by testdata/gen_reference.py (run by hand with
// Debian's /usr/bin/python3: scipy 1.10, statsmodels 0.13, scikit-learn 1.2).

type refValue struct {
	Value json.RawMessage `json:"value"`
	By    string          `json:"by"`
}

type refCase struct {
	Kind     string              `json:"kind"`
	Name     string              `json:"name"`
	Input    json.RawMessage     `json:"input"`
	Expected map[string]refValue `json:"expected"`
}

func loadReference(t *testing.T, kind string) []refCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Cases []refCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	var out []refCase
	for _, c := range ref.Cases {
		if c.Kind == kind {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %q cases in reference.json", kind)
	}
	return out
}

func (c refCase) input(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(c.Input, v); err != nil {
		t.Fatalf("%s: input: %v", c.Name, err)
	}
}

// want decodes the expected value named key into v and returns the Python call
// that produced it.
func (c refCase) want(t *testing.T, key string, v any) string {
	t.Helper()
	e, ok := c.Expected[key]
	if !ok {
		t.Fatalf("%s: no expected %q", c.Name, key)
	}
	if err := json.Unmarshal(e.Value, v); err != nil {
		t.Fatalf("%s: expected %q: %v", c.Name, key, err)
	}
	return e.By
}

func (c refCase) wantFloat(t *testing.T, key string) (float64, string) {
	t.Helper()
	var f float64
	by := c.want(t, key, &f)
	return f, by
}

func close(got, want, tol float64) bool {
	if math.IsNaN(got) || math.IsNaN(want) {
		return math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= tol
}

func checkFloat(t *testing.T, c refCase, key string, got, tol float64) {
	t.Helper()
	want, by := c.wantFloat(t, key)
	if !close(got, want, tol) {
		t.Errorf("%s: %s = %.15g, want %.15g ± %g (%s)", c.Name, key, got, want, tol, by)
	}
}

// TestReferenceBootstrap compares both bootstrap paths with scipy.stats.bootstrap
// at B_ref = 200,000 resamples.
//
// Tolerance. The p-quantile of B bootstrap means has Monte Carlo standard error
// ≈ √(p(1−p)/B) / f(ξ_p), with f the density of the bootstrap distribution at
// the quantile. That distribution is close to Normal(θ̂, s²), s = the bootstrap
// standard error (scipy's, stored in the reference), so f(ξ_p) ≈ φ(z_p)/s and
//
//	SE(Go − scipy) ≈ s·√(p(1−p))/φ(z_p) · √(1/B_go + 1/B_ref).
//
// At p = 0.025, B_go = 100,000, B_ref = 200,000 this is 0.0104·s (0.00025 for
// the n = 439 case). We allow 5 such SEs (two-sided normal tail 6e−7), widened
// by 25% for the non-normality of small skewed samples, plus, for binary data,
// one lattice step 1/n: the resampled means live on the grid k/n, so a quantile
// can move a full step with an arbitrarily small change in probability mass.
func TestReferenceBootstrap(t *testing.T) {
	const bGo = 100_000
	for _, c := range loadReference(t, "bootstrap") {
		var in struct {
			A, B   []float64
			Level  float64
			Binary bool
			BRef   int `json:"b_ref"`
		}
		c.input(t, &in)
		se, _ := c.wantFloat(t, "se")
		alpha := (1 - in.Level) / 2
		z := distuv.UnitNormal.Quantile(alpha)
		tol := 1.25 * 5 * se * math.Sqrt(alpha*(1-alpha)) / distuv.UnitNormal.Prob(z) *
			math.Sqrt(1/float64(bGo)+1/float64(in.BRef))
		if in.Binary {
			tol += 1 / float64(len(in.A))
		}
		type path struct {
			name string
			f    func(a, b []float64, B int, level float64, seed uint64) (BootstrapCI, error)
		}
		paths := []path{{"general", PairedBootstrap}}
		if in.Binary {
			paths = append(paths, path{"binary", PairedBootstrapBinary})
		}
		for _, p := range paths {
			ci, err := p.f(in.A, in.B, bGo, in.Level, 42)
			if err != nil {
				t.Fatalf("%s/%s: %v", c.Name, p.name, err)
			}
			checkFloat(t, c, "estimate", ci.Estimate, 1e-12)
			checkFloat(t, c, "lo", ci.Lo, tol)
			checkFloat(t, c, "hi", ci.Hi, tol)
			if ci.N != len(in.A) || ci.B != bGo || ci.Seed != 42 || ci.Level != in.Level {
				t.Errorf("%s/%s: metadata %+v", c.Name, p.name, ci)
			}
		}
	}
}

func TestReferencePermutationExact(t *testing.T) {
	for _, c := range loadReference(t, "permutation_exact") {
		var in struct{ N11, N10, N01, N00 int }
		c.input(t, &in)
		var a, b []float64
		add := func(k int, x, y float64) {
			for range k {
				a, b = append(a, x), append(b, y)
			}
		}
		add(in.N11, 1, 1)
		add(in.N10, 1, 0)
		add(in.N01, 0, 1)
		add(in.N00, 0, 0)
		r, err := PairedPermutationExact(a, b)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		want, by := c.wantFloat(t, "p")
		// Relative tolerance: the tail probabilities go down to 1e−135.
		if math.Abs(r.P-want) > 1e-9*want {
			t.Errorf("%s: p = %.15g, want %.15g (%s)", c.Name, r.P, want, by)
		}
		checkFloat(t, c, "estimate", r.Estimate, 1e-15)
		if !r.Exact || r.N10 != in.N10 || r.N01 != in.N01 || r.N != len(a) {
			t.Errorf("%s: %+v", c.Name, r)
		}
	}
}

// TestReferencePermutationMC compares the Monte Carlo sign-flip p-value with the
// exact permutation p over all 2^n sign vectors. With B = 200,000 the add-one
// estimate has standard error √(p(1−p)/B) ≤ 0.0011 and bias ≤ 1/(B+1); allow 5
// standard errors plus the bias.
func TestReferencePermutationMC(t *testing.T) {
	const B = 200_000
	for _, c := range loadReference(t, "permutation_mc") {
		var in struct{ A, B []float64 }
		c.input(t, &in)
		r, err := PairedPermutation(in.A, in.B, B, 7)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := c.wantFloat(t, "p")
		tol := 5*math.Sqrt(want*(1-want)/B) + 1.0/(B+1)
		checkFloat(t, c, "p", r.P, tol)
		checkFloat(t, c, "estimate", r.Estimate, 1e-12)
	}
}

func TestReferenceHolm(t *testing.T) {
	for _, c := range loadReference(t, "holm") {
		var in struct {
			P     []float64
			Alpha float64
		}
		c.input(t, &in)
		reject, adjusted, err := Holm(in.P, in.Alpha)
		if err != nil {
			t.Fatal(err)
		}
		var wantReject []bool
		var wantAdj []float64
		by := c.want(t, "reject", &wantReject)
		c.want(t, "adjusted", &wantAdj)
		for i := range in.P {
			if reject[i] != wantReject[i] || !close(adjusted[i], wantAdj[i], 1e-15) {
				t.Errorf("%s[%d]: reject %v adjusted %v, want %v %v (%s)", c.Name, i,
					reject[i], adjusted[i], wantReject[i], wantAdj[i], by)
			}
		}
	}
}

func TestReferenceKappa(t *testing.T) {
	for _, c := range loadReference(t, "kappa") {
		var in struct {
			R1, R2 []string
			Level  float64
		}
		c.input(t, &in)
		k, err := CohenKappa(in.R1, in.R2, in.Level)
		if err != nil {
			t.Fatal(err)
		}
		checkFloat(t, c, "kappa", k.Kappa, 1e-12)
		checkFloat(t, c, "se", k.SE, 1e-12)
		checkFloat(t, c, "se_fce", k.SE, 1e-12)
		checkFloat(t, c, "lo", k.Lo, 1e-9)
		checkFloat(t, c, "hi", k.Hi, 1e-9)
	}
}

func TestReferenceWilson(t *testing.T) {
	for _, c := range loadReference(t, "wilson") {
		var in struct {
			K, N  int
			Level float64
		}
		c.input(t, &in)
		lo, hi := WilsonInterval(in.K, in.N, in.Level)
		checkFloat(t, c, "lo", lo, 1e-12)
		checkFloat(t, c, "hi", hi, 1e-12)
	}
}

func TestReferenceEntropy(t *testing.T) {
	for _, c := range loadReference(t, "entropy") {
		var in struct{ Counts []float64 }
		c.input(t, &in)
		checkFloat(t, c, "h", Entropy(in.Counts), 1e-12)
		checkFloat(t, c, "h_mm", EntropyMillerMadow(in.Counts), 1e-12)
	}
}

func TestReferenceMutualInformation(t *testing.T) {
	for _, c := range loadReference(t, "mi") {
		var in struct{ X, Y []string }
		c.input(t, &in)
		fromLabels, err := MutualInformationLabels(in.X, in.Y)
		if err != nil {
			t.Fatal(err)
		}
		var table [][]float64
		c.want(t, "table", &table)
		fromTable, err := MutualInformationTable(table)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []MutualInformation{fromLabels, fromTable} {
			if m.N != float64(len(in.X)) {
				t.Errorf("%s: N = %v", c.Name, m.N)
			}
			checkFloat(t, c, "hx", m.HX, 1e-12)
			checkFloat(t, c, "hy", m.HY, 1e-12)
			checkFloat(t, c, "hxy", m.HXY, 1e-12)
			checkFloat(t, c, "mi", m.MI, 1e-12)
			checkFloat(t, c, "hx_mm", m.HXMM, 1e-12)
			checkFloat(t, c, "hy_mm", m.HYMM, 1e-12)
			checkFloat(t, c, "hxy_mm", m.HXYMM, 1e-12)
			checkFloat(t, c, "mi_mm", m.MIMM, 1e-12)
		}
	}
}

func TestReferenceFano(t *testing.T) {
	for _, c := range loadReference(t, "fano") {
		var in struct {
			H, I float64
			K, L int
		}
		c.input(t, &in)
		pe, err := FanoListBound(in.H, in.I, in.K, in.L)
		if err != nil {
			t.Fatal(err)
		}
		checkFloat(t, c, "pe", pe, 1e-12)
		checkFloat(t, c, "weak", FanoWeakBound(in.H, in.I, in.K), 1e-15)
		if in.L == 1 {
			pe1, err := FanoBound(in.H, in.I, in.K)
			if err != nil || pe1 != pe {
				t.Errorf("%s: FanoBound = %v, %v; FanoListBound(L=1) = %v", c.Name, pe1, err, pe)
			}
		}
	}
}

func TestReferenceCalibration(t *testing.T) {
	for _, c := range loadReference(t, "calibration") {
		var in struct {
			Abstained, Gold []bool
			Level           float64
		}
		c.input(t, &in)
		cal, err := CalibrateAbstain(in.Abstained, in.Gold, in.Level)
		if err != nil {
			t.Fatal(err)
		}
		var table [2][2]int
		by := c.want(t, "table", &table)
		if cal.Table != table {
			t.Errorf("%s: table %v, want %v (%s)", c.Name, cal.Table, table, by)
		}
		checkFloat(t, c, "agreement", cal.Agreement, 1e-15)
		checkFloat(t, c, "agreement_lo", cal.AgreementLo, 1e-12)
		checkFloat(t, c, "agreement_hi", cal.AgreementHi, 1e-12)
		checkFloat(t, c, "kappa", cal.Kappa.Kappa, 1e-12)
		checkFloat(t, c, "kappa_lo", cal.Kappa.Lo, 1e-9)
		checkFloat(t, c, "kappa_hi", cal.Kappa.Hi, 1e-9)
	}
}

// TestReferenceClusterBootstrap compares PairedClusterBootstrap with the numpy
// cluster bootstrap of gen_reference.py (cluster_bootstrap: the same algorithm,
// B_ref = 200,000 resamples from numpy's generator). The random streams differ,
// so the bounds are compared within the Monte Carlo tolerance derived for
// TestReferenceBootstrap: the resampled ratio means are close to
// Normal(θ̂, s²), s = the numpy resamples' standard deviation (stored as "se"),
// so each bound's difference has standard error
// s·√(p(1−p))/φ(z_p)·√(1/B_go + 1/B_ref); allow 5 of them, widened by 25% for
// non-normality, plus, for binary data with equal cluster sizes, one lattice
// step 1/n (the ratio means then live on the grid k/n). The estimate is the
// plain mean of the rows, so it must match exactly for 0/1 data (an integer
// sum divided by n) and to rounding for real data.
func TestReferenceClusterBootstrap(t *testing.T) {
	const bGo = 100_000
	for _, c := range loadReference(t, "cluster_bootstrap") {
		var in struct {
			A, B    []float64
			Cluster []string
			Level   float64
			Binary  bool
			BRef    int `json:"b_ref"`
		}
		c.input(t, &in)
		se, _ := c.wantFloat(t, "se")
		alpha := (1 - in.Level) / 2
		z := distuv.UnitNormal.Quantile(alpha)
		tol := 1.25 * 5 * se * math.Sqrt(alpha*(1-alpha)) / distuv.UnitNormal.Prob(z) *
			math.Sqrt(1/float64(bGo)+1/float64(in.BRef))
		estTol := 1e-12
		if in.Binary {
			tol += 1 / float64(len(in.A))
			estTol = 0
		}
		ci, err := PairedClusterBootstrap(in.A, in.B, in.Cluster, bGo, in.Level, 42)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		checkFloat(t, c, "estimate", ci.Estimate, estTol)
		checkFloat(t, c, "lo", ci.Lo, tol)
		checkFloat(t, c, "hi", ci.Hi, tol)
		var G int
		by := c.want(t, "clusters", &G)
		if ci.Clusters != G {
			t.Errorf("%s: Clusters = %d, want %d (%s)", c.Name, ci.Clusters, G, by)
		}
		if ci.N != len(in.A) || ci.B != bGo || ci.Seed != 42 || ci.Level != in.Level {
			t.Errorf("%s: metadata %+v", c.Name, ci)
		}
	}
}

// TestReferenceMcNemarMDE compares PairedBinaryMDE (closed form) with
// scipy.optimize.brentq on Connor's (1987) sample-size formula and on
// statsmodels' normal_sample_size_one_tail with Connor's null and alternative
// standard deviations. A null expected value means no δ ≤ p_d reaches the
// power.
func TestReferenceMcNemarMDE(t *testing.T) {
	for _, c := range loadReference(t, "mcnemar_mde") {
		var in struct {
			N                        int
			Discordant, Alpha, Power float64
		}
		c.input(t, &in)
		got, err := PairedBinaryMDE(in.N, in.Discordant, in.Alpha, in.Power)
		var want *float64
		by := c.want(t, "mde", &want)
		if want == nil {
			if !errors.Is(err, ErrNoSolution) {
				t.Errorf("%s: got %v, %v; want ErrNoSolution (%s)", c.Name, got, err, by)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		checkFloat(t, c, "mde", got, 1e-12)
		checkFloat(t, c, "mde_statsmodels", got, 1e-12)
	}
}

func TestReferenceConditionalMI(t *testing.T) {
	for _, c := range loadReference(t, "cmi") {
		var in struct{ X, Y, Z []string }
		c.input(t, &in)
		got, err := ConditionalMutualInformation(in.X, in.Y, in.Z)
		if err != nil {
			t.Fatal(err)
		}
		checkFloat(t, c, "cmi", got.PlugIn, 1e-12)
		checkFloat(t, c, "cells", float64(got.Cells), 0)
	}
}
