package eval

import (
	"context"
	"sort"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// Evaluate runs Run into memory and returns the rows sorted by (qid,
// memory, reader, condition), so tables built from them do not depend on
// scheduling.
func Evaluate(ctx context.Context, b *bench.Bench, cfg Config) ([]Outcome, error) {
	var sink SliceSink
	if err := Run(ctx, b, cfg, &sink); err != nil {
		return nil, err
	}
	sortOutcomes(sink.Rows)
	return sink.Rows, nil
}

// sortOutcomes orders rows by (qid, memory, reader, condition).
func sortOutcomes(rows []Outcome) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := &rows[i], &rows[j]
		if a.QID != b.QID {
			return a.QID < b.QID
		}
		if am, bm := a.Memory.String(), b.Memory.String(); am != bm {
			return am < bm
		}
		if ar, br := a.Reader.String(), b.Reader.String(); ar != br {
			return ar < br
		}
		return a.Variant.String() < b.Variant.String()
	})
}

// PureMonotonic is the set of monotonic QAs with no deprecated evidence (the
// "pure-no-revision half" of the paper's §4.4 and Table 11).
func PureMonotonic(b *bench.Bench) map[string]bool {
	out := map[string]bool{}
	for _, q := range b.QAs {
		if q.Phenomenon == esr.Monotonic && len(q.GoldDeprecatedEventIDs) == 0 {
			out[q.QID] = true
		}
	}
	return out
}
