package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

func TestEnvEndpoints(t *testing.T) {
	env := map[string]string{
		"ESR_LLM_BASE_URL":           "http://default:8000/v1",
		"ESR_LLM_API_KEY":            "k-default",
		"ESR_LLM_MODELS":             "qwen2.5-7b=http://h1:8001/v1, llama-3.1-8b ,meta/Llama-3=https://h2/v1?x=1,qwen2.5-7b",
		"ESR_LLM_JUDGE_MODEL":        "deepseek-v3=https://api.example/v1",
		"ESR_LLM_API_KEY_QWEN2_5_7B": "k-qwen",
		"ESR_LLM_CONCURRENCY":        "16, llama-3.1-8b=4",
	}
	e := llm.Env{Getenv: func(k string) string { return env[k] }}
	if got := llm.ModelsFromEnv(e.Getenv); strings.Join(got, ",") != "qwen2.5-7b,llama-3.1-8b,meta/Llama-3" {
		t.Errorf("models %v", got)
	}
	if j, _ := e.JudgeModel(); j != "deepseek-v3" || llm.JudgeModelFromEnv(e.Getenv) != "deepseek-v3" {
		t.Errorf("judge %q", j)
	}
	for _, c := range []struct {
		model, url, key string
		conc            int
	}{
		{"qwen2.5-7b", "http://h1:8001/v1", "k-qwen", 16},
		{"llama-3.1-8b", "http://default:8000/v1", "k-default", 4},
		{"meta/Llama-3", "https://h2/v1?x=1", "k-default", 16},
		{"deepseek-v3", "https://api.example/v1", "k-default", 16},
	} {
		ep, err := e.Endpoint(c.model)
		if err != nil || ep.BaseURL != c.url || ep.APIKey != c.key || ep.Concurrency != c.conc {
			t.Errorf("%s: %+v %v", c.model, ep, err)
		}
		if strings.Contains(ep.String(), ep.APIKey) || strings.Contains(ep.String(), "x=1") {
			t.Errorf("String leaks: %s", ep)
		}
	}
	if llm.KeyEnv("meta-llama/Llama-3.1-8B-Instruct") != "ESR_LLM_API_KEY_META_LLAMA_LLAMA_3_1_8B_INSTRUCT" {
		t.Error(llm.KeyEnv("meta-llama/Llama-3.1-8B-Instruct"))
	}
	e.Concurrency = 2 // the CLI flag
	if ep, _ := e.Endpoint("llama-3.1-8b"); ep.Concurrency != 2 {
		t.Errorf("override: %d", ep.Concurrency)
	}
	// Bad items name the variable and the item, not the value.
	env["ESR_LLM_MODELS"] = "a=http://ok/v1,b=secret-not-a-url"
	if _, err := e.Endpoint("a"); err == nil || !strings.Contains(err.Error(), "ESR_LLM_MODELS: item 2 (model b)") || strings.Contains(err.Error(), "secret") {
		t.Errorf("bad URL item: %v", err)
	}
	env["ESR_LLM_MODELS"] = "a"
	env["ESR_LLM_CONCURRENCY"] = "8,a=zero"
	if _, err := e.Endpoint("a"); err == nil || !strings.Contains(err.Error(), `ESR_LLM_CONCURRENCY: item 2 "a=zero"`) {
		t.Errorf("bad concurrency: %v", err)
	}
}

// The pool makes one client per endpoint: models on one server share its
// limit, models on two servers each get their own.
func TestPoolSharesPerEndpoint(t *testing.T) {
	env := map[string]string{"ESR_LLM_BASE_URL": "http://shared/v1", "ESR_LLM_MODELS": "a,b,c=http://own/v1"}
	p := llm.NewPool(llm.Env{Getenv: func(k string) string { return env[k] }}, llm.Config{})
	a, _ := p.Client("a")
	b, _ := p.Client("b")
	c, _ := p.Client("c")
	if a != b || a == c {
		t.Errorf("clients: a==b %v, a==c %v", a == b, a == c)
	}
	env["ESR_LLM_BASE_URL"] = ""
	p = llm.NewPool(llm.Env{Getenv: func(k string) string { return env[k] }}, llm.Config{})
	if _, err := p.Client("a"); err == nil || !strings.Contains(err.Error(), "no endpoint for model a") {
		t.Errorf("missing endpoint: %v", err)
	}
}

func planned(model string, n, round int) []llm.Planned {
	out := make([]llm.Planned, n)
	for i := range out {
		msgs := []llm.Message{{Role: "user", Content: fmt.Sprintf("round %d question %d", round, i)}}
		out[i] = llm.Planned{Key: llm.Key(model, "t1", msgs, llm.Params{N: 1}), Template: "t1",
			Request: llm.Request{Model: model, Messages: msgs}}
	}
	return out
}

// Fill honours the endpoint limit, goes on past failures, and an
// interrupted fill resumes: what arrived is cached and not asked again.
func TestFillResumesAndCountsFailures(t *testing.T) {
	s := llmtest.New(llmtest.Options{Latency: 20 * time.Millisecond, Fault: func(hit int, r llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
		if strings.Contains(r.User(), "question 7\"") || strings.HasSuffix(r.User(), "question 7") {
			llmtest.Fail(w, 1, "") // always 500
			return true
		}
		return false
	}})
	defer s.Close()
	cache, err := llm.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	pool := llm.NewPool(llm.Env{BaseURL: s.BaseURL(), Concurrency: 4, Getenv: func(string) string { return "" }},
		llm.Config{MaxRetries: 1, BackoffBase: time.Millisecond})
	reqs := planned("m", 60, 0)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for s.Hits() < 12 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	sum, err := llm.Fill(ctx, pool, cache, reqs, llm.FillOptions{})
	if err == nil || sum.Done >= 60 || sum.Done == 0 {
		t.Fatalf("interrupted fill: %+v %v", sum, err)
	}
	if cache.Len() != sum.Done {
		t.Errorf("cached %d, done %d", cache.Len(), sum.Done)
	}
	// Resume: plan again (what is cached is skipped).
	var rest []llm.Planned
	for _, p := range reqs {
		if _, ok, _ := cache.Get(p.Key); !ok {
			rest = append(rest, p)
		}
	}
	var progress strings.Builder
	sum2, err := llm.Fill(context.Background(), pool, cache, rest, llm.FillOptions{Progress: &progress})
	if err != nil || sum2.Done+sum2.Failed != len(rest) || sum2.Failed != 1 || cache.Len() != 59 {
		t.Fatalf("resumed fill: %+v %v (cache %d)", sum2, err, cache.Len())
	}
	if s.Peak() > 4 {
		t.Errorf("peak %d > limit 4", s.Peak())
	}
	if !strings.Contains(progress.String(), "llm done m: ") || len(sum2.Models[0].Failures) != 1 {
		t.Errorf("progress %q, failures %v", progress.String(), sum2.Models[0].Failures)
	}
}

// A cache-only call names the command that fills the cache; a plan records
// instead of sending.
func TestOfflineAndPlan(t *testing.T) {
	cache, _ := llm.OpenCache(t.TempDir())
	defer cache.Close()
	req := llm.Request{Model: "m", Messages: []llm.Message{{Role: "user", Content: "q"}}}
	_, _, err := llm.Cached(context.Background(), nil, cache, "t", req)
	if !errors.Is(err, llm.ErrNotCached) || !strings.Contains(err.Error(), "make llm-cache") {
		t.Errorf("offline miss: %v", err)
	}
	p := llm.NewPlan()
	ctx := llm.WithPlan(context.Background(), p)
	for i := 0; i < 3; i++ { // the same request thrice counts once
		if _, hit, err := llm.Cached(ctx, nil, cache, "t", req); err != nil || hit {
			t.Fatal(err)
		}
	}
	if ms := p.Models(); len(ms) != 1 || ms[0].Requests != 1 || ms[0].ToSend != 1 || ms[0].PromptTokens != llm.EstimateTokens(req.Messages) {
		t.Errorf("plan %+v", ms)
	}
}
