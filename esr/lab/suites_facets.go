package lab

import (
	"github.com/esrkit/esrkit/esr/eval"
)

// facetsSuite is the "facets" experiment of `esr run` and notebook
// D-debian: the cost of a single-valued key on faceted questions (a
// benchmark with faceted QAs, such as data/debian).
var facetsSuite = Suite{Name: SuiteFacets, Benches: []string{"debian"}, Doc: "beyond the paper (its limitation on faceted state): the cost of a single-valued key on faceted questions (data/debian)",
	Evaluate: facetRows,
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		cs, err := Costs(rows, s.Stats)
		if err != nil {
			return nil, err
		}
		return &Result{Name: "facets", Rows: rows,
			Tables: []*eval.Table{facetTable(cs, rows, s.Stats), whereTable(rows, uploadedElsewhere(s.Bench))}}, nil
	}}
