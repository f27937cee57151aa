package judge

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr/llm"
)

// Config carries what the LLM judge needs; empty endpoint fields come from
// the environment (ESR_LLM_BASE_URL, ESR_LLM_API_KEY; the model from
// ESR_LLM_JUDGE_MODEL, NAME or NAME=URL, else the first of ESR_LLM_MODELS;
// see llm.Env).
type Config = llm.Setup

// Parse makes the judge named. Judge names:
//
//	exact                          the exact judge (Exact)
//	exact-lenient                  Exact + a value named anywhere (ExactLenient)
//	exact-strict                   Exact without containment (ExactStrict)
//	llm[:MODEL][@template=NAME]    an LLM judge; MODEL defaults to cfg.Model or
//	                               the environment, NAME to the kit's template
//	                               (JudgeTemplates: kit, longmemeval, strict)
//
// An LLM judge's name is "llm:MODEL", with "@template=NAME" unless NAME is
// the kit's, so rows and caches of the kit's judge keep their names.
func Parse(name string, cfg Config) (Judge, error) {
	name = strings.TrimSpace(name)
	base, opts, hasOpts := strings.Cut(name, "@")
	kind, model, hasModel := strings.Cut(base, ":")
	switch {
	case name == nameExact:
		return Exact{}, nil
	case name == nameExactLenient:
		return ExactLenient{}, nil
	case name == nameExactStrict:
		return ExactStrict{}, nil
	case kind == "llm":
		style := ""
		if hasOpts {
			given := false
			for _, kv := range strings.Split(opts, "@") {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || strings.TrimSpace(k) != "template" {
					return nil, fmt.Errorf("judge %q: option %q is not template=NAME", name, kv)
				}
				if given {
					return nil, fmt.Errorf("judge %q: template given twice", name)
				}
				given, style = true, strings.TrimSpace(v)
			}
			if _, err := judgeTemplateNamed(style); err != nil {
				return nil, fmt.Errorf("judge %q: %w", name, err)
			}
		}
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
		j := newLLMJudge(model, client, cfg.Cache)
		if style != "" && style != TemplateKit {
			var err error
			if j, err = j.WithTemplate(style); err != nil {
				return nil, fmt.Errorf("judge %q: %w", name, err)
			}
		}
		if j.Cache == nil && cfg.CacheDir != "" {
			cache, err := llm.OpenCache(cfg.CacheDir)
			if err != nil {
				return nil, fmt.Errorf("judge llm:%s: %w", model, err)
			}
			j.Cache, j.ownsCache = cache, true
		}
		return j, nil
	}
	return nil, fmt.Errorf("unknown judge %q (want exact, exact-lenient, exact-strict or llm[:MODEL][@template=NAME])", name)
}

// ParseList makes the judges of a comma-separated list of names (Parse).
// On an error the judges already made are closed.
func ParseList(names string, cfg Config) ([]Judge, error) {
	var out []Judge
	for _, n := range strings.Split(names, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		j, err := Parse(n, cfg)
		if err != nil {
			Close(out...)
			return nil, err
		}
		out = append(out, j)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no judge named in %q", names)
	}
	return out, nil
}

// Close releases what Parse opened for each judge (an LLM judge's cache).
func Close(js ...Judge) error {
	var first error
	for _, j := range js {
		if c, ok := j.(interface{ Close() error }); ok {
			if err := c.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}
