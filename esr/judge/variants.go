package judge

import (
	"context"

	"github.com/esrkit/esrkit/esr"
)

// Judge names of the exact judge and its two variants.
const (
	nameExact        = "exact"
	nameExactLenient = "exact-lenient"
	nameExactStrict  = "exact-strict"
)

// ruleContainsAny names ExactLenient's extra rule.
const ruleContainsAny = "contains-any"

// ExactLenient is Exact plus one rule after rule 4: a value answer that
// names the gold (or an alias) anywhere, among any other words or values,
// is correct, unless the gold or an alias occurs with a negation just
// before it anywhere in the answer. So "was
// 60 s, now 30 s", "30 s (previously 60 s)" and "30 s or 60 s" are correct
// against gold "30 s"; "not 30 s" is not. It is the judge a benchmark uses
// when it counts "previous information along with an updated answer" as
// right (LongMemEval's knowledge-update judge), without an endpoint: the
// judge audit shows such leniency with it. Relation-type golds are judged
// as in Exact (rule 3).
type ExactLenient struct{}

func (ExactLenient) Name() string { return nameExactLenient }

func (e ExactLenient) Judge(_ context.Context, qa *esr.QA, a esr.Answer) (Verdict, error) {
	return e.Decide(qa.GoldAnswer, qa.Aliases, a), nil
}

// Decide judges answer a against gold and its aliases.
func (ExactLenient) Decide(gold string, aliases []string, a esr.Answer) Verdict {
	v := Exact{}.Decide(gold, aliases, a)
	if v.Correct || v.Rule == ruleAbstain || v.Rule == ruleRelation {
		return v
	}
	ans := canonTokens(a.Value)
	golds := append([]string{gold}, aliases...)
	for _, g := range golds {
		if denies(ans, canonTokens(g)) {
			return v
		}
	}
	for _, g := range golds {
		if names(ans, canonTokens(g)) {
			return Verdict{Correct: true, Rule: ruleContainsAny}
		}
	}
	return v
}

// ExactStrict is Exact without rule 4 (containment): an answer is correct
// only when it is, canonically, the gold or an alias (or, for a
// relation-type gold, uses words of its family only). "probably 30 s" and
// "The timeout is 30 s." are wrong against gold "30 s".
type ExactStrict struct{}

func (ExactStrict) Name() string { return nameExactStrict }

func (ExactStrict) Judge(_ context.Context, qa *esr.QA, a esr.Answer) (Verdict, error) {
	return Exact{NoContainment: true}.Decide(qa.GoldAnswer, qa.Aliases, a), nil
}
