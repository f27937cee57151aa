package judge

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr/llm"
)

// JudgeTemplate is a named LLM judge: a prompt template (a file of
// esr/llm/templates, versioned by its content hash), the rule that
// reads the reply, and where it comes from. Choose one with
// "llm:MODEL@template=NAME" (Parse).
type JudgeTemplate struct {
	// Name is what "@template=NAME" says.
	Name string
	// File is the llm template's name.
	File string
	// MaxTokens bounds the reply (part of the cache key).
	MaxTokens int
	// Reply reads the judge's reply: true is correct.
	Reply func(reply string) bool
	// ReplyRule says how Reply decides.
	ReplyRule string
	// Source is where the prompt comes from; Differs how it differs from
	// the kit's judge.
	Source, Differs string
}

// Names of the judge templates.
const (
	TemplateKit         = "kit"
	templateLongMemEval = "longmemeval"
	templateStrict      = "strict"
)

// JudgeTemplates are the named LLM judges, the kit's first (the default).
var JudgeTemplates = []JudgeTemplate{
	{Name: TemplateKit, File: llm.TemplateJudge, MaxTokens: 16, Reply: parseJudgeReply,
		ReplyRule: "first word CORRECT / yes / true (after <think> blocks and markdown)",
		Source:    "the kit's reconstruction of the paper's DeepSeek-V3 judge role (templates/judge.tmpl)",
		Differs: "accepts paraphrases, other units and date formats and extra explanation; rejects a different value, a hedge " +
			"between several values, only a prior or outdated value, and declining"},
	{Name: templateLongMemEval, File: "judge-longmemeval", MaxTokens: 10, Reply: replyContainsYes,
		ReplyRule: "'yes' anywhere in the lower-cased reply, as LongMemEval reads it",
		Source: "LongMemEval's knowledge-update judge (xiaowu0162/LongMemEval, src/evaluation/evaluate_qa.py: gpt-4o, " +
			"temperature 0, max_tokens 10, one user message), restated in the kit's words",
		Differs: "correct when the response contains the reference answer, and explicitly when it gives previous information " +
			"along with an updated answer that is the reference; no aliases; a yes/no reply read by substring, so a reply " +
			"such as \"no, not yes\" counts as yes"},
	{Name: templateStrict, File: "judge-strict", MaxTokens: 16, Reply: parseJudgeReply,
		ReplyRule: "first word CORRECT / yes / true (after <think> blocks and markdown)",
		Source:    "the kit's strict judge (templates/judge-strict.tmpl)",
		Differs: "correct only when the candidate states the gold (or an alias, in any spelling, unit or date format) and " +
			"no other value in any role: previous values, alternatives, hedges, negations and declining are incorrect"},
}

// judgeTemplateNamed returns the judge template called name ("" is the
// kit's).
func judgeTemplateNamed(name string) (JudgeTemplate, error) {
	if name == "" {
		name = TemplateKit
	}
	var names []string
	for _, t := range JudgeTemplates {
		if t.Name == name {
			return t, nil
		}
		names = append(names, t.Name)
	}
	return JudgeTemplate{}, fmt.Errorf("unknown judge template %q (want %s)", name, strings.Join(names, ", "))
}

// replyContainsYes is LongMemEval's reply rule: 'yes' occurs anywhere in
// the lower-cased reply (so "Yes.", "yes" and "eyes" all count).
func replyContainsYes(reply string) bool { return strings.Contains(strings.ToLower(reply), "yes") }

// WithTemplate returns a copy of the LLM judge that asks with the named
// judge template: its prompt file, reply rule and reply bound. The copy
// shares the client and cache but never closes them.
func (j *LLMJudge) WithTemplate(name string) (*LLMJudge, error) {
	t, err := judgeTemplateNamed(name)
	if err != nil {
		return nil, err
	}
	tmpl, err := llm.Builtin(t.File)
	if err != nil {
		return nil, err
	}
	c := *j
	c.ownsCache = false
	c.Template, c.MaxTokens, c.Reply, c.Style = tmpl, t.MaxTokens, t.Reply, t.Name
	if t.Name == TemplateKit {
		c.Style = ""
	}
	return &c, nil
}
