package stats

import (
	"math/rand/v2"
	"testing"
)

// The paper's largest stratum: n = 12,382 binary pairs, B = 10,000.
// Compare with testdata/bench_scipy.py (scipy.stats.bootstrap on the same n).

func BenchmarkPairedBootstrapBinary(b *testing.B) {
	x, y := stratum()
	for b.Loop() {
		if _, err := PairedBootstrapBinary(x, y, DefaultResamples, 0.95, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPairedBootstrapGeneral(b *testing.B) {
	x, y := stratum()
	for b.Loop() {
		if _, err := PairedBootstrap(x, y, DefaultResamples, 0.95, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPairedClusterBootstrap: the stratum's 12,382 rows in clusters of 5
// (2,477 questions), B = 10,000; a resample draws G cluster indices.
func BenchmarkPairedClusterBootstrap(b *testing.B) {
	x, y := stratum()
	cluster := clusterOf(len(x), 5)
	for b.Loop() {
		if _, err := PairedClusterBootstrap(x, y, cluster, DefaultResamples, 0.95, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPermutationExact(b *testing.B) {
	x, y := stratum()
	for b.Loop() {
		if _, err := PairedPermutationExact(x, y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPermutationMonteCarlo(b *testing.B) {
	x, y := stratum()
	for b.Loop() {
		if _, err := PairedPermutation(x, y, DefaultResamples, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClusterResample: one interval's resamples of the stratum's rows
// in clusters of 5 (2,477 questions, at most 11 types), drawn as cluster
// indices (the draw PairedClusterBootstrap used for every input before) and
// as the types' multinomial counts (the draw it uses when types are few).
func BenchmarkClusterResample(b *testing.B) {
	x, y := stratum()
	G := (len(x) + 4) / 5
	sums, counts := make([]float64, G), make([]int, G)
	for i := range x {
		sums[i/5] += x[i] - y[i]
		counts[i/5]++
	}
	means := make([]float64, DefaultResamples)
	b.Run("indices", func(b *testing.B) {
		for b.Loop() {
			resampleClusters(means, sums, counts, rand.NewPCG(1, 0))
		}
	})
	ts, tn, tm := clusterTypes(sums, counts)
	b.Run("types", func(b *testing.B) {
		for b.Loop() {
			resampleTypes(means, ts, tn, tm, G, rand.NewPCG(1, 0))
		}
	})
}
