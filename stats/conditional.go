package stats

// ConditionalMI is a conditional mutual information I(X; Y | Z) in bits,
// estimated plug-in and with the Miller–Madow correction.
type ConditionalMI struct {
	PlugIn      float64
	MillerMadow float64
	Cells       int // distinct values of Z
}

// ConditionalMutualInformation estimates
//
//	I(X; Y | Z) = Σ_z p(z) · I(X; Y | Z = z)
//
// in bits from paired samples: the samples are grouped by z,
// MutualInformationLabels gives each group's plug-in and Miller–Madow MI
// (Miller 1955), and the groups are weighted by their share of the samples
// (Cover & Thomas 2006, Elements of Information Theory, §2.5). Within a group
// where X is constant both estimates are exactly 0, so a deterministic
// X = f(Z) gives exactly 0, not a rounding residue.
//
// It panics if the slices differ in length and returns an error wrapping
// ErrEmpty for no samples.
func ConditionalMutualInformation[X, Y, Z comparable](x []X, y []Y, z []Z) (ConditionalMI, error) {
	if len(x) != len(y) || len(x) != len(z) {
		panic("stats: ConditionalMutualInformation needs paired samples of equal length")
	}
	if len(x) == 0 {
		_, err := MutualInformationLabels(x, y)
		return ConditionalMI{}, err
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
	res := ConditionalMI{Cells: len(groups)}
	n := float64(len(x))
	for _, g := range groups {
		gx, gy := make([]X, len(g)), make([]Y, len(g))
		for k, i := range g {
			gx[k], gy[k] = x[i], y[i]
		}
		mi, err := MutualInformationLabels(gx, gy)
		if err != nil {
			return res, err
		}
		w := float64(len(g)) / n
		res.PlugIn += w * mi.MI
		res.MillerMadow += w * mi.MIMM
	}
	return res, nil
}

// ConditionalEntropy is the plug-in H(X | Z) = Σ_z p(z) H(X | Z = z) in
// bits (Cover & Thomas 2006, §2.2). It panics if the slices differ in
// length.
func ConditionalEntropy[X, Z comparable](x []X, z []Z) float64 {
	if len(x) != len(z) {
		panic("stats: ConditionalEntropy needs paired samples of equal length")
	}
	table, _, _ := ContingencyTable(z, x)
	h := 0.0
	n := float64(len(x))
	for _, row := range table {
		m := 0.0
		for _, c := range row {
			m += c
		}
		h += m / n * Entropy(row)
	}
	return h
}
