package judge

import (
	"context"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/llm"
)

// LLMJudge asks a chat endpoint whether an answer states the gold value (the
// paper's DeepSeek judge role), with the judge template (templates/judge),
// temperature 0, cached like the readers. Abstentions are not sent: as in
// Exact, an abstaining answer is correct exactly when the gold is ABSTAIN,
// and a value is wrong against a gold ABSTAIN (abstain calibration is a
// separate, judge-free measure in the paper). The reply is read by its first
// word: CORRECT (or yes / true) is correct; INCORRECT, anything else or no
// reply is incorrect.
type LLMJudge struct {
	Model    string
	Client   *llm.Client
	Cache    *llm.Cache
	Template *llm.Template
	// MaxTokens bounds the reply (part of the cache key); default 16.
	MaxTokens int
	// Style names the judge template (JudgeTemplates) when it is not the
	// kit's; it is part of the judge's name.
	Style string
	// Reply reads the reply (nil: parseJudgeReply).
	Reply     func(reply string) bool
	ownsCache bool
}

// newLLMJudge makes an LLM judge over client and cache (cache may be nil).
func newLLMJudge(model string, client *llm.Client, cache *llm.Cache) *LLMJudge {
	return &LLMJudge{Model: model, Client: client, Cache: cache, Template: llm.MustBuiltin(llm.TemplateJudge), MaxTokens: 16}
}

// Name is "llm:MODEL", with "@template=NAME" for a template other than the
// kit's.
func (j *LLMJudge) Name() string {
	if j.Style != "" {
		return "llm:" + j.Model + "@template=" + j.Style
	}
	return "llm:" + j.Model
}

// Close releases the cache handle when Parse opened it.
func (j *LLMJudge) Close() error {
	if j.ownsCache && j.Cache != nil {
		j.ownsCache = false
		return j.Cache.Close()
	}
	return nil
}

// judgeData is what the judge template reads.
type judgeData struct {
	Question string
	Gold     string
	Aliases  []string
	Answer   string
}

func (j *LLMJudge) Judge(ctx context.Context, qa *esr.QA, a esr.Answer) (Verdict, error) {
	abst := a.Abstain || llm.IsAbstention(a.Value)
	if abst || qa.GoldAbstain() {
		return Verdict{Correct: abst && qa.GoldAbstain(), Abstained: abst, Rule: ruleAbstain}, nil
	}
	msgs, err := j.Template.Render(judgeData{Question: qa.Question, Gold: qa.GoldAnswer, Aliases: qa.Aliases, Answer: a.Value})
	if err != nil {
		return Verdict{}, err
	}
	resp, _, err := llm.Cached(ctx, j.Client, j.Cache, j.Template.Version(),
		llm.Request{Model: j.Model, Messages: msgs, Temperature: 0, MaxTokens: j.MaxTokens})
	if err != nil {
		return Verdict{}, fmt.Errorf("judge %s: %w", j.Name(), err)
	}
	read := j.Reply
	if read == nil {
		read = parseJudgeReply
	}
	return Verdict{Correct: read(resp.Content), Rule: ruleLLM}, nil
}

// parseJudgeReply reads a judge reply: true for CORRECT / yes / true as the
// first word (after <think> blocks, markdown and punctuation are dropped).
func parseJudgeReply(reply string) bool {
	s := strings.ToLower(llm.CleanReply(reply))
	f := strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	})
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "correct", "yes", "true":
		return true
	}
	return false
}
