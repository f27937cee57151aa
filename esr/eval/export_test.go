package eval

// Hooks for the external tests (package eval_test).
type (
	ConflictError = conflictError
	MismatchError = mismatchError
)
