package lab

import (
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/facets"
	"github.com/esrkit/esrkit/esr/suite"
)

// facetsSuite is the "facets" experiment of `esr run` and notebook
// D-debian: the cost of a single-valued key on faceted questions (a
// benchmark with faceted QAs, such as data/debian).
var facetsSuite = suite.Suite{Name: "facets", Doc: "beyond the paper (its limitation on faceted state): the cost of a single-valued key on faceted questions (data/debian)",
	Evaluate: facets.Rows,
	Report: func(rows []eval.Outcome, s suite.Setup) (*suite.Result, error) {
		cs, err := facets.Costs(rows, s.Stats)
		if err != nil {
			return nil, err
		}
		return &suite.Result{Name: "facets", Rows: rows,
			Tables: []*eval.Table{facets.Table(cs, rows, s.Stats), facets.WhereTable(rows, facets.Elsewhere(s.Bench))}}, nil
	}}
