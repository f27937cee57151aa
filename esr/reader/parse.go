package reader

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr/llm"
)

// llmSetup makes (once per ParseList) the clients LLM readers share, one
// per endpoint; each reader holds its own reference to the shared cache
// (llm.OpenCache shares one handle per folder) and releases it on Close.
type llmSetup struct {
	cfg  llm.Setup
	pool *llm.Pool
	sims Simulations
}

// poolFor is the client pool a setup describes: cfg.Pool, or a new one
// over cfg's endpoint fields and the environment.
func poolFor(cfg llm.Setup) *llm.Pool {
	if cfg.Pool != nil {
		return cfg.Pool
	}
	return llm.NewPool(llm.Env{Getenv: cfg.Getenv, BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Concurrency: cfg.Concurrency},
		llm.Config{Timeout: cfg.Timeout, MaxRetries: cfg.MaxRetries, Log: cfg.Log})
}

func (s *llmSetup) getClient(model string) (*llm.Client, error) {
	if s.cfg.Client != nil || s.cfg.Offline {
		return s.cfg.Client, nil
	}
	if s.pool == nil {
		s.pool = poolFor(s.cfg)
	}
	return s.pool.Client(model)
}

func (s *llmSetup) reader(model string) (Reader, error) {
	client, err := s.getClient(model)
	if err != nil {
		return nil, fmt.Errorf("reader llm:%s: %w", model, err)
	}
	cache, owns := s.cfg.Cache, false
	if cache == nil && s.cfg.CacheDir != "" {
		if cache, err = llm.OpenCache(s.cfg.CacheDir); err != nil {
			return nil, fmt.Errorf("reader llm:%s: %w", model, err)
		}
		owns = true
	}
	r := NewLLM(model, client, cache)
	r.closeCache = owns
	if s.cfg.MaxTokens > 0 {
		r.MaxTokens = s.cfg.MaxTokens
	}
	return r, nil
}

// modelsOf is the models a bare "llm" expands to: cfg.Models, else
// ESR_LLM_MODELS.
func modelsOf(cfg llm.Setup) []string {
	if len(cfg.Models) > 0 {
		return cfg.Models
	}
	return llm.ModelsFromEnv(cfg.Getenv)
}

// Simulations makes the simulated readers (scripted: and sim:); package
// reader/sim supplies it as sim.Readers. Parse, New, ParseList and Catalog
// take it as an argument, so that reader imports none of its simulations;
// nil leaves only the oracle and the LLM readers.
type Simulations interface {
	// Reader makes the reader a scripted or sim spec names.
	Reader(spec Spec) (Reader, error)
	// All makes one reader per profile of kind (a bare "scripted" or "sim"
	// in a list).
	All(kind Kind) ([]Reader, error)
	// Catalog describes every simulated reader for `esr readers`.
	Catalog() []Info
}

// Parse makes the reader named by spec: "oracle", "scripted:PROFILE" (see
// sim.ScriptedProfiles; "PROFILE@N" sets a token budget), "sim:PROFILE" (see
// sim.Profiles and sim.Parse; "PROFILE@seed=S@CAP=V" sets the draw seed and
// overrides capabilities) or "llm:MODEL". A bare
// "llm" works when exactly one model is configured (ParseList expands it to
// every model).
func Parse(spec string, cfg llm.Setup, sims Simulations) (Reader, error) {
	return parseOne(strings.TrimSpace(spec), &llmSetup{cfg: cfg, sims: sims})
}

func parseOne(name string, setup *llmSetup) (Reader, error) {
	spec, err := ParseSpec(name)
	if err != nil {
		return nil, err
	}
	return setup.build(spec)
}

// New makes the reader spec names (see Parse).
func New(spec Spec, cfg llm.Setup, sims Simulations) (Reader, error) {
	return (&llmSetup{cfg: cfg, sims: sims}).build(spec)
}

func (setup *llmSetup) build(spec Spec) (Reader, error) {
	switch spec.Kind {
	case KindOracle:
		return Oracle{}, nil
	case KindScripted, KindSim:
		if setup.sims == nil {
			return nil, fmt.Errorf("reader %s: simulated readers need reader/sim (pass sim.Readers)", spec)
		}
		return setup.sims.Reader(spec)
	case KindLLM:
		if spec.Name != "" {
			return setup.reader(spec.Name)
		}
		ms := modelsOf(setup.cfg)
		switch len(ms) {
		case 0:
			return nil, fmt.Errorf("reader llm: no model: set %s (comma separated) or name one as llm:MODEL", llm.EnvModels)
		case 1:
			return setup.reader(ms[0])
		}
		return nil, fmt.Errorf("reader llm: %d models configured; name one as llm:MODEL (a reader list expands llm to all)", len(ms))
	}
	return nil, fmt.Errorf("unknown reader %q (want oracle, scripted:PROFILE, sim:PROFILE or llm[:MODEL])", spec)
}

// ParseList makes the readers of a comma-separated list of specs. A bare
// "llm" expands to one reader per model of ESR_LLM_MODELS (or cfg.Models), a
// bare "scripted" to every scripted profile, a bare "sim" to every sim
// profile. LLM readers share one client
// per endpoint (one concurrency limit each) and one cache. It fails clearly
// when an LLM reader is asked for and its model has no endpoint (unless
// cfg.Offline).
func ParseList(list string, cfg llm.Setup, sims Simulations) ([]Reader, error) {
	setup := &llmSetup{cfg: cfg, sims: sims}
	var out []Reader
	seen := map[Spec]bool{}
	add := func(r Reader) {
		if seen[r.Spec()] {
			if c, ok := r.(interface{ Close() error }); ok {
				c.Close()
			}
			return
		}
		seen[r.Spec()] = true
		out = append(out, r)
	}
	for _, spec := range strings.Split(list, ",") {
		spec = strings.TrimSpace(spec)
		switch spec {
		case "":
			continue
		case string(KindScripted), string(KindSim):
			if setup.sims == nil {
				return nil, fmt.Errorf("reader %s: simulated readers need reader/sim (pass sim.Readers)", spec)
			}
			rs, err := setup.sims.All(Kind(spec))
			if err != nil {
				return nil, err
			}
			for _, r := range rs {
				add(r)
			}
			continue
		case "llm":
			ms := modelsOf(cfg)
			if len(ms) == 0 {
				return nil, fmt.Errorf("reader llm: no model: set %s (comma separated) or name one as llm:MODEL", llm.EnvModels)
			}
			for _, m := range ms {
				r, err := setup.reader(m)
				if err != nil {
					return nil, err
				}
				add(r)
			}
			continue
		}
		r, err := parseOne(spec, setup)
		if err != nil {
			return nil, err
		}
		add(r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no reader named")
	}
	return out, nil
}

// Info describes a reader for `esr readers`.
type Info struct {
	Name      Spec   `json:"name"`
	Kind      string `json:"kind"`
	Simulated bool   `json:"simulated"`
	Summary   string `json:"summary,omitempty"`
	// Capabilities: Capabilities for scripted readers, the SimProfile for
	// sim readers, a description of what is read for the oracle, model and
	// template for LLM readers.
	Capabilities any `json:"capabilities"`
}

// OracleCapabilities describes the oracle reader.
type OracleCapabilities struct {
	ReadsState      bool `json:"reads_state"`
	RenderInvariant bool `json:"render_invariant"`
}

// LLMCapabilities describes an LLM reader.
type LLMCapabilities struct {
	Model              string  `json:"model"`
	Template           string  `json:"template"`
	NoAbstainTemplate  string  `json:"no_abstain_template"`
	Temperature        float64 `json:"temperature"`
	Generations        int     `json:"generations"`
	MaxTokens          int     `json:"max_tokens"`
	EndpointConfigured bool    `json:"endpoint_configured"`
}

// Catalog lists every reader: the oracle, each scripted profile, each sim
// (stochastic simulated) profile, and one
// LLM reader per configured model (cfg.Models or ESR_LLM_MODELS). It never
// shows the endpoint or the key.
func Catalog(cfg llm.Setup, sims Simulations) []Info {
	out := []Info{{Name: Spec{Kind: KindOracle}, Kind: "oracle", Summary: "reads the memory's structured state, not the render",
		Capabilities: OracleCapabilities{ReadsState: true, RenderInvariant: true}}}
	if sims != nil {
		out = append(out, sims.Catalog()...)
	}
	env := llm.Env{Getenv: cfg.Getenv, BaseURL: cfg.BaseURL}
	maxTok := cfg.MaxTokens
	if maxTok <= 0 {
		maxTok = defaultMaxTokens
	}
	for _, m := range modelsOf(cfg) {
		ep, _ := env.Endpoint(m)
		baseSet := cfg.Client != nil || ep.BaseURL != ""
		out = append(out, Info{Name: Spec{Kind: KindLLM, Name: m}, Kind: "llm", Summary: "OpenAI-compatible chat endpoint",
			Capabilities: LLMCapabilities{Model: m, Template: llm.MustBuiltin(llm.TemplateQAAbstain).Version(),
				NoAbstainTemplate: llm.MustBuiltin(llm.TemplateQANoAbstain).Version(), Temperature: 0,
				Generations: 1, MaxTokens: maxTok, EndpointConfigured: baseSet}})
	}
	return out
}
