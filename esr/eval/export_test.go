package eval

// Hooks for the external tests (package eval_test).
type (
	ConflictError = conflictError
	MismatchError = mismatchError
)

// PairedByQuestion is Compare's pairing, for BenchmarkPairRows.
var PairedByQuestion = pairedByQuestion
