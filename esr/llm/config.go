package llm

import (
	"os"
	"strings"
	"time"
)

// Environment variables read by ConfigFromEnv and ModelsFromEnv.
const (
	EnvBaseURL    = "ESR_LLM_BASE_URL"
	EnvAPIKey     = "ESR_LLM_API_KEY"
	EnvModels     = "ESR_LLM_MODELS"
	EnvJudgeModel = "ESR_LLM_JUDGE_MODEL"
)

// Defaults for Config fields left zero.
const (
	DefaultConcurrency   = 8
	DefaultTimeout       = 2 * time.Minute
	DefaultMaxRetries    = 6
	defaultBackoffBase   = 500 * time.Millisecond
	defaultBackoffMax    = 30 * time.Second
	defaultMaxRetryAfter = 2 * time.Minute
)

// Config configures a Client.
type Config struct {
	// BaseURL is the API root, e.g. "http://localhost:8000/v1"; requests go
	// to its path joined with "/chat/completions" (a BaseURL already ending
	// in /chat/completions is used as is), its query string after it
	// ("…/v1?api-key=K": the values are secrets, redacted like the key).
	// Required.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer KEY" when not empty. It never
	// appears in errors, logs or cache files.
	APIKey string
	// Concurrency bounds the requests in flight (default 8).
	Concurrency int
	// Timeout bounds one HTTP attempt (default 2 min); an attempt that runs
	// past it is retried.
	Timeout time.Duration
	// MaxRetries is the retry budget of one call: after 1+MaxRetries failed
	// attempts the call returns the last error (default 6; negative: none).
	MaxRetries int
	// BackoffBase and BackoffMax shape the exponential backoff: attempt n
	// waits a uniformly random duration in [0, min(BackoffMax,
	// BackoffBase·2^n)] ("full jitter"), or the server's Retry-After when
	// that is longer, capped at MaxRetryAfter (default 2 minutes): a longer
	// Retry-After, however large, waits MaxRetryAfter, and the retry's log
	// line says it was capped.
	BackoffBase   time.Duration
	BackoffMax    time.Duration
	MaxRetryAfter time.Duration
	// Log, when set, receives one line per retry; lines are redacted.
	Log func(line string)
	// BreakAfter and BreakAfterCalls make the circuit breaker: once
	// BreakAfter attempts in a row failed (429s not counted) or
	// BreakAfterCalls calls in a row failed after their retries, the
	// endpoint is taken to be down and every call returns an
	// *EndpointDownError at once (defaults 50 and 10; negative: never).
	BreakAfter      int
	BreakAfterCalls int
}

func (c Config) withDefaults() Config {
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = defaultBackoffBase
	}
	if c.BackoffMax <= 0 {
		c.BackoffMax = defaultBackoffMax
	}
	if c.MaxRetryAfter <= 0 {
		c.MaxRetryAfter = defaultMaxRetryAfter
	}
	if c.BreakAfter == 0 {
		c.BreakAfter = defaultBreakAfter
	}
	if c.BreakAfterCalls == 0 {
		c.BreakAfterCalls = defaultBreakAfterCalls
	}
	return c
}

// Getenv is os.Getenv when g is nil.
func Getenv(g func(string) string) func(string) string {
	if g == nil {
		return os.Getenv
	}
	return g
}

// ConfigFromEnv fills BaseURL and APIKey from ESR_LLM_BASE_URL and
// ESR_LLM_API_KEY (getenv nil: the process environment).
func ConfigFromEnv(getenv func(string) string) Config {
	g := Getenv(getenv)
	return Config{BaseURL: strings.TrimSpace(g(EnvBaseURL)), APIKey: strings.TrimSpace(g(EnvAPIKey))}
}

// ModelsFromEnv lists the model names of ESR_LLM_MODELS (comma separated,
// NAME or NAME=URL, blanks and duplicates dropped), in order.
func ModelsFromEnv(getenv func(string) string) []string {
	return SplitModels(Getenv(getenv)(EnvModels))
}

// SplitModels splits a comma-separated model list into names, dropping
// blanks, duplicates and the "=URL" part of NAME=URL items (see
// parseModelSpecs for the checked form).
func SplitModels(list string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range strings.Split(list, ",") {
		m, _, _ = strings.Cut(m, "=")
		m = strings.TrimSpace(m)
		if m == "" || seen[m] {
			continue
		}
		seen[m] = true
		out = append(out, m)
	}
	return out
}

// judgeModelFromEnv is ESR_LLM_JUDGE_MODEL, or else the first model of
// ESR_LLM_MODELS, or "".
func judgeModelFromEnv(getenv func(string) string) string {
	g := Getenv(getenv)
	if ms := SplitModels(g(EnvJudgeModel)); len(ms) > 0 {
		return ms[0]
	}
	if ms := SplitModels(g(EnvModels)); len(ms) > 0 {
		return ms[0]
	}
	return ""
}
