package judge

import (
	"fmt"
	"strings"
	"time"

	"github.com/esrkit/esrkit/esr/llm"
)

// Config carries what the LLM judge needs; empty endpoint fields come from
// the environment (ESR_LLM_BASE_URL, ESR_LLM_API_KEY; the model from
// ESR_LLM_JUDGE_MODEL, else the first of ESR_LLM_MODELS).
type Config struct {
	// CacheDir holds the response cache (shared with the readers); "" means
	// no cache.
	CacheDir    string
	Concurrency int
	Model       string
	BaseURL     string
	APIKey      string
	Timeout     time.Duration
	MaxRetries  int
	Getenv      func(string) string
	Log         func(string)
	// Client and Cache, when set, are used instead of new ones.
	Client *llm.Client
	Cache  *llm.Cache
}

// Parse makes the judge named: "exact", "llm" (model from cfg.Model or the
// environment) or "llm:MODEL".
func Parse(name string, cfg Config) (Judge, error) {
	name = strings.TrimSpace(name)
	kind, model, hasModel := strings.Cut(name, ":")
	switch {
	case name == "exact":
		return Exact{}, nil
	case kind == "llm":
		model = strings.TrimSpace(model)
		if !hasModel || model == "" {
			model = cfg.Model
		}
		if model == "" {
			model = llm.JudgeModelFromEnv(cfg.Getenv)
		}
		if model == "" {
			return nil, fmt.Errorf("judge llm: no model: use llm:MODEL or set %s or %s", llm.EnvJudgeModel, llm.EnvModels)
		}
		client := cfg.Client
		if client == nil {
			c := llm.ConfigFromEnv(cfg.Getenv)
			if cfg.BaseURL != "" {
				c.BaseURL = cfg.BaseURL
			}
			if cfg.APIKey != "" {
				c.APIKey = cfg.APIKey
			}
			c.Concurrency, c.Timeout, c.MaxRetries, c.Log = cfg.Concurrency, cfg.Timeout, cfg.MaxRetries, cfg.Log
			var err error
			if client, err = llm.New(c); err != nil {
				return nil, fmt.Errorf("judge llm:%s: %w", model, err)
			}
		}
		j := NewLLMJudge(model, client, cfg.Cache)
		if j.Cache == nil && cfg.CacheDir != "" {
			cache, err := llm.OpenCache(cfg.CacheDir)
			if err != nil {
				return nil, fmt.Errorf("judge llm:%s: %w", model, err)
			}
			j.Cache, j.ownsCache = cache, true
		}
		return j, nil
	}
	return nil, fmt.Errorf("unknown judge %q (want exact, llm or llm:MODEL)", name)
}
