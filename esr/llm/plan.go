package llm

import (
	"context"
	"sort"
	"sync"
)

// Plan records the requests a run would make instead of sending them (a dry
// run): run readers and judges with a context from WithPlan and every call
// through Cached is counted, cached or not, and answered from the cache or
// with an empty response (an abstention). Identical requests are counted
// once, as the cache and Cached's de-duplication make the online path send
// them once. Safe for concurrent use.
type Plan struct {
	mu      sync.Mutex
	seen    map[string]bool
	models  map[string]*PlanModel
	pending []Planned
}

// Planned is one request the plan found missing from the cache.
type Planned struct {
	Key      string
	Template string
	Request  Request
}

// PlanModel is a dry run's count for one model.
type PlanModel struct {
	Model string `json:"model"`
	// Requests is distinct requests asked; Cached of them are in the cache
	// and ToSend are not (what an online run would send).
	Requests int `json:"requests"`
	Cached   int `json:"cached"`
	ToSend   int `json:"to_send"`
	// PromptTokens estimates the prompt tokens of all requests and of the
	// ones to send (estimateTokens: about 4 bytes a token).
	PromptTokens       int `json:"est_prompt_tokens"`
	ToSendPromptTokens int `json:"est_prompt_tokens_to_send"`
}

// NewPlan makes an empty plan.
func NewPlan() *Plan { return &Plan{seen: map[string]bool{}, models: map[string]*PlanModel{}} }

type planKey struct{}

// WithPlan returns a context under which Cached records into p and sends
// nothing.
func WithPlan(ctx context.Context, p *Plan) context.Context {
	return context.WithValue(ctx, planKey{}, p)
}

func planFrom(ctx context.Context) *Plan {
	p, _ := ctx.Value(planKey{}).(*Plan)
	return p
}

func (p *Plan) add(key, template string, req Request, cached bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen[key] {
		return
	}
	p.seen[key] = true
	m := p.models[req.Model]
	if m == nil {
		m = &PlanModel{Model: req.Model}
		p.models[req.Model] = m
	}
	tok := estimateTokens(req.Messages)
	m.Requests++
	m.PromptTokens += tok
	if cached {
		m.Cached++
		return
	}
	m.ToSend++
	m.ToSendPromptTokens += tok
	p.pending = append(p.pending, Planned{Key: key, Template: template, Request: req})
}

// Models are the per-model counts, sorted by model.
func (p *Plan) Models() []PlanModel {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]PlanModel, 0, len(p.models))
	for _, m := range p.models {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Model < out[j].Model })
	return out
}

// Pending are the requests missing from the cache, in a deterministic order
// (by model, then key).
func (p *Plan) Pending() []Planned {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := append([]Planned(nil), p.pending...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Request.Model != out[j].Request.Model {
			return out[i].Request.Model < out[j].Request.Model
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// Keys are every distinct request key the plan saw (cached or not), sorted.
func (p *Plan) Keys() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.seen))
	for k := range p.seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ToSend is the total number of requests missing from the cache.
func (p *Plan) ToSend() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.pending)
}

// estimateTokens estimates a chat's prompt tokens: about one token per 4
// bytes of text plus 4 per message (the chat template's framing). It is an
// estimate for budgeting, not a tokenizer.
func estimateTokens(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += (len(m.Content)+3)/4 + 4
	}
	return n
}
