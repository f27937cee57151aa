package eval

import (
	"fmt"
)

// This file holds the noise sweeps of §4.2: the axes, the condition each
// level's rows carry, and fine − coarse at each level.

// NoiseAxis is one corruption axis of §4.2.
type NoiseAxis string

const (
	RelationNoiseAxis NoiseAxis = "relation-noise"
	AtomDropoutAxis   NoiseAxis = "atom-dropout"
)

// SweepComparisons is fine − coarse at each level of a sweep's rows.
func SweepComparisons(rows []Outcome, axis NoiseAxis, levels []float64, opt StatOptions) []Comparison {
	var out []Comparison
	for _, p := range levels {
		c, err := Compare(rows, "fine − coarse", fineLedger, coarseRetain, Variants(NoiseVariant(string(axis), p)), opt)
		if err != nil {
			continue
		}
		c.Scope = fmt.Sprintf("%.1f", p)
		out = append(out, c)
	}
	return out
}

// AtLevel returns the comparison of a sweep at level p, if any.
func AtLevel(cs []Comparison, p float64) (Comparison, bool) {
	for _, c := range cs {
		if c.Scope == fmt.Sprintf("%.1f", p) {
			return c, true
		}
	}
	return Comparison{}, false
}
