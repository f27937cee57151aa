package bench

// StreamLengths maps each qid to its stream's event count.
func StreamLengths(b *Bench) map[string]int {
	out := make(map[string]int, len(b.QAs))
	for _, q := range b.QAs {
		if s := b.Stream(q.StreamID); s != nil {
			out[q.QID] = len(s.Events)
		}
	}
	return out
}

// LengthBin is one stream-length bin of the paper's Table 12. Bins are
// right-closed, as pandas.qcut prints them: a stream of n events is in the
// bin with Lo < n ≤ Hi. Paper is the bin as the paper prints it (its edges
// overlap: "5–6" then "6–10"); Label is the event counts it holds ("6",
// "7–10"), which do not.
type LengthBin struct {
	Label string `json:"label"`
	Paper string `json:"paper"`
	Lo    int    `json:"lo"`
	Hi    int    `json:"hi"`
}

// LengthBins are Table 12's bins, printed by the paper as 2–5, 5–6, 6–10,
// 10–20, 20–70 events and read right-closed: 2–5, 6, 7–10, 11–20, 21–70.
var LengthBins = []LengthBin{{"2–5", "2–5", 1, 5}, {"6", "5–6", 5, 6}, {"7–10", "6–10", 6, 10}, {"11–20", "10–20", 10, 20}, {"21–70", "20–70", 20, 70}}

// LengthBinOf is the index in LengthBins of a stream with n events, -1
// below the first bin (fewer than 2 events) and len(LengthBins) above the
// last.
func LengthBinOf(n int) int {
	if n <= LengthBins[0].Lo {
		return -1
	}
	for i, b := range LengthBins {
		if n <= b.Hi {
			return i
		}
	}
	return len(LengthBins)
}
