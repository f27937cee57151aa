package lab

import (
	"context"
	"fmt"
	"slices"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// facetsSuite is the "facets" experiment of `esr run` and notebook
// D-debian: the cost of a single-valued key on faceted questions (a
// benchmark with faceted QAs, such as data/debian).
var facetsSuite = Suite{Name: SuiteFacets, Benches: []string{"debian"}, Doc: "beyond the paper (its limitation on faceted state): the cost of a single-valued key on faceted questions (data/debian)",
	Evaluate: facetRows,
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		cs, err := FacetCosts(rows, s.Stats)
		if err != nil {
			return nil, err
		}
		return &Result{Name: "facets", Rows: rows,
			Tables: []*eval.Table{facetTable(cs, rows, s.Stats), whereTable(rows, uploadedElsewhere(s.Bench))}}, nil
	}}

// facetClasses are the classes the faceted questions are asked of (the issue's
// fine-ledger, coarse and graphrag): each is built once per facet and once
// over single-valued keys.
var facetClasses = memory.Specs(memory.FineLedger, memory.CoarseRetain, memory.GraphRAGAbstain)

// queryTypes are the faceted questions' query types, in table order.
var queryTypes = []esr.QueryType{esr.Snapshot, esr.Provenance, esr.RelationType}

// single is the single-valued baseline's condition.
var single = eval.LabelVariant(eval.SingleValuedKey)

// facetBench is b restricted to its faceted questions (QA.Facet set); it fails
// when b has none.
func facetBench(b *bench.Bench) (*bench.Bench, error) {
	var qas []esr.QA
	for _, q := range b.QAs {
		if q.Facet != "" {
			qas = append(qas, q)
		}
	}
	if len(qas) == 0 {
		return nil, fmt.Errorf("facets: benchmark %s has no faceted questions (no QA carries a facet)", b.Dir)
	}
	fb := bench.New(b.Streams, b.Atoms, qas)
	fb.Dir, fb.Relations = b.Dir, b.Relations
	return fb, nil
}

// facetRows evaluates facetClasses on s.Bench's faceted questions twice: with a
// faceted key (the main condition) and over single-valued keys (condition
// eval.SingleValuedKey). The two arms share atoms, dates, layout and IDs;
// only the key differs.
func facetRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	fb, err := facetBench(s.Bench)
	if err != nil {
		return nil, err
	}
	s.Bench = fb
	rows, err := s.Evaluate(ctx, facetClasses, queryTypes, s.Options, eval.Variant{})
	if err != nil {
		return nil, err
	}
	opt := s.Options
	opt.MergeFacets = true
	merged, err := s.Evaluate(ctx, facetClasses, queryTypes, opt, single)
	if err != nil {
		return nil, err
	}
	return append(rows, merged...), nil
}

// FacetCosts is, for every class and query type, the paired difference
// (faceted key) − (single-valued key) over rows, pooled over reader
// families; a pair missing from either arm is left out.
func FacetCosts(rows []eval.Outcome, opt eval.StatOptions) ([]eval.Comparison, error) {
	var cs []eval.Comparison
	for _, qt := range queryTypes {
		for _, m := range facetClasses {
			f := eval.QueryType(qt)
			if len(eval.Select(rows, eval.And(f, func(o *eval.Outcome) bool { return o.Memory == m }))) == 0 {
				continue
			}
			c, err := eval.CompareVariants(rows, m, eval.Variant{}, single, f, opt)
			if err != nil {
				return nil, err
			}
			c.Family, c.QueryType = reader.Pooled, qt
			c.Label = string(qt) // sentences name the cost by its query type
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("facets: no rows of %v", facetClasses)
	}
	return cs, nil
}

// Table is the cost of the single-valued key: per query type and class,
// accuracy with a faceted key, with a single-valued key, and the paired
// difference with its interval and exact permutation p.
func facetTable(cs []eval.Comparison, rows []eval.Outcome, opt eval.StatOptions) *eval.Table {
	t := &eval.Table{ID: FacetsSingleValuedCost, Title: "What does a single-valued key cost on faceted questions?",
		Columns: []string{"query type", "class", "n", "faceted key", "single-valued key", "faceted − single", "95% CI", "p"}}
	for _, c := range cs {
		t.AddRow(string(c.QueryType), memoryOf(c), c.N, eval.PropCell(c.AccA), eval.PropCell(c.AccB), eval.SignedCell(c.Delta), c.CI(), eval.PValueCell(c.P))
	}
	t.Notes = []string{"faceted key: one state per distribution; single-valued key: one state for all (memory.Options.MergeFacets), the paper's keys",
		"differences: " + opt.IntervalNote(),
		eval.FamilyNote(rows)}
	return t
}

// memoryOf is the class a CompareVariants comparison is about (its A arm,
// the main condition, is named by the class alone).
func memoryOf(c eval.Comparison) string { return c.A.String() }

// uploadedElsewhere reports, for every faceted snapshot question of b, whether the
// stream's latest upload for the question's entity and attribute went to
// another facet than the one asked about: no atom at the latest timestamp
// carries the asked facet. These are the questions a single-valued key
// answers with another facet's value.
func uploadedElsewhere(b *bench.Bench) map[string]bool {
	out := map[string]bool{}
	for _, q := range b.QAs {
		if q.Facet == "" || q.QueryType != esr.Snapshot {
			continue
		}
		var latest []esr.Atom
		for _, a := range b.Atoms[q.StreamID] {
			if a.Entity != q.Entity || a.Attribute != q.Attribute {
				continue
			}
			switch {
			case len(latest) == 0 || a.Timestamp.After(latest[0].Timestamp.Time):
				latest = []esr.Atom{a}
			case a.Timestamp.Equal(latest[0].Timestamp.Time):
				latest = append(latest, a)
			}
		}
		if len(latest) == 0 {
			continue
		}
		out[q.QID] = !slices.ContainsFunc(latest, func(a esr.Atom) bool { return a.Facet == q.Facet })
	}
	return out
}

// Where labels for whereTable's groups.
const (
	latestHere      = "latest upload to the asked distribution"
	latestElsewhere = "latest upload to another distribution"
)

// whereTable splits snapshot accuracy of each class under both keys by
// whether the latest upload went to the asked distribution (elsewhere,
// from uploadedElsewhere), with Wilson intervals.
func whereTable(rows []eval.Outcome, elsewhere map[string]bool) *eval.Table {
	t := &eval.Table{ID: FacetsWhere, Title: "Where does the single-valued key fail? Snapshot accuracy by where the latest upload went",
		Columns: []string{"latest upload", "class", "key", "n", "accuracy", "95% CI"}}
	group := func(o *eval.Outcome) string {
		if elsewhere[o.QID] {
			return latestElsewhere
		}
		return latestHere
	}
	known := func(o *eval.Outcome) bool { _, ok := elsewhere[o.QID]; return ok }
	for _, g := range []string{latestHere, latestElsewhere} {
		for _, m := range facetClasses {
			for _, k := range []struct {
				name string
				v    eval.Variant
			}{{"faceted", eval.Variant{}}, {"single-valued", single}} {
				f := eval.And(eval.QueryType(esr.Snapshot), eval.Variants(k.v), known, func(o *eval.Outcome) bool { return group(o) == g })
				for _, a := range eval.AccuracyBy(rows, []memory.Spec{m}, nil, f, 0.95) {
					t.AddRow(g, m, k.name, a.N, eval.PropCell(a.Acc), eval.WilsonCell(a))
				}
			}
		}
	}
	t.Notes = []string{"accuracy intervals: Wilson 95%", eval.FamilyNote(rows)}
	return t
}

// FacetSentences read FacetCosts: for each query type, the class with the largest
// and the smallest cost, each with its interval and verdict (eval.Describe).
func FacetSentences(cs []eval.Comparison) []string {
	var out []string
	for _, qt := range queryTypes {
		var of []eval.Comparison
		for _, c := range cs {
			if c.QueryType == qt {
				of = append(of, c)
			}
		}
		if len(of) == 0 {
			continue
		}
		hi := slices.MaxFunc(of, func(a, b eval.Comparison) int { return cmpDelta(a, b) })
		lo := slices.MinFunc(of, func(a, b eval.Comparison) int { return cmpDelta(a, b) })
		s := fmt.Sprintf("On %s questions the largest cost of a single-valued key is %s's: %s.", qt, memoryOf(hi), eval.Describe(hi))
		if lo.A != hi.A {
			s += fmt.Sprintf(" The smallest is %s's: %s.", memoryOf(lo), eval.Describe(lo))
		}
		out = append(out, s)
	}
	return out
}

func cmpDelta(a, b eval.Comparison) int {
	switch {
	case a.Delta < b.Delta:
		return -1
	case a.Delta > b.Delta:
		return 1
	}
	return 0
}
