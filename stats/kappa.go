package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Kappa is Cohen's κ with its large-sample standard error and normal interval.
type Kappa struct {
	N        float64 // total count (number of rated items)
	Kappa    float64 // (p_o − p_e)/(1 − p_e)
	SE       float64 // Fleiss–Cohen–Everitt (1969) standard error
	Lo, Hi   float64 // κ ∓ z·SE, not clipped to [−1, 1]
	Level    float64 // confidence level of [Lo, Hi]
	Observed float64 // p_o, observed agreement
	Expected float64 // p_e, chance agreement from the margins
}

// CohenKappa returns Cohen's κ for two raters' labels r1[i], r2[i] of the same
// items; labels may be of any comparable type (strings, ints, ...), and a label
// used by only one rater is a category of its own. See CohenKappaTable for the
// formulas. κ matches sklearn.metrics.cohen_kappa_score(r1, r2).
//
// It panics if len(r1) != len(r2) or level is outside (0, 1), and returns an
// error wrapping ErrEmpty for no items and ErrKappaUndefined when both raters
// used the same single label.
func CohenKappa[T comparable](r1, r2 []T, level float64) (Kappa, error) {
	checkPaired("CohenKappa", len(r1), len(r2))
	checkLevel("CohenKappa", level)
	table, _, _ := contingency(r1, r2, true)
	return CohenKappaTable(table, level)
}

// CohenKappaTable returns Cohen's κ (Cohen 1960, Educ. Psychol. Meas. 20:37–46)
// for a square K×K agreement table of counts, table[i][j] = #{rater 1 says i,
// rater 2 says j}. With p_ij = table[i][j]/N and margins p_i. (rows) and p_.j
// (columns),
//
//	p_o = Σ_i p_ii,   p_e = Σ_i p_i.·p_.i,   κ = (p_o − p_e)/(1 − p_e).
//
// The standard error is the large-sample (non-null) one of Fleiss, Cohen &
// Everitt (1969, Psychol. Bull. 72(5):323–327):
//
//	Var(κ) = [ Σ_i p_ii (1 − (p_i. + p_.i)(1 − κ))²
//	         + (1 − κ)² Σ_{i≠j} p_ij (p_.i + p_j.)²
//	         − (κ − p_e(1 − κ))² ] / (N (1 − p_e)²),
//
// identical to var_kappa of statsmodels.stats.inter_rater.cohens_kappa, and the
// interval is κ ± z_{(1+level)/2}·SE with z the standard normal quantile.
//
// It panics if the table is not square or level is outside (0, 1). It returns
// an error wrapping ErrNegativeCount or ErrNonFinite for a bad count, ErrEmpty
// for a zero total and ErrKappaUndefined when p_e = 1.
func CohenKappaTable(table [][]float64, level float64) (Kappa, error) {
	const fn = "CohenKappaTable"
	checkLevel(fn, level)
	k := len(table)
	for i, row := range table {
		if len(row) != k {
			panic(fmt.Sprintf("stats: %s: table is not square: row %d has %d columns, want %d", fn, i, len(row), k))
		}
	}
	res := Kappa{Level: level, Kappa: math.NaN(), SE: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	n, err := tableTotal(fn, table)
	if err != nil {
		return res, err
	}
	res.N = n
	row := make([]float64, k)
	col := make([]float64, k)
	for i := range k {
		for j := range k {
			row[i] += table[i][j] / n
			col[j] += table[i][j] / n
		}
	}
	var po, pe float64
	for i := range k {
		po += table[i][i] / n
		pe += row[i] * col[i]
	}
	res.Observed, res.Expected = po, pe
	if pe >= 1 {
		return res, fmt.Errorf("%w: %s: all %v items in one category", ErrKappaUndefined, fn, n)
	}
	kappa := (po - pe) / (1 - pe)
	var termA, termB float64
	for i := range k {
		for j := range k {
			pij := table[i][j] / n
			if i == j {
				t := 1 - (row[i]+col[i])*(1-kappa)
				termA += pij * t * t
			} else {
				t := col[i] + row[j]
				termB += pij * t * t
			}
		}
	}
	termB *= (1 - kappa) * (1 - kappa)
	termC := kappa - pe*(1-kappa)
	termC *= termC
	v := (termA + termB - termC) / ((1 - pe) * (1 - pe) * n)
	se := math.Sqrt(math.Max(0, v)) // rounding can make a zero variance slightly negative
	z := distuv.UnitNormal.Quantile((1 + level) / 2)
	res.Kappa, res.SE = kappa, se
	res.Lo, res.Hi = kappa-z*se, kappa+z*se
	return res, nil
}

// tableTotal checks a table's counts and returns their sum.
func tableTotal(fn string, table [][]float64) (float64, error) {
	var n float64
	for i, row := range table {
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("%w: %s: table[%d][%d] = %v", ErrNonFinite, fn, i, j, v)
			}
			if v < 0 {
				return 0, fmt.Errorf("%w: %s: table[%d][%d] = %v", ErrNegativeCount, fn, i, j, v)
			}
			n += v
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("%w: %s: total count is 0", ErrEmpty, fn)
	}
	return n, nil
}
