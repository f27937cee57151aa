package reader

import (
	"encoding/json"
	"fmt"

	"github.com/esrkit/esrkit/esr/llm"
)

// Configured is implemented by readers whose answers depend on more than
// their spec: Config returns all of it (capabilities, budgets, model,
// template versions, sampling parameters) as a JSON-encodable value. Result
// caches key on it, so that two readers with the same spec and different
// configurations never share cached rows.
type Configured interface {
	Config() any
}

// Fingerprint is everything about r that changes its answers, as text: its
// spec, family, Go type and configuration (Config when r implements
// Configured, else r's exported fields as JSON).
func Fingerprint(r Reader) string {
	var cfg any = r
	if c, ok := r.(Configured); ok {
		cfg = c.Config()
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		b = []byte(fmt.Sprintf("%#v", cfg))
	}
	return fmt.Sprintf("name=%s family=%s type=%T config=%s", r.Spec(), r.Family(), r, b)
}

// Config of an LLM reader is its model, template versions and reply bound
// (temperature is always 0).
func (r *LLM) Config() any {
	v := func(t *llm.Template) string {
		if t == nil {
			return ""
		}
		return t.Version()
	}
	return struct {
		Model, Abstain, NoAbstain string
		MaxTokens                 int
		Temperature               float64
	}{r.Model, v(r.Abstain), v(r.NoAbstain), r.MaxTokens, 0}
}

// Config of the oracle is empty: it reads structured state only.
func (Oracle) Config() any { return struct{}{} }
