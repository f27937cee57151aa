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

// sortedOutcomes is rows ordered by (qid, memory, reader, condition), rows
// that tie keeping their order. It sorts small keys and moves each row
// once: a row is some 600 bytes. Each field is ranked once per distinct
// value (names printed once, in their string order), so the sort compares
// integers, not strings.
func sortedOutcomes(rows []Outcome) []Outcome {
	type key struct{ q, m, r, c, i int32 }
	keys := make([]key, len(rows))
	qids := map[string]int32{}
	var mems []memory.Spec
	var rdrs []reader.Spec
	var conds []Variant
	memID, rdrID, condID := map[memory.Spec]int32{}, map[reader.Spec]int32{}, map[Variant]int32{}
	var qnames []string
	for i := range rows {
		o := &rows[i]
		k := key{i: int32(i)}
		var ok bool
		if k.q, ok = qids[o.QID]; !ok {
			k.q = int32(len(qnames))
			qids[o.QID] = k.q
			qnames = append(qnames, o.QID)
		}
		// Rows come in runs of one memory, reader and condition: compare
		// with the previous row's before hashing.
		if i > 0 && o.Memory == rows[i-1].Memory {
			k.m = keys[i-1].m
		} else if k.m, ok = memID[o.Memory]; !ok {
			k.m = int32(len(mems))
			memID[o.Memory] = k.m
			mems = append(mems, o.Memory)
		}
		if i > 0 && o.Reader == rows[i-1].Reader {
			k.r = keys[i-1].r
		} else if k.r, ok = rdrID[o.Reader]; !ok {
			k.r = int32(len(rdrs))
			rdrID[o.Reader] = k.r
			rdrs = append(rdrs, o.Reader)
		}
		if i > 0 && o.Variant == rows[i-1].Variant {
			k.c = keys[i-1].c
		} else if k.c, ok = condID[o.Variant]; !ok {
			k.c = int32(len(conds))
			condID[o.Variant] = k.c
			conds = append(conds, o.Variant)
		}
		keys[i] = k
	}
	qr := ranks(qnames)
	mr := ranks(names(mems))
	rr := ranks(names(rdrs))
	cr := ranks(names(conds))
	for i := range keys {
		k := &keys[i]
		k.q, k.m, k.r, k.c = qr[k.q], mr[k.m], rr[k.r], cr[k.c]
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.q, b.q), cmp.Compare(a.m, b.m), cmp.Compare(a.r, b.r), cmp.Compare(a.c, b.c), cmp.Compare(a.i, b.i))
	})
	out := make([]Outcome, len(rows))
	for j, k := range keys {
		out[j] = rows[k.i]
	}
	return out
}

// names prints each of vs.
func names[V interface{ String() string }](vs []V) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

// ranks maps each index of ss to its rank in string order, equal strings
// sharing a rank.
func ranks(ss []string) []int32 {
	order := make([]int32, len(ss))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(ss[a], ss[b]) })
	out := make([]int32, len(ss))
	r := int32(0)
	for j, i := range order {
		if j > 0 && ss[i] != ss[order[j-1]] {
			r++
		}
		out[i] = r
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
