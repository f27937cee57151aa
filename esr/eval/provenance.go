package eval

// Condition labels for the §4.3 renders.
const (
	StateOnly      = ""         // the retained state only
	DeployedRender = "deployed" // raw events appended (the deployed render)
)

// ProvenanceAccuracy is Figure 3's data: accuracy of each class (the paper's
// are paper.RetentionClasses) on provenance rows of the given condition,
// pooled over families, with 95% Wilson intervals.
func ProvenanceAccuracy(rows []Outcome, classes []string, condition string) []Accuracy {
	return AccuracyBy(rows, classes, nil, And(QueryType("provenance"), Condition(condition)), 0.95)
}

// SingleValuedKey labels rows of a class built over single-valued keys
// (memory.Options.MergeFacets): the baseline a faceted key is measured
// against.
const SingleValuedKey = "single-valued-key"
