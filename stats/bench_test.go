package stats

import "testing"

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
