package reader

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/llm"
)

// defaultMaxTokens bounds an LLM reader's answer (part of the cache key).
const defaultMaxTokens = 256

// LLM is a reader backed by an OpenAI-compatible chat endpoint: the paper's
// shared QA template (templates qa-abstain, or qa-noabstain when the memory
// class forbids abstaining), temperature 0, one generation per item, answers
// cached by (model, template version, prompt, params). The raw reply is
// parsed by llm.ParseAnswer (abstentions recognised). ContextTokens is the
// endpoint's usage.prompt_tokens when it reports one (the whole prompt, as
// the model's tokenizer counts it), else CountTokens of the render.
type LLM struct {
	Model     string
	Client    *llm.Client
	Cache     *llm.Cache // nil: no cache
	Abstain   *llm.Template
	NoAbstain *llm.Template
	MaxTokens int
	// closeCache is whether Close releases Cache.
	closeCache bool
}

// NewLLM makes an LLM reader over client and cache (either may be shared
// with other readers) with the built-in templates.
func NewLLM(model string, client *llm.Client, cache *llm.Cache) *LLM {
	return &LLM{Model: model, Client: client, Cache: cache,
		Abstain: llm.MustBuiltin(llm.TemplateQAAbstain), NoAbstain: llm.MustBuiltin(llm.TemplateQANoAbstain),
		MaxTokens: defaultMaxTokens}
}

func (r *LLM) Spec() Spec     { return Spec{Kind: KindLLM, Name: r.Model} }
func (r *LLM) Family() Family { return Family(r.Spec()) }

// Close releases the reader's reference to its cache when Parse or
// ParseList opened it (the file closes with the last reference).
func (r *LLM) Close() error {
	if r.closeCache && r.Cache != nil {
		r.closeCache = false
		return r.Cache.Close()
	}
	return nil
}

// Prompt is the chat the reader sends for in, with the template used.
func (r *LLM) Prompt(in Input) ([]llm.Message, *llm.Template, error) {
	t := r.Abstain
	if !in.MayAbstain {
		t = r.NoAbstain
	}
	qt := in.QueryType
	if qt == "" {
		qt = esr.Snapshot
	}
	msgs, err := t.Render(llm.QAData{Context: in.Context, Question: in.Question, QueryType: string(qt)})
	return msgs, t, err
}

// Read asks the model (or the cache).
func (r *LLM) Read(ctx context.Context, in Input) (Output, error) {
	msgs, t, err := r.Prompt(in)
	if err != nil {
		return Output{}, err
	}
	resp, hit, err := llm.Cached(ctx, r.Client, r.Cache, t.Version(),
		llm.Request{Model: r.Model, Messages: msgs, Temperature: 0, MaxTokens: r.MaxTokens})
	if err != nil {
		return Output{}, fmt.Errorf("%s: %w", r.Spec(), err)
	}
	out := Output{Answer: llm.ParseAnswer(resp.Content), Raw: resp.Content, ContextTokens: resp.PromptTokens,
		CompletionTokens: resp.CompletionTokens, Cached: hit}
	if out.ContextTokens == 0 {
		out.ContextTokens = CountTokens(in.Context)
	}
	return out, nil
}

// WithTemplate is a copy of the reader that asks with another built-in
// template where the memory allows abstaining (the strict decode, a
// different abstain wording), answering as the same family. The copy
// shares the client and the cache; template versions keep their cache
// entries apart.
func (r *LLM) WithTemplate(name string) (*LLM, error) {
	t, err := llm.Builtin(name)
	if err != nil {
		return nil, err
	}
	c := *r
	c.Abstain, c.closeCache = t, false
	return &c, nil
}
