package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
)

// Entropy returns the plug-in (maximum-likelihood) Shannon entropy in bits of
// the distribution given by counts,
//
//	H = −Σ_i (c_i/N) log2(c_i/N),   N = Σ_i c_i,
//
// with 0·log 0 = 0 (Cover & Thomas 2006, Elements of Information Theory, §2.1),
// computed with gonum's stat.Entropy; it equals scipy.stats.entropy(counts,
// base=2). Counts need not be integers. Entropy returns NaN for an empty slice,
// a zero total, or a negative, NaN or infinite count.
func Entropy(counts []float64) float64 {
	n, ok := countsTotal(counts)
	if !ok {
		return math.NaN()
	}
	p := make([]float64, len(counts))
	for i, c := range counts {
		p[i] = c / n
	}
	return stat.Entropy(p) / math.Ln2
}

// EntropyMillerMadow returns the Miller–Madow bias-corrected entropy in bits
// (Miller 1955, "Note on the bias of information estimates", in Information
// Theory in Psychology, pp. 95–100),
//
//	H_MM = H_plugin + (m − 1)/(2N ln 2),
//
// where m is the number of occupied cells (c_i > 0) and N = Σ c_i. It returns
// NaN where Entropy does.
func EntropyMillerMadow(counts []float64) float64 {
	h := Entropy(counts)
	if math.IsNaN(h) {
		return h
	}
	n, _ := countsTotal(counts)
	m := 0
	for _, c := range counts {
		if c > 0 {
			m++
		}
	}
	return h + float64(m-1)/(2*n*math.Ln2)
}

// countsTotal returns Σ counts and whether the counts are a usable
// distribution (non-empty, finite, non-negative, positive total).
func countsTotal(counts []float64) (float64, bool) {
	var n float64
	for _, c := range counts {
		if !(c >= 0) || math.IsInf(c, 0) {
			return 0, false
		}
		n += c
	}
	return n, n > 0
}

// MutualInformation holds the plug-in and Miller–Madow entropies (bits) of two
// discrete variables X, Y, their joint, and their mutual information.
type MutualInformation struct {
	N                 float64 // total count
	HX, HY, HXY, MI   float64 // plug-in; MI = HX + HY − HXY
	HXMM, HYMM, HXYMM float64 // Miller–Madow corrected entropies
	MIMM              float64 // HXMM + HYMM − HXYMM; may be negative
}

// MutualInformationTable returns the entropies and mutual information, in bits,
// of the joint distribution given by the contingency table of counts
// table[i][j] = #{X = i, Y = j}:
//
//	I(X;Y) = H(X) + H(Y) − H(X,Y)          (plug-in; Cover & Thomas 2006, §2.4)
//	I_MM   = H_MM(X) + H_MM(Y) − H_MM(X,Y)  (Miller–Madow, each term corrected
//	                                          with its own number of occupied cells)
//
// H(X) and H(Y) are the entropies of the row and column sums and H(X,Y) that of
// the cells. The plug-in MI equals sklearn.metrics.mutual_info_score(
// contingency=table)/ln 2; the Miller–Madow MI can be negative on small samples.
//
// It panics if the rows have different lengths and returns an error wrapping
// ErrNegativeCount or ErrNonFinite for a bad count and ErrEmpty for a zero total.
func MutualInformationTable(table [][]float64) (MutualInformation, error) {
	const fn = "MutualInformationTable"
	cols := 0
	if len(table) > 0 {
		cols = len(table[0])
	}
	for i, row := range table {
		if len(row) != cols {
			panic(fmt.Sprintf("stats: %s: ragged table: row %d has %d columns, want %d", fn, i, len(row), cols))
		}
	}
	nan := math.NaN()
	res := MutualInformation{HX: nan, HY: nan, HXY: nan, MI: nan, HXMM: nan, HYMM: nan, HXYMM: nan, MIMM: nan}
	n, err := tableTotal(fn, table)
	if err != nil {
		return res, err
	}
	res.N = n
	rows := make([]float64, len(table))
	colSums := make([]float64, cols)
	cells := make([]float64, 0, len(table)*cols)
	for i, row := range table {
		for j, v := range row {
			rows[i] += v
			colSums[j] += v
			cells = append(cells, v)
		}
	}
	res.HX, res.HY, res.HXY = Entropy(rows), Entropy(colSums), Entropy(cells)
	res.MI = res.HX + res.HY - res.HXY
	res.HXMM, res.HYMM, res.HXYMM = EntropyMillerMadow(rows), EntropyMillerMadow(colSums), EntropyMillerMadow(cells)
	res.MIMM = res.HXMM + res.HYMM - res.HXYMM
	return res, nil
}

// MutualInformationLabels is MutualInformationTable on the contingency table
// of paired labels x[i], y[i] (any comparable types). The plug-in MI equals
// sklearn.metrics.mutual_info_score(x, y)/ln 2.
//
// It panics if len(x) != len(y) and returns an error wrapping ErrEmpty for no
// pairs.
func MutualInformationLabels[X, Y comparable](x []X, y []Y) (MutualInformation, error) {
	checkPaired("MutualInformationLabels", len(x), len(y))
	table, _, _ := ContingencyTable(x, y)
	if len(x) == 0 {
		table = nil
	}
	return MutualInformationTable(table)
}
