package eval

import "github.com/esrkit/esrkit/internal/coverage"

// LengthBin names the Table 12 bin of a stream with n events by the event
// counts it holds (coverage.LengthBins' Label: 2–5, 6, 7–10, 11–20, 21–70),
// or "" outside them.
func LengthBin(n int) string {
	i := coverage.BinOf(n)
	if i < 0 || i >= len(coverage.LengthBins) {
		return ""
	}
	return coverage.LengthBins[i].Label
}

// LengthBinLabels are the labels of Table 12's bins, shortest first, by the event counts they hold.
func LengthBinLabels() []string {
	var out []string
	for i := 1; i < 100; i++ {
		if b := LengthBin(i); b != "" && (len(out) == 0 || out[len(out)-1] != b) {
			out = append(out, b)
		}
	}
	return out
}
