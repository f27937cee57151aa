package judge

import (
	"context"

	"github.com/esrkit/esrkit/esr"
)

// Exact is the normalised exact-match judge: an abstention is correct
// exactly when the gold answer is ABSTAIN; a value is correct when its
// normalised form (esr.NormalizeValue) equals the gold answer's or one of
// the QA's aliases.
type Exact struct{}

func (Exact) Name() string { return "exact" }

func (Exact) Judge(_ context.Context, qa *esr.QA, a esr.Answer) (Verdict, error) {
	if a.Abstain || qa.GoldAbstain() {
		return Verdict{Correct: a.Abstain && qa.GoldAbstain(), Abstained: a.Abstain}, nil
	}
	got := esr.NormalizeValue(a.Value)
	for _, g := range append([]string{qa.GoldAnswer}, qa.Aliases...) {
		if esr.NormalizeValue(g) == got {
			return Verdict{Correct: true}, nil
		}
	}
	return Verdict{}, nil
}
