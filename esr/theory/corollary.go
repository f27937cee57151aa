package theory

import (
	"fmt"
	"math/rand/v2"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// GapSplit is Corollary 1's split of a fine-vs-coarse accuracy gap.
type GapSplit struct {
	// OracleF and OracleC are the accuracies of the fine (F) and coarse (C)
	// arms with exact relations: 1 − R*_F and 1 − R*_C.
	OracleF, OracleC float64
	// AccF and AccC are the deployed accuracies (e.g. under the rule scorer).
	AccF, AccC float64
	// Gap is Acc(F) − Acc(C).
	Gap float64
	// Beta is β_{C←F} = R*_C − R*_F = OracleF − OracleC, the oracle benefit
	// of fine typing; ≥ 0 when F emulates C, and 0 on snapshot queries by
	// Proposition 2b.
	Beta float64
	// EF and EC are the implementation excess risks R_A − R*_A
	// (= oracle accuracy − deployed accuracy).
	EF, EC float64
	// Kappa is κ_{F←C} = E_F − E_C, fine's extra implementation cost.
	Kappa float64
	// Sources says where each input came from, parallel to (OracleF,
	// OracleC, AccF, AccC): e.g. "measured: oracle reader, gold relations,
	// n = 900" or "assumed". Empty entries are shown as "input".
	Sources [4]string
}

// Corollary1 instantiates Corollary 1 (within-tier fine-vs-coarse
// threshold): from the fine and coarse accuracies under oracle relations and
// under the deployed relation source it returns the decomposition
//
//	Acc(F) − Acc(C) = β − κ,   β = R*_C − R*_F,   κ = E_F − E_C,
//
// an identity, since accuracy is one minus risk. Fine beats coarse iff its
// oracle benefit β exceeds its extra implementation cost κ; on snapshot
// queries P2b sets β = 0, so the gap is −κ.
func Corollary1(oracleF, oracleC, accF, accC float64) GapSplit {
	d := GapSplit{OracleF: oracleF, OracleC: oracleC, AccF: accF, AccC: accC}
	d.Gap = accF - accC
	d.Beta = oracleF - oracleC
	d.EF, d.EC = oracleF-accF, oracleC-accC
	d.Kappa = d.EF - d.EC
	return d
}

// corollary1Noise runs Corollary 1 on n seeded single-source histories of one
// key (each step restates the value, reverts to an earlier one or sets a new
// one; the gold snapshot is the last value) with snapshot queries. F is
// fine-ledger, C is coarse-retain. The oracle arms use relate.Oracle (whose
// fallback, SAME_STATE for equal states and SUPERSEDES otherwise, is exactly
// the gold relation of such a history); the deployed arms use the same
// oracle wrapped in relate.RelationNoise at level p with one seed for both
// arms, as in the paper's §4.2 sweep. β is 0 (P2b: both arms recover Π), so
// the gap is −κ, the price each arm pays for the corrupted labels.
func corollary1Noise(n int, p float64, seed uint64) GapSplit {
	rng := rand.New(rand.NewPCG(seed, 0xc1))
	oracle := relate.Oracle{}
	noisy := relate.RelationNoise{Inner: oracle, P: p, Seed: seed}
	var okOF, okOC, okF, okC int
	for i := 0; i < n; i++ {
		s, atoms := history(rng, fmt.Sprintf("h%05d", i), 2+rng.IntN(9))
		q := esr.Query{Type: esr.Snapshot, Key: atoms[0].Key()}
		gold := esr.Says(atoms[len(atoms)-1].Display())
		score := func(class memory.Class, r esr.Relator, ok *int) {
			if correct(memory.MustBuild(memory.SpecOf(class), s, atoms, memory.Options{Relator: r}).Answer(q), gold) {
				*ok++
			}
		}
		score(memory.FineLedger, oracle, &okOF)
		score(memory.CoarseRetain, oracle, &okOC)
		score(memory.FineLedger, noisy, &okF)
		score(memory.CoarseRetain, noisy, &okC)
	}
	return Corollary1(acc(okOF, n), acc(okOC, n), acc(okF, n), acc(okC, n))
}

// history draws one key's single-source history of n atoms.
func history(rng *rand.Rand, id string, n int) (*esr.Stream, []esr.Atom) {
	var evs []bench.Event
	var seen []string
	cur := "v0"
	for i := 0; i < n; i++ {
		switch r := rng.IntN(10); {
		case i == 0:
		case r < 3: // restate
		case r < 5 && len(seen) > 1: // revert to an earlier value
			cur = seen[rng.IntN(len(seen))]
		default:
			cur = fmt.Sprintf("v%d", rng.IntN(30))
		}
		seen = append(seen, cur)
		evs = append(evs, bench.Event{ID: fmt.Sprintf("e%d", i+1), Date: fmt.Sprintf("2024-01-%02dT00:00:00Z", i+1),
			Actor: "maintainer", Value: cur, Text: "Now " + cur + "."})
	}
	return build(id, esr.Key{Entity: "x", Attribute: "a"}, evs)
}
