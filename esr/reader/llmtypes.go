package reader

import "github.com/esrkit/esrkit/esr/llm"

// The LLM plumbing an LLM reader (and judge) holds, named here so a user
// can hold it too: build a Config with them, or an LLM reader by hand.
type (
	// Client is an OpenAI-compatible chat-completions client for one
	// endpoint (timeouts, retries with backoff, a circuit breaker).
	Client = llm.Client
	// Cache is a response cache on disk, keyed by the full request; safe
	// for concurrent use and shared by every reader over one folder.
	Cache = llm.Cache
	// Pool holds one Client per endpoint, shared by the readers and judges
	// of a run.
	Pool = llm.Pool
	// Template is a prompt template (system and user text with slots).
	Template = llm.Template
	// Message is one chat message of a prompt.
	Message = llm.Message
	// Request is one chat-completions request; Response its answer.
	Request  = llm.Request
	Response = llm.Response
	// Entry is one cached response with the request it answers.
	Entry = llm.Entry
	// RequestParams are the generation parameters of a request that are
	// part of its cache key (an Entry records them).
	RequestParams = llm.Params
	// ClientStats counts a client's requests, retries, failures and tokens.
	ClientStats = llm.Stats
	// ClientConfig configures a Client: endpoint, key, timeouts, retries.
	ClientConfig = llm.Config
	// Endpoints resolves each model's endpoint from the environment
	// (ESR_LLM_BASE_URL, ESR_LLM_API_KEY and per-model overrides).
	Endpoints = llm.Env
	// Endpoint is where one model's requests go (its key never printed).
	Endpoint = llm.Endpoint
	// ModelSpec is one item of ESR_LLM_MODELS: a model name and,
	// given as NAME=URL, its own endpoint.
	ModelSpec = llm.ModelSpec
)
