package stats_test

import (
	"errors"
	"fmt"

	"github.com/esrkit/esrkit/stats"
)

// pairs builds paired 0/1 outcomes from the four cell counts.
func pairs(n11, n10, n01, n00 int) (a, b []float64) {
	for _, c := range []struct {
		k    int
		x, y float64
	}{{n11, 1, 1}, {n10, 1, 0}, {n01, 0, 1}, {n00, 0, 0}} {
		for range c.k {
			a, b = append(a, c.x), append(b, c.y)
		}
	}
	return a, b
}

func ExamplePairedBootstrapBinary() {
	// 439 paired questions: system A right and B wrong on 100, the reverse on 23.
	a, b := pairs(79, 100, 23, 237)
	ci, err := stats.PairedBootstrapBinary(a, b, stats.DefaultResamples, 0.95, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("n=%d  A−B = %+.3f  95%% CI [%+.3f, %+.3f]  (B=%d, seed=%d)\n",
		ci.N, ci.Estimate, ci.Lo, ci.Hi, ci.B, ci.Seed)
	// Output:
	// n=439  A−B = +0.175  95% CI [+0.130, +0.221]  (B=10000, seed=1)
}

func ExamplePairedBootstrap() {
	a := []float64{0.9, 0.7, 0.8, 0.6, 0.95, 0.5, 0.75, 0.85}
	b := []float64{0.8, 0.72, 0.6, 0.55, 0.9, 0.52, 0.6, 0.7}
	ci, err := stats.PairedBootstrap(a, b, stats.DefaultResamples, 0.90, 7)
	if err != nil {
		panic(err)
	}
	fmt.Printf("mean diff %.4f, 90%% CI [%.4f, %.4f]\n", ci.Estimate, ci.Lo, ci.Hi)
	// Output:
	// mean diff 0.0825, 90% CI [0.0400, 0.1263]
}

func ExamplePairedClusterBootstrap() {
	// Six questions, each answered by three reader families under systems A
	// and B: the rows of a question are correlated, so resample questions.
	a := []float64{1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1}
	b := []float64{0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0}
	q := []string{"q1", "q1", "q1", "q2", "q2", "q2", "q3", "q3", "q3",
		"q4", "q4", "q4", "q5", "q5", "q5", "q6", "q6", "q6"}
	ci, err := stats.PairedClusterBootstrap(a, b, q, stats.DefaultResamples, 0.95, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("n=%d rows in %d clusters  A−B = %+.3f  95%% CI [%+.3f, %+.3f]\n",
		ci.N, ci.Clusters, ci.Estimate, ci.Lo, ci.Hi)
	// Treating the 18 rows as independent pairs understates the uncertainty.
	pair, err := stats.PairedBootstrapBinary(a, b, stats.DefaultResamples, 0.95, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("pair bootstrap (rows as independent)  95%% CI [%+.3f, %+.3f]\n", pair.Lo, pair.Hi)
	// Output:
	// n=18 rows in 6 clusters  A−B = +0.444  95% CI [+0.111, +0.833]
	// pair bootstrap (rows as independent)  95% CI [+0.222, +0.667]
}

func ExamplePairedPermutationExact() {
	a, b := pairs(79, 100, 23, 237)
	r, err := stats.PairedPermutationExact(a, b)
	if err != nil {
		panic(err)
	}
	fmt.Printf("n10=%d n01=%d estimate=%.3f p=%.2e exact=%v\n", r.N10, r.N01, r.Estimate, r.P, r.Exact)
	// Output:
	// n10=100 n01=23 estimate=0.175 p=1.22e-12 exact=true
}

func ExamplePairedPermutation() {
	a := []float64{0.9, 0.7, 0.8, 0.6, 0.95, 0.5, 0.75, 0.85}
	b := []float64{0.8, 0.72, 0.6, 0.55, 0.9, 0.52, 0.6, 0.7}
	r, err := stats.PairedPermutation(a, b, stats.DefaultResamples, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("p=%.3f (Monte Carlo, B=%d)\n", r.P, r.B)
	// Output:
	// p=0.034 (Monte Carlo, B=10000)
}

func ExampleHolm() {
	// Paper Table 20, Mistral × GitHub: four per-phenomenon tests.
	reject, adjusted, err := stats.Holm([]float64{.0001, .0001, .016, .75}, 0.05)
	if err != nil {
		panic(err)
	}
	fmt.Println(reject)
	fmt.Println(adjusted)
	// Output:
	// [true true true false]
	// [0.0004 0.0004 0.032 0.75]
}

func ExampleCohenKappa() {
	human := []string{"revert", "revert", "mono", "mono", "mono", "csc", "refines", "mono", "revert", "csc"}
	llm := []string{"revert", "revert", "revert", "mono", "mono", "csc", "mono", "mono", "revert", "revert"}
	k, err := stats.CohenKappa(human, llm, 0.95)
	if err != nil {
		panic(err)
	}
	fmt.Printf("kappa=%.3f SE=%.3f 95%% CI [%.3f, %.3f]\n", k.Kappa, k.SE, k.Lo, k.Hi)
	// Output:
	// kappa=0.552 SE=0.197 95% CI [0.166, 0.939]
}

func ExampleWilsonInterval() {
	// Extractor co-key recall, paper App. F: 585 of 609.
	lo, hi := stats.WilsonInterval(585, 609, 0.95)
	fmt.Printf("%.3f [%.3f, %.3f]\n", 585.0/609, lo, hi)
	// Output:
	// 0.961 [0.942, 0.973]
}

func ExampleEntropyMillerMadow() {
	counts := []float64{180, 120, 90, 70, 40}
	fmt.Printf("plug-in %.4f bits, Miller–Madow %.4f bits\n",
		stats.Entropy(counts), stats.EntropyMillerMadow(counts))
	// Output:
	// plug-in 2.1587 bits, Miller–Madow 2.1644 bits
}

func ExampleMutualInformationLabels() {
	scorer := []string{"same", "same", "refines", "supersedes", "same", "supersedes", "refines", "same"}
	oracle := []string{"same", "refines", "refines", "supersedes", "same", "supersedes", "same", "same"}
	m, err := stats.MutualInformationLabels(scorer, oracle)
	if err != nil {
		panic(err)
	}
	fmt.Printf("H(Y)=%.3f I=%.3f I_MM=%.3f bits\n", m.HY, m.MI, m.MIMM)
	// Output:
	// H(Y)=1.500 I=0.844 I_MM=0.844 bits
}

func ExampleFanoBound() {
	// Paper App. G: H(Y') = 1.89 bits, I(R;Y') = 0.216 bits, K = 5 relations.
	pe, err := stats.FanoBound(1.89, 0.216, 5)
	if err != nil {
		panic(err)
	}
	fmt.Printf("Pe >= %.4f (weakened: %.3f)\n", pe, stats.FanoWeakBound(1.89, 0.216, 5))
	// Output:
	// Pe >= 0.3640 (weakened: 0.290)
}

func ExampleFanoListBound() {
	pe, err := stats.FanoListBound(1.89, 0.216, 5, 2)
	if err != nil {
		panic(err)
	}
	fmt.Printf("Pe(list of 2) >= %.4f\n", pe)
	// Output:
	// Pe(list of 2) >= 0.1425
}

func ExampleCalibrateAbstain() {
	abstained := []bool{true, true, false, false, false, true, false, false, true, false}
	gold := []bool{true, false, false, false, false, true, true, false, true, false}
	c, err := stats.CalibrateAbstain(abstained, gold, 0.95)
	if err != nil {
		panic(err)
	}
	fmt.Println("table [decision][gold]:", c.Table)
	fmt.Printf("agreement %.2f [%.2f, %.2f], kappa %.3f\n", c.Agreement, c.AgreementLo, c.AgreementHi, c.Kappa.Kappa)
	// Output:
	// table [decision][gold]: [[5 1] [1 3]]
	// agreement 0.80 [0.49, 0.94], kappa 0.583
}

func ExamplePairedBinaryMDE() {
	// 439 paired questions of which 28% are discordant (one system right, the
	// other wrong): the smallest accuracy difference McNemar's test detects at
	// α = 0.05 with 80% power.
	mde, err := stats.PairedBinaryMDE(439, 0.28, 0.05, 0.8)
	if err != nil {
		panic(err)
	}
	fmt.Printf("MDE = %.4f\n", mde)
	// With 60 pairs and 10% discordant no difference is detectable.
	_, err = stats.PairedBinaryMDE(60, 0.10, 0.05, 0.8)
	fmt.Println(errors.Is(err, stats.ErrNoSolution))
	// Output:
	// MDE = 0.0706
	// true
}
