package eval

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// Evaluate runs Run into memory and returns the rows sorted by (qid,
// memory, reader, condition), so tables built from them do not depend on
// scheduling.
func Evaluate(ctx context.Context, b *bench.Bench, cfg Config) ([]Outcome, error) {
	// One row per selected QA × memory × reader: sized once, since growing
	// a slice of some 300,000 rows copies it over and over.
	sink := SliceSink{Rows: make([]Outcome, 0, len(selected(b, cfg))*len(cfg.Memories)*len(cfg.Readers))}
	if err := Run(ctx, b, cfg, &sink); err != nil {
		return nil, err
	}
	return sortedOutcomes(sink.Rows), nil
}

// printed is k.String(), printed once per distinct k (kept in m).
func printed[K interface {
	comparable
	String() string
}](m map[K]string, k K) string {
	n, ok := m[k]
	if !ok {
		n = k.String()
		m[k] = n
	}
	return n
}

// sortedOutcomes is rows ordered by (qid, memory, reader, condition), rows
// that tie keeping their order. It sorts small keys and moves each row
// once: a row is some 600 bytes, and names are printed once per spec.
func sortedOutcomes(rows []Outcome) []Outcome {
	type key struct {
		qid, mem, rdr, cond string
		i                   int
	}
	mems, rdrs, conds := map[memory.Spec]string{}, map[reader.Spec]string{}, map[Variant]string{}
	keys := make([]key, len(rows))
	for i := range rows {
		o := &rows[i]
		keys[i] = key{o.QID, printed(mems, o.Memory), printed(rdrs, o.Reader), printed(conds, o.Variant), i}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(strings.Compare(a.qid, b.qid), strings.Compare(a.mem, b.mem),
			strings.Compare(a.rdr, b.rdr), strings.Compare(a.cond, b.cond), cmp.Compare(a.i, b.i))
	})
	out := make([]Outcome, len(rows))
	for j, k := range keys {
		out[j] = rows[k.i]
	}
	return out
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
