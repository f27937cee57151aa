// Package judge scores an answer against a QA's gold answer.
package judge

import (
	"context"

	"github.com/esrkit/esrkit/esr"
)

// Verdict is a judge's decision on one answer.
type Verdict struct {
	Correct bool
	// Abstained is whether the answer was an abstention.
	Abstained bool
}

// Judge decides whether an answer matches the gold answer of a QA.
// Implementations must be safe for concurrent use.
type Judge interface {
	Name() string
	Judge(ctx context.Context, qa *esr.QA, answer esr.Answer) (Verdict, error)
}
