package judge

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/internal/llm"
)

// Config carries what the LLM judge needs; empty endpoint fields come from
// the environment (ESR_LLM_BASE_URL, ESR_LLM_API_KEY; the model from
// ESR_LLM_JUDGE_MODEL, NAME or NAME=URL, else the first of ESR_LLM_MODELS;
// see llm.Env).
type Config = llm.Setup

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
			var err error
			if model, err = (llm.Env{Getenv: cfg.Getenv}).JudgeModel(); err != nil {
				return nil, fmt.Errorf("judge llm: %w", err)
			}
		}
		if model == "" {
			return nil, fmt.Errorf("judge llm: no model: use llm:MODEL or set %s or %s", llm.EnvJudgeModel, llm.EnvModels)
		}
		client := cfg.Client
		if client == nil && !cfg.Offline {
			pool := cfg.Pool
			if pool == nil {
				pool = llm.NewPool(llm.Env{Getenv: cfg.Getenv, BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Concurrency: cfg.Concurrency},
					llm.Config{Timeout: cfg.Timeout, MaxRetries: cfg.MaxRetries, Log: cfg.Log})
			}
			var err error
			if client, err = pool.Client(model); err != nil {
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
