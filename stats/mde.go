package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// PairedBinaryMDE returns the minimum detectable effect of McNemar's test for
// n paired binary outcomes: the smallest true difference δ = p10 − p01 in
// (0, p_d] that the two-sided level-alpha test detects with the given power,
// where p_d = p10 + p01 is the discordant proportion, by the normal
// approximation of Connor (1987, "Sample size for testing differences in
// proportions for the paired-sample design", Biometrics 43(1):207–211):
//
//	n = [z_{1−α/2}·√p_d + z_{power}·√(p_d − δ²)]² / δ²,
//
// that is, the approximate power Φ((√n·δ − z_{1−α/2}·√p_d)/√(p_d − δ²)),
// ignoring the far tail, equals power. Squaring that equation gives a quadratic
// in δ, solved here in closed form (no iteration):
//
//	δ = √p_d · [z_{1−α/2}·√n + z_{power}·√(n + z_{power}² − z_{1−α/2}²)] / (n + z_{power}²),
//
// with z_{power} signed (negative for power < 1/2); this is the first δ > 0 at
// which the approximate power reaches power. A power of at most α/2 is reached
// at every δ > 0 and gives 0. Connor's formula is
// statsmodels.stats.power.normal_sample_size_one_tail(δ, power, α/2,
// std_null=√p_d, std_alternative=√(p_d − δ²)).
//
// PairedBinaryMDE panics if n < 1, alpha or power is outside (0, 1), or
// discordant is outside (0, 1]. It returns an error wrapping ErrNoSolution when
// no δ ≤ p_d reaches the power (too few pairs or discordant pairs).
func PairedBinaryMDE(n int, discordant, alpha, power float64) (float64, error) {
	const fn = "PairedBinaryMDE"
	if n < 1 {
		panic(fmt.Sprintf("stats: %s: n = %d < 1", fn, n))
	}
	if !(alpha > 0 && alpha < 1) {
		panic(fmt.Sprintf("stats: %s: alpha %v outside (0, 1)", fn, alpha))
	}
	if !(power > 0 && power < 1) {
		panic(fmt.Sprintf("stats: %s: power %v outside (0, 1)", fn, power))
	}
	if !(discordant > 0 && discordant <= 1) {
		panic(fmt.Sprintf("stats: %s: discordant proportion %v outside (0, 1]", fn, discordant))
	}
	za := distuv.UnitNormal.Quantile(1 - alpha/2)
	zb := distuv.UnitNormal.Quantile(power)
	if zb <= -za {
		return 0, nil
	}
	fn64 := float64(n)
	disc := fn64 + zb*zb - za*za
	noSolution := func() error {
		return fmt.Errorf("%w: %s: no δ ≤ p_d = %v reaches power %v at alpha %v with n = %d pairs",
			ErrNoSolution, fn, discordant, power, alpha, n)
	}
	if disc < 0 {
		return 0, noSolution()
	}
	delta := math.Sqrt(discordant) * (za*math.Sqrt(fn64) + zb*math.Sqrt(disc)) / (fn64 + zb*zb)
	if delta > discordant {
		return 0, noSolution()
	}
	return delta, nil
}
