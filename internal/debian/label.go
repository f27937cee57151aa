package debian

import "github.com/esrkit/esrkit/esr"

// Label is what the gold value sequence of one key says, in time order: its
// stratum, the value now in force and the one before it.
//
// The labeller reads only the sequence of header and trailer values (exact
// strings); it shares no code and no rule with the relation scorers or the
// memory classes the benchmark tests, which read atoms and prose.
type Label struct {
	Phenomenon esr.Phenomenon
	// Kind refines the stratum: "pure-mono" (one value throughout),
	// "mono-deprecated" (the value changed, none returned),
	// "current-returns" (reverted_revert whose current value is one that
	// held before another: the paper's A → B → A), "earlier-return"
	// (reverted_revert elsewhere in the sequence, current value new).
	Kind string
	// Current is the last value; CurrentFrom is the index where its final
	// run starts (the run is [CurrentFrom, len)).
	Current     string
	CurrentFrom int
	// Prior is the value of the run before the final one, [PriorFrom,
	// CurrentFrom); HasPrior is false when the value never changed.
	Prior     string
	PriorFrom int
	HasPrior  bool
	// Changes counts value changes between neighbours; Distinct counts
	// distinct values.
	Changes, Distinct int
}

// Labels in Kind.
const (
	KindPureMono       = "pure-mono"
	KindMonoDeprecated = "mono-deprecated"
	KindCurrentReturns = "current-returns"
	KindEarlierReturn  = "earlier-return"
)

// LabelSequence labels a non-empty value sequence (time order). The stratum
// is spec §8's mining rule, read off the sequence directly: reverted_revert
// when some value returns after a different one held (v_i, v_j ≠ v_i, v_k =
// v_i with i < j < k), monotonic otherwise. No refines: a Debian upload's
// version, suite, urgency or uploader never partly keeps the one before
// (the rule's substring test would call "1.2-1+deb12u1" a refinement of
// "1.2-1"; it is a new upload). No cross-source conflict: one changelog is
// one source, and its order is the order of its trailers' dates.
func LabelSequence(vals []string) Label {
	l := Label{Phenomenon: esr.Monotonic, Kind: KindPureMono}
	if len(vals) == 0 {
		return l
	}
	// left holds the values that have held and then been replaced.
	left := map[string]bool{}
	seen := map[string]bool{vals[0]: true}
	returned := false
	for i := 1; i < len(vals); i++ {
		if vals[i] == vals[i-1] {
			continue
		}
		l.Changes++
		left[vals[i-1]] = true
		if left[vals[i]] {
			returned = true
		}
		seen[vals[i]] = true
	}
	l.Distinct = len(seen)
	n := len(vals)
	l.Current = vals[n-1]
	l.CurrentFrom = n - 1
	for l.CurrentFrom > 0 && vals[l.CurrentFrom-1] == l.Current {
		l.CurrentFrom--
	}
	if l.CurrentFrom > 0 {
		l.HasPrior = true
		l.Prior = vals[l.CurrentFrom-1]
		l.PriorFrom = l.CurrentFrom - 1
		for l.PriorFrom > 0 && vals[l.PriorFrom-1] == l.Prior {
			l.PriorFrom--
		}
	}
	switch {
	case returned:
		l.Phenomenon = esr.RevertedRevert
		l.Kind = KindEarlierReturn
		for _, v := range vals[:l.CurrentFrom] {
			if v == l.Current {
				l.Kind = KindCurrentReturns
				break
			}
		}
	case l.Changes > 0:
		l.Kind = KindMonoDeprecated
	}
	return l
}
