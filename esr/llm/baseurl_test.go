//go:build !esr_offline

package llm_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// querySecret is a key given in the base URL's query string, as Azure-style
// gateways take it (…/v1?api-key=KEY).
const querySecret = "qk-SECRET-0a1b2c3d4e5f"

// The request goes to the base URL's path joined with /chat/completions,
// its query string after it (it was appended after the query string).
func TestBaseURLQueryStaysAfterThePath(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.Path+" ? "+r.URL.RawQuery)
		mu.Unlock()
		llmtest.WriteCompletion(w, "ok", false, llmtest.Request{Model: "m1"})
	}))
	defer srv.Close()
	for base, want := range map[string]string{
		"/v1?api-version=2024-06-01&api-key=" + querySecret: "/v1/chat/completions ? api-version=2024-06-01&api-key=" + querySecret,
		"/v1/?api-key=" + querySecret + "#frag":             "/v1/chat/completions ? api-key=" + querySecret,
		"/v1/chat/completions?api-key=" + querySecret:       "/v1/chat/completions ? api-key=" + querySecret,
		"/openai/deployments/a%2Fb/?x=1":                    "/openai/deployments/a/b/chat/completions ? x=1",
		"/v1":                                               "/v1/chat/completions ? ",
		"":                                                  "/chat/completions ? ",
	} {
		mu.Lock()
		got = nil
		mu.Unlock()
		c, err := llm.New(llm.Config{BaseURL: srv.URL + base, Timeout: 5 * time.Second, MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ask(c); err != nil {
			t.Errorf("base %s: %v", base, err)
		}
		mu.Lock()
		if len(got) != 1 || got[0] != want {
			t.Errorf("base %s: the server got %q, want %q", base, got, want)
		}
		mu.Unlock()
	}
}

// closedPort is an address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// A key in the base URL's query string never reaches an error, a log line
// or the fill summary (llm-summary.json): not from a refused connection
// (net/http's error quotes the whole URL), nor from a server that echoes
// the URL it was asked for.
func TestBaseURLQueryValuesAreRedacted(t *testing.T) {
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"upstream failed for `+r.URL.String()+` (key `+r.URL.Query().Get("api-key")+`)"}`, http.StatusBadGateway)
	}))
	defer echo.Close()
	for _, base := range []string{"http://" + closedPort(t) + "/v1", echo.URL + "/v1"} {
		base += "?api-version=2024-06-01&api-key=" + querySecret
		var mu sync.Mutex
		var logs []string
		cfg := llm.Config{BaseURL: base, Timeout: 5 * time.Second, MaxRetries: 2, BackoffBase: time.Millisecond, BackoffMax: time.Millisecond,
			BreakAfter: 3, Log: func(s string) { mu.Lock(); logs = append(logs, s); mu.Unlock() }}
		c, err := llm.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ask(c)
		if err == nil {
			t.Fatalf("%s: the call succeeded", base)
		}
		t.Logf("%s: %v", base, err)
		texts := append([]string{err.Error()}, logs...)
		// Fill, as esr run does, through a pool, writing its summary.
		cache, cerr := llm.OpenCache(t.TempDir())
		if cerr != nil {
			t.Fatal(cerr)
		}
		var progress strings.Builder
		pool := llm.NewPool(llm.Env{BaseURL: base, Getenv: func(string) string { return "" }}, cfg)
		sum, _ := llm.Fill(context.Background(), pool, cache, planned("m1", 5, 0), llm.FillOptions{Progress: &progress})
		cache.Close()
		js, _ := json.Marshal(sum)
		texts = append(texts, string(js), progress.String())
		for _, s := range texts {
			if strings.Contains(s, querySecret) {
				t.Errorf("%s: the query's key leaks: %s", base, s)
			}
		}
		if !strings.Contains(strings.Join(texts, "\n"), "HTTP 502") && !strings.Contains(strings.Join(texts, "\n"), "refused") {
			t.Errorf("%s: the error no longer says what failed: %v", base, texts)
		}
	}
	// An answer keeps a date that is the public api-version, and URLs of its own.
	date := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		llmtest.WriteCompletion(w, "2024-06-01, see https://example.org/a?b=c", false, llmtest.Request{Model: "m1"})
	}))
	defer date.Close()
	c, err := llm.New(llm.Config{BaseURL: date.URL + "/v1?api-version=2024-06-01&api-key=" + querySecret, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := ask(c); err != nil || r.Content != "2024-06-01, see https://example.org/a?b=c" {
		t.Errorf("the answer came back as %q, %v", r.Content, err)
	}
	if got := llm.Redact(`Post "https://gw.example.org/v1/chat/completions?api-version=1&api-key=`+querySecret+`#x": EOF`, ""); strings.Contains(got, querySecret) {
		t.Errorf("Redact left a query value: %s", got)
	}
}
