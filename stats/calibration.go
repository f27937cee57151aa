package stats

import (
	"fmt"
	"math"
)

// AbstainCalibration compares binary abstain decisions with gold abstain
// labels (paper §3 and Table 16).
type AbstainCalibration struct {
	// Table[d][g] counts items with decision d and gold g, index 1 = abstain,
	// 0 = answer: Table[1][1] abstained correctly, Table[1][0] abstained when an
	// answer was due, Table[0][1] answered when abstention was due.
	Table     [2][2]int
	N         int
	Agreement float64 // (Table[0][0] + Table[1][1]) / N
	// AgreementLo, AgreementHi is the Wilson interval of Agreement at Kappa.Level.
	AgreementLo, AgreementHi float64
	Kappa                    Kappa // Cohen's κ on Table, with its interval
}

// CalibrateAbstain returns the 2×2 table of abstain decisions against gold
// abstain labels, the agreement rate p_o with its Wilson interval, and Cohen's
// κ on the same table (CohenKappaTable) with its Fleiss–Cohen–Everitt interval,
// all at the given level.
//
// It panics if len(abstained) != len(gold) or level is outside (0, 1). It
// returns an error wrapping ErrEmpty for no items; when every decision and every
// gold label is the same (κ = 0/0) it returns the table and agreement with NaN κ
// fields and an error wrapping ErrKappaUndefined.
func CalibrateAbstain(abstained, gold []bool, level float64) (AbstainCalibration, error) {
	const fn = "CalibrateAbstain"
	checkPaired(fn, len(abstained), len(gold))
	checkLevel(fn, level)
	nan := math.NaN()
	res := AbstainCalibration{N: len(gold), Agreement: nan, AgreementLo: nan, AgreementHi: nan,
		Kappa: Kappa{Level: level, Kappa: nan, SE: nan, Lo: nan, Hi: nan, Observed: nan, Expected: nan}}
	if len(gold) == 0 {
		return res, fmt.Errorf("%w: %s: no items", ErrEmpty, fn)
	}
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	for i := range gold {
		res.Table[b(abstained[i])][b(gold[i])]++
	}
	agree := res.Table[0][0] + res.Table[1][1]
	res.Agreement = float64(agree) / float64(res.N)
	res.AgreementLo, res.AgreementHi = WilsonInterval(agree, res.N, level)
	t := [][]float64{
		{float64(res.Table[0][0]), float64(res.Table[0][1])},
		{float64(res.Table[1][0]), float64(res.Table[1][1])},
	}
	k, err := CohenKappaTable(t, level)
	res.Kappa = k
	return res, err
}
