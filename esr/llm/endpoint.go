package llm

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// More environment variables (see also EnvBaseURL, EnvModels, …).
const (
	// EnvConcurrency is the requests in flight per endpoint: "16", or a
	// default plus per-model items, "16,qwen3-14b=4". A command-line
	// --concurrency overrides it.
	EnvConcurrency = "ESR_LLM_CONCURRENCY"
	// EnvOnline, set to 1, lets notebooks call the endpoint themselves;
	// otherwise they read LLM answers from the cache only (see Offline).
	EnvOnline = "ESR_LLM_ONLINE"
)

// keyEnv is the variable holding the API key of one model's endpoint:
// ESR_LLM_API_KEY_ followed by the model name upper-cased with every run of
// other characters than A-Z and 0-9 replaced by "_" (qwen2.5-7b →
// ESR_LLM_API_KEY_QWEN2_5_7B). When it is unset, ESR_LLM_API_KEY applies.
func keyEnv(model string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToUpper(model) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			under = false
			continue
		}
		if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	return EnvAPIKey + "_" + strings.TrimRight(b.String(), "_")
}

// ModelSpec is one item of ESR_LLM_MODELS or ESR_LLM_JUDGE_MODEL: a model
// name and, when given as NAME=URL, its own endpoint.
type ModelSpec struct {
	Name string
	URL  string
}

// parseModelSpecs reads a comma-separated list of NAME or NAME=URL items
// (blanks and repeated names dropped). An item whose part after "=" is not
// an http(s) URL is an error naming the variable and the item's position
// (the value is not echoed: a URL can carry credentials).
func parseModelSpecs(varName, list string) ([]ModelSpec, error) {
	var out []ModelSpec
	seen := map[string]bool{}
	for i, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, u, hasURL := strings.Cut(item, "=")
		name, u = strings.TrimSpace(name), strings.TrimSpace(u)
		if name == "" {
			return nil, fmt.Errorf("%s: item %d: empty model name before \"=\"", varName, i+1)
		}
		if hasURL {
			if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
				return nil, fmt.Errorf("%s: item %d (model %s): the part after \"=\" is not an http(s) URL such as http://localhost:8000/v1", varName, i+1, name)
			}
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, ModelSpec{Name: name, URL: u})
	}
	return out, nil
}

// Endpoint is where one model's requests go. APIKey never appears in
// String, errors or logs.
type Endpoint struct {
	Model       string
	BaseURL     string
	APIKey      string
	Concurrency int
}

// String is "model → URL" without user info, query or key.
func (e Endpoint) String() string { return e.Model + " → " + stripURL(e.BaseURL) }

// stripURL is u without user info, query string or fragment.
func stripURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return "(no endpoint)"
	}
	p.User, p.RawQuery, p.Fragment = nil, "", ""
	return p.String()
}

// Env resolves endpoints from the environment (or from a Getenv
// replacement), with optional programmatic defaults.
type Env struct {
	Getenv func(string) string
	// BaseURL and APIKey, when set, replace ESR_LLM_BASE_URL and
	// ESR_LLM_API_KEY (the defaults for models without their own).
	BaseURL, APIKey string
	// Concurrency, when > 0, replaces ESR_LLM_CONCURRENCY for every
	// endpoint (the CLI's --concurrency).
	Concurrency int
}

func (e Env) get(k string) string { return strings.TrimSpace(Getenv(e.Getenv)(k)) }

// Models are the names of ESR_LLM_MODELS.
func (e Env) Models() ([]ModelSpec, error) { return parseModelSpecs(EnvModels, e.get(EnvModels)) }

// JudgeModel is ESR_LLM_JUDGE_MODEL's name (else the first model of
// ESR_LLM_MODELS, else "").
func (e Env) JudgeModel() (string, error) {
	js, err := parseModelSpecs(EnvJudgeModel, e.get(EnvJudgeModel))
	if err != nil {
		return "", err
	}
	if len(js) > 0 {
		return js[0].Name, nil
	}
	ms, err := e.Models()
	if err != nil || len(ms) == 0 {
		return "", err
	}
	return ms[0].Name, nil
}

// Configured reports whether any endpoint is configured: a base URL, or a
// NAME=URL item.
func (e Env) Configured() bool {
	if e.BaseURL != "" || e.get(EnvBaseURL) != "" {
		return true
	}
	for _, v := range []string{EnvModels, EnvJudgeModel} {
		specs, _ := parseModelSpecs(v, e.get(v))
		for _, s := range specs {
			if s.URL != "" {
				return true
			}
		}
	}
	return false
}

// Concurrencies parses ESR_LLM_CONCURRENCY: the default (0 when not
// given) and the per-model limits.
func (e Env) Concurrencies() (def int, perModel map[string]int, err error) {
	perModel = map[string]int{}
	v := e.get(EnvConcurrency)
	for i, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, num, per := strings.Cut(item, "=")
		if !per {
			num = name
		}
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if err != nil || n <= 0 {
			return 0, nil, fmt.Errorf("%s: item %d %q: want a positive number of requests in flight (N or MODEL=N)", EnvConcurrency, i+1, item)
		}
		if per {
			perModel[strings.TrimSpace(name)] = n
		} else {
			def = n
		}
	}
	return def, perModel, nil
}

// Endpoint resolves model's endpoint: its own URL when ESR_LLM_MODELS or
// ESR_LLM_JUDGE_MODEL lists it as NAME=URL, else the default base URL; its
// key from ESR_LLM_API_KEY_<MODEL> (keyEnv), else the default key; its
// concurrency from Env.Concurrency, else ESR_LLM_CONCURRENCY (per model,
// then default), else DefaultConcurrency. BaseURL is "" when none applies.
func (e Env) Endpoint(model string) (Endpoint, error) {
	ep := Endpoint{Model: model, BaseURL: e.BaseURL, APIKey: e.APIKey}
	if ep.BaseURL == "" {
		ep.BaseURL = e.get(EnvBaseURL)
	}
	if ep.APIKey == "" {
		ep.APIKey = e.get(EnvAPIKey)
	}
	for _, v := range []string{EnvJudgeModel, EnvModels} {
		specs, err := parseModelSpecs(v, e.get(v))
		if err != nil {
			return Endpoint{}, err
		}
		for _, s := range specs {
			if s.Name == model && s.URL != "" {
				ep.BaseURL = s.URL
			}
		}
	}
	if k := e.get(keyEnv(model)); k != "" {
		ep.APIKey = k
	}
	def, per, err := e.Concurrencies()
	if err != nil {
		return Endpoint{}, err
	}
	switch {
	case e.Concurrency > 0:
		ep.Concurrency = e.Concurrency
	case per[model] > 0:
		ep.Concurrency = per[model]
	case def > 0:
		ep.Concurrency = def
	default:
		ep.Concurrency = DefaultConcurrency
	}
	return ep, nil
}

// Pool hands out one Client per endpoint (URL, key and limit), so models
// served by the same server share its limit on requests in flight, and
// models on different servers do not wait for each other. Safe for
// concurrent use.
type Pool struct {
	Env Env
	// Base supplies the other Client settings (Timeout, MaxRetries, backoff,
	// Log); its BaseURL, APIKey and Concurrency are ignored.
	Base    Config
	mu      sync.Mutex
	clients map[string]*Client
	byModel map[string]*Client
}

// NewPool makes a pool.
func NewPool(env Env, base Config) *Pool {
	return &Pool{Env: env, Base: base, clients: map[string]*Client{}, byModel: map[string]*Client{}}
}

// Client is the client of model's endpoint.
func (p *Pool) Client(model string) (*Client, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.byModel[model]; c != nil {
		return c, nil
	}
	ep, err := p.Env.Endpoint(model)
	if err != nil {
		return nil, err
	}
	if ep.BaseURL == "" {
		return nil, fmt.Errorf("no endpoint for model %s: set %s, or list it as %s=URL in %s", model, EnvBaseURL, model, EnvModels)
	}
	id := ep.BaseURL + "\x00" + ep.APIKey + "\x00" + strconv.Itoa(ep.Concurrency)
	c := p.clients[id]
	if c == nil {
		cfg := p.Base
		cfg.BaseURL, cfg.APIKey, cfg.Concurrency = ep.BaseURL, ep.APIKey, ep.Concurrency
		if c, err = New(cfg); err != nil {
			return nil, err
		}
		p.clients[id] = c
	}
	p.byModel[model] = c
	return c, nil
}

// Models lists the models the pool has made clients for, sorted.
func (p *Pool) Models() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.byModel))
	for m := range p.byModel {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// ModelStats is the traffic for model so far (zero when it has no client).
func (p *Pool) ModelStats(model string) Stats {
	p.mu.Lock()
	c := p.byModel[model]
	p.mu.Unlock()
	if c == nil {
		return Stats{}
	}
	return c.ModelStats(model)
}
