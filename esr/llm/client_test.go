package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

const secret = "sk-test-SECRET-9f8e7d6c5b4a"

func newClient(t *testing.T, srv *llmtest.Server, mod func(*llm.Config)) (*llm.Client, *[]string) {
	t.Helper()
	var mu sync.Mutex
	logs := &[]string{}
	cfg := llm.Config{BaseURL: srv.BaseURL(), APIKey: secret, Concurrency: 4, Timeout: 2 * time.Second,
		MaxRetries: 3, BackoffBase: time.Millisecond, BackoffMax: 5 * time.Millisecond,
		Log: func(s string) { mu.Lock(); *logs = append(*logs, s); mu.Unlock() }}
	if mod != nil {
		mod(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, logs
}

func ask(c *llm.Client) (llm.Response, error) {
	return c.Chat(context.Background(), llm.Request{Model: "m1",
		Messages: []llm.Message{{Role: "user", Content: "hi"}}})
}

func noSecret(t *testing.T, what string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, secret) {
			t.Errorf("%s leaks the API key: %s", what, s)
		}
	}
}

func TestChatRequestShape(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Keep: true, Usage: true, Reply: func(r llmtest.Request) string { return "30 s" }})
	defer srv.Close()
	c, _ := newClient(t, srv, nil)
	msgs, err := llm.MustBuiltin(llm.TemplateQAAbstain).Render(llm.QAData{Context: "CTX", Question: "Q?", QueryType: "snapshot"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Chat(context.Background(), llm.Request{Model: "qwen2.5-7b", Messages: msgs, MaxTokens: 32})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "30 s" || resp.PromptTokens == 0 || resp.CompletionTokens != 1 {
		t.Errorf("response %+v", resp)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Model != "qwen2.5-7b" || r.Temperature == nil || *r.Temperature != 0 || r.N != 1 || r.MaxTokens != 32 {
		t.Errorf("request %+v", r)
	}
	if !strings.Contains(string(r.Raw), `"temperature":0`) {
		t.Errorf("temperature not sent explicitly: %s", r.Raw)
	}
	if r.Auth != "Bearer "+secret {
		t.Errorf("auth header %q", r.Auth)
	}
	if len(r.Messages) != 2 || r.Messages[0].Role != "system" || !strings.Contains(r.User(), "CTX") ||
		!strings.Contains(r.User(), "Question: Q?") || !strings.Contains(r.User(), "reply with exactly ABSTAIN") {
		t.Errorf("messages %+v", r.Messages)
	}
}

func TestRetryAfter429(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Reply: func(llmtest.Request) string { return "ok" },
		Fault: func(n int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
			if n == 1 {
				w.Header().Set("Retry-After", "1")
				http.Error(w, `{"error":"rate limited"}`, http.StatusTooManyRequests)
				return true
			}
			return false
		}})
	defer srv.Close()
	c, logs := newClient(t, srv, nil)
	start := time.Now()
	resp, err := ask(c)
	if err != nil || resp.Content != "ok" {
		t.Fatalf("%v %+v", err, resp)
	}
	if el := time.Since(start); el < time.Second {
		t.Errorf("Retry-After: 1 not honoured (%s)", el)
	}
	if srv.Hits() != 2 || c.Stats().Retries != 1 {
		t.Errorf("hits %d, stats %+v", srv.Hits(), c.Stats())
	}
	if len(*logs) != 1 || !strings.Contains((*logs)[0], "HTTP 429") {
		t.Errorf("logs %q", *logs)
	}
	noSecret(t, "log", *logs...)
}

func Test5xxThenSuccessAndBudget(t *testing.T) {
	fails := 2
	srv := llmtest.New(llmtest.Options{Reply: func(llmtest.Request) string { return "ok" },
		Fault: func(n int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
			if n <= fails {
				http.Error(w, "upstream exploded", 500+n)
				return true
			}
			return false
		}})
	defer srv.Close()
	c, _ := newClient(t, srv, nil)
	if resp, err := ask(c); err != nil || resp.Content != "ok" || srv.Hits() != 3 {
		t.Fatalf("%v %+v hits %d", err, resp, srv.Hits())
	}
	// Always failing: a clear error after 1 + MaxRetries attempts.
	srv2 := llmtest.New(llmtest.Options{Fault: func(int, llmtest.Request, http.ResponseWriter, *http.Request) bool { return false }})
	srv2.Close()
	srv3 := llmtest.New(llmtest.Options{Fault: func(_ int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
		http.Error(w, "bad gateway", http.StatusBadGateway)
		return true
	}})
	defer srv3.Close()
	c3, _ := newClient(t, srv3, nil)
	_, err := ask(c3)
	var le *llm.Error
	if !errors.As(err, &le) || le.Status != 502 || le.Attempts != 4 || !le.Temporary {
		t.Fatalf("error %v (%+v)", err, le)
	}
	if !strings.Contains(err.Error(), "HTTP 502") || !strings.Contains(err.Error(), "gave up after 4 attempts") {
		t.Errorf("unclear error: %v", err)
	}
	if srv3.Hits() != 4 {
		t.Errorf("hits %d, want 4", srv3.Hits())
	}
}

func TestHangPastTimeout(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Reply: func(llmtest.Request) string { return "ok" },
		Fault: func(n int, _ llmtest.Request, w http.ResponseWriter, r *http.Request) bool {
			if n == 1 {
				select { // hang until the client gives up
				case <-r.Context().Done():
				case <-time.After(10 * time.Second):
				}
				return true
			}
			return false
		}})
	defer srv.Close()
	c, logs := newClient(t, srv, func(c *llm.Config) { c.Timeout = 150 * time.Millisecond })
	start := time.Now()
	resp, err := ask(c)
	if err != nil || resp.Content != "ok" {
		t.Fatalf("%v %+v", err, resp)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("took %s", el)
	}
	if len(*logs) != 1 || !strings.Contains((*logs)[0], "timed out") {
		t.Errorf("logs %q", *logs)
	}
}

func TestMalformedAndTruncated(t *testing.T) {
	for name, fault := range map[string]func(w http.ResponseWriter){
		"malformed": func(w http.ResponseWriter) { w.Write([]byte(`{not json at all`)) },
		"truncated-json": func(w http.ResponseWriter) {
			w.Write([]byte(`{"choices":[{"message":{"content":"3`))
		},
		"short-body": func(w http.ResponseWriter) {
			w.Header().Set("Content-Length", "500")
			w.Write([]byte(`{"choices":[{"message":`))
		},
		"no-choices": func(w http.ResponseWriter) { w.Write([]byte(`{"choices":[]}`)) },
	} {
		t.Run(name, func(t *testing.T) {
			// Twice broken, then fine: the call succeeds.
			srv := llmtest.New(llmtest.Options{Reply: func(llmtest.Request) string { return "ok" },
				Fault: func(n int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
					if n <= 2 {
						fault(w)
						return true
					}
					return false
				}})
			defer srv.Close()
			c, _ := newClient(t, srv, nil)
			if resp, err := ask(c); err != nil || resp.Content != "ok" {
				t.Fatalf("%v %+v", err, resp)
			}
			// Always broken: an error naming the problem, no panic.
			bad := llmtest.New(llmtest.Options{Fault: func(_ int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
				fault(w)
				return true
			}})
			defer bad.Close()
			c2, _ := newClient(t, bad, nil)
			_, err := ask(c2)
			if err == nil || !strings.Contains(err.Error(), "gave up after 4 attempts") {
				t.Fatalf("error %v", err)
			}
			if !strings.Contains(err.Error(), "malformed") && !strings.Contains(err.Error(), "truncated") &&
				!strings.Contains(err.Error(), "no choices") {
				t.Errorf("error does not say what was wrong: %v", err)
			}
		})
	}
}

func TestPermanentErrorAndRedaction(t *testing.T) {
	// A server that echoes the Authorization header back in its error.
	srv := llmtest.New(llmtest.Options{Fault: func(_ int, req llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
		http.Error(w, `{"error":"invalid key `+req.Auth+`"}`, http.StatusUnauthorized)
		return true
	}})
	defer srv.Close()
	c, _ := newClient(t, srv, nil)
	_, err := ask(c)
	if err == nil || srv.Hits() != 1 {
		t.Fatalf("err %v hits %d (401 must not be retried)", err, srv.Hits())
	}
	noSecret(t, "error", err.Error())
	if !strings.Contains(err.Error(), llm.Redacted) || !strings.Contains(err.Error(), "HTTP 401") {
		t.Errorf("error %v", err)
	}
	// A key in the URL's user info is not printed either.
	_, err = llm.New(llm.Config{BaseURL: "::" + secret})
	if err == nil {
		t.Fatal("bad URL accepted")
	}
	noSecret(t, "URL error", err.Error())
	if got := llm.Redact("GET https://user:"+secret+"@host/v1 failed", ""); strings.Contains(got, secret) {
		t.Errorf("user-info password not redacted: %s", got)
	}
	if _, err := llm.New(llm.Config{}); !errors.Is(err, llm.ErrNoBaseURL) {
		t.Errorf("no base URL: %v", err)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Fault: func(_ int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "slow down", http.StatusTooManyRequests)
		return true
	}})
	defer srv.Close()
	c, _ := newClient(t, srv, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Chat(ctx, llm.Request{Model: "m", Messages: []llm.Message{{Role: "user", Content: "x"}}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("cancel took %s", time.Since(start))
	}
}

func TestConcurrencyLimit(t *testing.T) {
	var mu sync.Mutex
	inflight, peak := 0, 0
	srv := llmtest.New(llmtest.Options{Fault: func(_ int, req llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
		mu.Lock()
		inflight++
		if inflight > peak {
			peak = inflight
		}
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		inflight--
		mu.Unlock()
		llmtest.WriteCompletion(w, "ok", false, req)
		return true
	}})
	defer srv.Close()
	c, _ := newClient(t, srv, func(c *llm.Config) { c.Concurrency = 3 })
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); ask(c) }()
	}
	wg.Wait()
	if peak > 3 || peak < 2 {
		t.Errorf("peak in flight %d, want ≤ 3 (and some parallelism)", peak)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	// Exercised through the client: an HTTP-date Retry-After in the past
	// means no extra wait.
	srv := llmtest.New(llmtest.Options{Reply: func(llmtest.Request) string { return "ok" },
		Fault: func(n int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
			if n == 1 {
				w.Header().Set("Retry-After", time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat))
				w.WriteHeader(http.StatusServiceUnavailable)
				json.NewEncoder(w).Encode(map[string]string{"error": "busy"})
				return true
			}
			return false
		}})
	defer srv.Close()
	c, _ := newClient(t, srv, nil)
	start := time.Now()
	if _, err := ask(c); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 500*time.Millisecond {
		t.Errorf("past Retry-After date waited %s", time.Since(start))
	}
}

func TestReplyEchoingKeyIsRedacted(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Reply: func(r llmtest.Request) string { return "your header was " + r.Auth }})
	defer srv.Close()
	c, _ := newClient(t, srv, nil)
	resp, err := ask(c)
	if err != nil {
		t.Fatal(err)
	}
	noSecret(t, "reply", resp.Content)
}
