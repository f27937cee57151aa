package stats

// LabelCounts counts the occurrences of each distinct label in x. labels holds
// the distinct labels in order of first appearance and counts[i] the number of
// times labels[i] occurs.
func LabelCounts[T comparable](x []T) (counts []float64, labels []T) {
	index := make(map[T]int)
	for _, v := range x {
		i, ok := index[v]
		if !ok {
			i = len(labels)
			index[v] = i
			labels = append(labels, v)
			counts = append(counts, 0)
		}
		counts[i]++
	}
	return counts, labels
}

// ContingencyTable cross-tabulates paired labels: table[i][j] counts the pairs
// with x = xLabels[i] and y = yLabels[j]; labels are in order of first
// appearance. It panics if len(x) != len(y).
func ContingencyTable[X, Y comparable](x []X, y []Y) (table [][]float64, xLabels []X, yLabels []Y) {
	checkPaired("ContingencyTable", len(x), len(y))
	xi := make(map[X]int)
	yi := make(map[Y]int)
	type cell struct{ i, j int }
	cells := make([]cell, len(x))
	for k := range x {
		i, ok := xi[x[k]]
		if !ok {
			i = len(xLabels)
			xi[x[k]] = i
			xLabels = append(xLabels, x[k])
		}
		j, ok := yi[y[k]]
		if !ok {
			j = len(yLabels)
			yi[y[k]] = j
			yLabels = append(yLabels, y[k])
		}
		cells[k] = cell{i, j}
	}
	table = make([][]float64, len(xLabels))
	for i := range table {
		table[i] = make([]float64, len(yLabels))
	}
	for _, c := range cells {
		table[c.i][c.j]++
	}
	return table, xLabels, yLabels
}

// contingency is ContingencyTable over a shared label set when square is true
// (the table needed for agreement: rows and columns index the same labels).
func contingency[T comparable](x, y []T, square bool) ([][]float64, []T, []T) {
	if !square {
		return ContingencyTable(x, y)
	}
	index := make(map[T]int)
	var labels []T
	add := func(v T) int {
		i, ok := index[v]
		if !ok {
			i = len(labels)
			index[v] = i
			labels = append(labels, v)
		}
		return i
	}
	is := make([]int, len(x))
	js := make([]int, len(x))
	for k := range x {
		is[k] = add(x[k])
		js[k] = add(y[k])
	}
	table := make([][]float64, len(labels))
	for i := range table {
		table[i] = make([]float64, len(labels))
	}
	for k := range is {
		table[is[k]][js[k]]++
	}
	return table, labels, labels
}
