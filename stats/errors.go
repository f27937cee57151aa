package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Data-dependent errors. Functions wrap them with context (function name and
// index), so test with errors.Is.
var (
	// ErrEmpty reports empty input (no pairs, no observations, zero total count).
	ErrEmpty = errors.New("stats: empty input")
	// ErrNonFinite reports a NaN or ±Inf value in the input.
	ErrNonFinite = errors.New("stats: NaN or infinite value")
	// ErrNotBinary reports a value other than 0 or 1 given to a binary-outcome function.
	ErrNotBinary = errors.New("stats: value is not 0 or 1")
	// ErrNegativeCount reports a negative count in a table.
	ErrNegativeCount = errors.New("stats: negative count")
	// ErrKappaUndefined reports a table whose expected agreement is 1 (both
	// raters used one and the same single category), where κ is 0/0.
	ErrKappaUndefined = errors.New("stats: kappa undefined: expected agreement is 1")
	// ErrNoSolution reports that no value in a function's admissible range
	// solves its equation, e.g. no effect size reaches the requested power.
	ErrNoSolution = errors.New("stats: no solution")
)

// newRand returns the package's deterministic generator for seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }

func checkPaired(fn string, a, b int) {
	if a != b {
		panic(fmt.Sprintf("stats: %s: length mismatch: %d != %d", fn, a, b))
	}
}

func checkLevel(fn string, level float64) {
	if !(level > 0 && level < 1) {
		panic(fmt.Sprintf("stats: %s: level %v outside (0, 1)", fn, level))
	}
}

func checkResamples(fn string, B int) {
	if B < 1 {
		panic(fmt.Sprintf("stats: %s: B = %d < 1", fn, B))
	}
}

// pairedDiffs returns d_i = a_i − b_i, or an error on empty or non-finite input.
func pairedDiffs(fn string, a, b []float64) ([]float64, error) {
	if len(a) == 0 {
		return nil, fmt.Errorf("%w: %s: no pairs", ErrEmpty, fn)
	}
	d := make([]float64, len(a))
	for i := range a {
		if err := finite(fn, "a", i, a[i]); err != nil {
			return nil, err
		}
		if err := finite(fn, "b", i, b[i]); err != nil {
			return nil, err
		}
		d[i] = a[i] - b[i]
		if math.IsInf(d[i], 0) {
			return nil, fmt.Errorf("%w: %s: a[%d] − b[%d] overflows", ErrNonFinite, fn, i, i)
		}
	}
	return d, nil
}

func finite(fn, name string, i int, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%w: %s: %s[%d] = %v", ErrNonFinite, fn, name, i, v)
	}
	return nil
}

// discordant counts n10 = #{a_i=1, b_i=0} and n01 = #{a_i=0, b_i=1}, or
// reports the first value that is not 0 or 1.
func discordant(fn string, a, b []float64) (n10, n01 int, err error) {
	if len(a) == 0 {
		return 0, 0, fmt.Errorf("%w: %s: no pairs", ErrEmpty, fn)
	}
	for i := range a {
		if a[i] != 0 && a[i] != 1 {
			return 0, 0, fmt.Errorf("%w: %s: a[%d] = %v", ErrNotBinary, fn, i, a[i])
		}
		if b[i] != 0 && b[i] != 1 {
			return 0, 0, fmt.Errorf("%w: %s: b[%d] = %v", ErrNotBinary, fn, i, b[i])
		}
		switch {
		case a[i] > b[i]:
			n10++
		case a[i] < b[i]:
			n01++
		}
	}
	return n10, n01, nil
}

// IsBinary reports whether every value of x is exactly 0 or 1 (true for an
// empty slice). Use it to choose between the general and the binary paths.
func IsBinary(x []float64) bool {
	for _, v := range x {
		if v != 0 && v != 1 {
			return false
		}
	}
	return true
}
