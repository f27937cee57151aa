package eval

import (
	"fmt"
	"math"

	"github.com/esrkit/esrkit/esr/relate"
)

// This file holds the noise sweeps of §4.2: the axes, the condition each
// level's rows carry, and fine − coarse at each level.

// NoiseAxis is one corruption axis of §4.2.
type NoiseAxis string

const (
	RelationNoiseAxis NoiseAxis = "relation-noise"
	AtomDropoutAxis   NoiseAxis = "atom-dropout"
)

// NoiseSeed is the run seed of the noise suite's draws (Table 13's
// sweeps) and of `esr eval/run --relation-noise` unless told otherwise:
// the same seed and level corrupt the same atom pairs.
const NoiseSeed = 2607

// checkNoiseLevel accepts a corruption probability in [0, 1] with at most
// one decimal: a row's condition keeps one (Variant), so two levels that
// round alike would share it.
func checkNoiseLevel(p float64) error {
	if !(p >= 0 && p <= 1) || math.Abs(p*10-math.Round(p*10)) > 1e-9 {
		return fmt.Errorf("noise level %v: want a probability in [0, 1] with one decimal (0, 0.1, …, 1), as a row's condition records it", p)
	}
	return nil
}

// UnderRelationNoise returns cfg with every predicted relation label
// replaced, with probability p, by a uniformly random other label:
// relate.RelationNoise over cfg.Options.Relator (the rule scorer when
// nil), the draw seeded per atom pair as in the noise suite (paper §4.2,
// spec §7). The level is recorded in every row's condition (cfg.Variant,
// beside any condition cfg has), so rows at two levels never share an
// identity and a run at one level never resumes another's rows. p = 0
// returns cfg unchanged.
func UnderRelationNoise(cfg Config, p float64, seed uint64) (Config, error) {
	if err := checkNoiseLevel(p); err != nil {
		return cfg, err
	}
	if p == 0 {
		return cfg, nil
	}
	v, err := cfg.Variant.Beside(Noise{Kind: string(RelationNoiseAxis), P: p})
	if err != nil {
		return cfg, err
	}
	inner := cfg.Options.Relator
	if inner == nil {
		inner = relate.Rule{}
	}
	cfg.Variant = v
	cfg.Options.Relator = relate.RelationNoise{Inner: inner, P: p, Seed: seed}
	return cfg, nil
}

// TermFineCoarse is the noise sweeps' term: fine-ledger − coarse-retain.
var TermFineCoarse = Term{"fine − coarse", fineLedger, coarseRetain, ""}

// SweepComparisons is fine − coarse at each level of a sweep's rows, each
// scoped to its level's condition (NoiseVariant).
func SweepComparisons(rows []Outcome, axis NoiseAxis, levels []float64, opt StatOptions) []Comparison {
	var out []Comparison
	for _, p := range levels {
		v := NoiseVariant(string(axis), p)
		c, err := Compare(rows, TermFineCoarse, Variants(v), opt)
		if err != nil {
			continue
		}
		c.Variant = v
		out = append(out, c)
	}
	return out
}

// AtLevel returns the comparison of a sweep at level p (compared at the one
// decimal a condition keeps), if any.
func AtLevel(cs []Comparison, p float64) (Comparison, bool) {
	for _, c := range cs {
		if c.Variant.Equal(NoiseVariant(c.Variant.Noise.Kind, p)) {
			return c, true
		}
	}
	return Comparison{}, false
}
