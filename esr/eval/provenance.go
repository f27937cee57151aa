package eval

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
)

// Conditions of the §4.3 renders.
var (
	StateOnly      = Variant{}                // the retained state only
	DeployedRender = LabelVariant("deployed") // raw events appended (the deployed render)
)

// ProvenanceAccuracy is Figure 3's data: accuracy of each class (the paper's
// are paper.RetentionClasses) on provenance rows of the given condition,
// pooled over families, with 95% Wilson intervals.
func ProvenanceAccuracy(rows []Outcome, classes []memory.Spec, condition Variant) []Accuracy {
	return AccuracyBy(rows, classes, nil, And(QueryType(esr.Provenance), Variants(condition)), 0.95)
}

// SingleValuedKey labels rows of a class built over single-valued keys
// (memory.Options.MergeFacets): the baseline a faceted key is measured
// against.
const SingleValuedKey = "single-valued-key"
