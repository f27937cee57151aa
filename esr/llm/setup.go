package llm

import "time"

// Setup is the one configuration of everything that talks to an LLM
// endpoint: readers (reader.Parse) and judges (judge.Config) take this type.
// Fields a component does not use are ignored by it: Models and MaxTokens
// by the judge, Model by readers. Empty endpoint fields come from the
// environment (ESR_LLM_BASE_URL, ESR_LLM_API_KEY, ESR_LLM_MODELS with its
// NAME=URL items, ESR_LLM_API_KEY_<MODEL>, ESR_LLM_CONCURRENCY; see Env).
type Setup struct {
	// CacheDir holds the response cache (shared by readers and judges); ""
	// means no cache.
	CacheDir string
	// Concurrency, when > 0, is every endpoint's limit on requests in
	// flight (overriding ESR_LLM_CONCURRENCY).
	Concurrency int
	// Offline answers from the cache only: no endpoint is needed or
	// called, and a missing answer is a *NotCachedError naming the command
	// that fills the cache.
	Offline bool
	// Pool, when set, supplies the clients (one per endpoint), so readers
	// and a judge share them and their statistics.
	Pool *Pool

	// BaseURL and APIKey default to ESR_LLM_BASE_URL and ESR_LLM_API_KEY.
	BaseURL string
	APIKey  string
	// Models are the models a bare "llm" reader expands to (default
	// ESR_LLM_MODELS); Model is the judge's model (default
	// ESR_LLM_JUDGE_MODEL).
	Models []string
	Model  string
	// Timeout (per request) and MaxRetries: zero means DefaultTimeout and
	// DefaultMaxRetries. MaxTokens bounds LLM readers' replies (zero: the
	// reader's default); the judge keeps its own bound.
	Timeout    time.Duration
	MaxRetries int
	MaxTokens  int
	// Getenv replaces os.Getenv (tests).
	Getenv func(string) string
	// Log receives redacted retry notices.
	Log func(string)
	// Client and Cache, when set, are used instead of ones made from the
	// fields above.
	Client *Client
	Cache  *Cache
}
