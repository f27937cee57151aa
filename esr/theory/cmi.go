package theory

import (
	"github.com/esrkit/esrkit/stats"
)

// CMI is a conditional mutual information I(X; Y | Z) in bits, estimated
// plug-in and with the Miller–Madow correction.
type CMI struct {
	PlugIn      float64
	MillerMadow float64
	Cells       int // distinct values of Z
}

// ConditionalMI estimates I(X; Y | Z) = Σ_z p(z) I(X; Y | Z = z) from paired
// samples: the samples are grouped by z, stats.MutualInformationLabels gives
// each group's plug-in and Miller–Madow MI, and the groups are weighted by
// their share of the samples. Within a group where X is constant both
// estimates are exactly 0 (the X and joint tables coincide), so a
// deterministic X = f(Z) gives exactly 0, not a rounding residue. It panics
// if the slices differ in length and returns stats.ErrEmpty's error for no
// samples.
func ConditionalMI[X, Y, Z comparable](x []X, y []Y, z []Z) (CMI, error) {
	if len(x) != len(y) || len(x) != len(z) {
		panic("theory: ConditionalMI needs paired samples")
	}
	if len(x) == 0 {
		_, err := stats.MutualInformationLabels(x, y)
		return CMI{}, err
	}
	index := map[Z]int{}
	var groups [][]int
	for i, v := range z {
		g, ok := index[v]
		if !ok {
			g = len(groups)
			index[v] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	res := CMI{Cells: len(groups)}
	n := float64(len(x))
	for _, g := range groups {
		gx, gy := make([]X, len(g)), make([]Y, len(g))
		for k, i := range g {
			gx[k], gy[k] = x[i], y[i]
		}
		mi, err := stats.MutualInformationLabels(gx, gy)
		if err != nil {
			return res, err
		}
		w := float64(len(g)) / n
		res.PlugIn += w * mi.MI
		res.MillerMadow += w * mi.MIMM
	}
	return res, nil
}

// ConditionalEntropy is the plug-in H(X | Z) = Σ_z p(z) H(X | Z = z) in bits.
func ConditionalEntropy[X, Z comparable](x []X, z []Z) float64 {
	if len(x) != len(z) {
		panic("theory: ConditionalEntropy needs paired samples")
	}
	table, _, _ := stats.ContingencyTable(z, x)
	h := 0.0
	n := float64(len(x))
	for _, row := range table {
		m := 0.0
		for _, c := range row {
			m += c
		}
		h += m / n * stats.Entropy(row)
	}
	return h
}
