package eval

import (
	"slices"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/reader"
)

// Filter keeps an outcome row or not.
type Filter func(*Outcome) bool

// all keeps every row.
func all(*Outcome) bool { return true }

// Phenomenon keeps rows of the given strata.
func Phenomenon(p ...esr.Phenomenon) Filter {
	return func(o *Outcome) bool { return slices.Contains(p, o.Phenomenon) }
}

// source keeps rows of the given sources.
func source(s ...string) Filter {
	return func(o *Outcome) bool { return slices.Contains(s, o.Source) }
}

// Family keeps rows of the given answer families.
func Family(f ...reader.Family) Filter {
	return func(o *Outcome) bool { return slices.Contains(f, o.Family) }
}

// QueryType keeps rows of the given query types.
func QueryType(q ...esr.QueryType) Filter {
	return func(o *Outcome) bool { return slices.Contains(q, o.QueryType) }
}

// QIDs keeps rows whose qid is in the set.
func QIDs(set map[string]bool) Filter {
	return func(o *Outcome) bool { return set[o.QID] }
}

// And keeps rows every filter keeps.
func And(fs ...Filter) Filter {
	return func(o *Outcome) bool {
		for _, f := range fs {
			if f != nil && !f(o) {
				return false
			}
		}
		return true
	}
}

// Select returns the rows f keeps.
func Select(rows []Outcome, f Filter) []Outcome {
	if f == nil {
		return append([]Outcome(nil), rows...)
	}
	// Counted first: an outcome is large, and growing by append copied a
	// deployed suite's rows several times over.
	n := 0
	for i := range rows {
		if f(&rows[i]) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Outcome, 0, n)
	for i := range rows {
		if f(&rows[i]) {
			out = append(out, rows[i])
		}
	}
	return out
}

// Distinct lists the distinct values of field over rows, in first-seen order.
func Distinct[T comparable](rows []Outcome, field func(*Outcome) T) []T {
	seen := map[T]bool{}
	var out []T
	for i := range rows {
		v := field(&rows[i])
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// SnapshotIn keeps the snapshot questions of stratum p.
func SnapshotIn(p esr.Phenomenon) Filter {
	return And(QueryType(esr.Snapshot), Phenomenon(p))
}

// RevertedRevertSnapshot keeps the reverted-revert snapshot questions: the
// rows of the §4.1 headline and of Table 2.
var RevertedRevertSnapshot = SnapshotIn(esr.RevertedRevert)
