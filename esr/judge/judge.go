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
	// Rule names what decided (Exact's rules: abstain, exact, alias,
	// relation, contains, no-match; the LLM judge: llm). Not part of outcome
	// rows.
	Rule string
}

// Judge decides whether an answer matches the gold answer of a QA.
// Implementations must be safe for concurrent use.
type Judge interface {
	Name() string
	Judge(ctx context.Context, qa *esr.QA, answer esr.Answer) (Verdict, error)
}

// Config of the LLM judge is its model, template version and reply bound:
// what a result cache must key on besides the judge's name.
func (j *LLMJudge) Config() any {
	tv := ""
	if j.Template != nil {
		tv = j.Template.Version()
	}
	return struct {
		Model, Template string
		MaxTokens       int
		Style           string `json:",omitempty"`
	}{j.Model, tv, j.MaxTokens, j.Style}
}
