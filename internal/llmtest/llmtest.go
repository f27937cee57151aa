// Package llmtest is a local OpenAI-compatible chat-completions stub for
// tests, benchmarks and offline demos: it answers POST .../chat/completions
// with a reply function, optional latency and injectable faults, and counts
// the requests it served.
package llmtest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/esrkit/esrkit/esr/llm"
)

// Request is one request the stub received.
type Request struct {
	Model       string        `json:"model"`
	Messages    []llm.Message `json:"messages"`
	Temperature *float64      `json:"temperature"`
	N           int           `json:"n"`
	MaxTokens   int           `json:"max_tokens"`
	// Auth is the Authorization header.
	Auth string `json:"-"`
	// Raw is the request body.
	Raw []byte `json:"-"`
}

// User is the last user message.
func (r Request) User() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Options configure a stub.
type Options struct {
	// Reply gives the completion text (default "ABSTAIN").
	Reply func(Request) string
	// Latency delays every answer (the request's context still cancels it).
	Latency time.Duration
	// Fault, when set, is called first with the 1-based hit number; when it
	// returns true it has written the response itself.
	Fault func(hit int, req Request, w http.ResponseWriter, r *http.Request) bool
	// Usage reports usage.prompt_tokens as the prompt's byte length / 4 and
	// completion_tokens as 1.
	Usage bool
	// Keep records every request (Requests).
	Keep bool
	// Models, when set, are the only models served; a request for another
	// is answered 404 (one endpoint per model).
	Models []string
}

// Server is a running stub.
type Server struct {
	*httptest.Server
	opt   Options
	hits  atomic.Int64
	cur   atomic.Int64
	peak  atomic.Int64
	mu    sync.Mutex
	reqs  []Request
	wrong atomic.Int64
}

// WrongModel counts requests for a model outside Options.Models.
func (s *Server) WrongModel() int { return int(s.wrong.Load()) }

// New starts a stub; Close it when done.
func New(opt Options) *Server {
	s := &Server{opt: opt}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// NewOn starts a stub listening on addr, which must be a loopback address
// (127.0.0.1:PORT; port 0 picks one).
func NewOn(addr string, opt Options) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("llmtest: %s is not a loopback address (use 127.0.0.1:PORT)", addr)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{opt: opt}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.handle))
	s.Server.Listener.Close()
	s.Server.Listener = l
	s.Server.Start()
	return s, nil
}

// BaseURL is the API root to configure clients with (URL + "/v1").
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Hits is the number of requests served (faults included).
func (s *Server) Hits() int { return int(s.hits.Load()) }

// Peak is the largest number of requests the stub was serving at once.
func (s *Server) Peak() int { return int(s.peak.Load()) }

// Requests are the requests received (with Options.Keep).
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	n := int(s.hits.Add(1))
	cur := s.cur.Add(1)
	defer s.cur.Add(-1)
	for p := s.peak.Load(); cur > p && !s.peak.CompareAndSwap(p, cur); p = s.peak.Load() {
	}
	if r.Method != http.MethodPost || len(r.URL.Path) < len("/chat/completions") ||
		r.URL.Path[len(r.URL.Path)-len("/chat/completions"):] != "/chat/completions" {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		return
	}
	var req Request
	dec := json.NewDecoder(r.Body)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		http.Error(w, `{"error":"bad json"}`, http.StatusBadRequest)
		return
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	req.Auth, req.Raw = r.Header.Get("Authorization"), raw
	if s.opt.Keep {
		s.mu.Lock()
		s.reqs = append(s.reqs, req)
		s.mu.Unlock()
	}
	if len(s.opt.Models) > 0 && !slices.Contains(s.opt.Models, req.Model) {
		s.wrong.Add(1)
		http.Error(w, `{"error":"model not served here"}`, http.StatusNotFound)
		return
	}
	if s.opt.Fault != nil && s.opt.Fault(n, req, w, r) {
		return
	}
	if s.opt.Latency > 0 {
		t := time.NewTimer(s.opt.Latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	reply := "ABSTAIN"
	if s.opt.Reply != nil {
		reply = s.opt.Reply(req)
	}
	WriteCompletion(w, reply, s.opt.Usage, req)
}

// WriteCompletion writes a chat-completions response with one choice.
func WriteCompletion(w http.ResponseWriter, content string, usage bool, req Request) {
	resp := map[string]any{
		"id":      "stub",
		"object":  "chat.completion",
		"model":   req.Model,
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}, "finish_reason": "stop"}},
	}
	if usage {
		n := 0
		for _, m := range req.Messages {
			n += len(m.Content)
		}
		resp["usage"] = map[string]any{"prompt_tokens": n / 4, "completion_tokens": 1, "total_tokens": n/4 + 1}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// Faults returns an Options.Fault that makes a request fail its first
// attempts: a request whose body hashes into the first rate share fails
// its first `times` attempts (so every request succeeds eventually, and
// which ones fail does not depend on timing). The failures cycle through
// 429 (with Retry-After retryAfter seconds, "" for none), 500 and a
// truncated JSON body with status 200.
func Faults(rate float64, times int, retryAfter string) func(int, Request, http.ResponseWriter, *http.Request) bool {
	var mu sync.Mutex
	seen := map[[32]byte]int{}
	return func(_ int, req Request, w http.ResponseWriter, _ *http.Request) bool {
		h := sha256.Sum256(req.Raw)
		if float64(binary.BigEndian.Uint32(h[:4]))/float64(1<<32) >= rate {
			return false
		}
		mu.Lock()
		n := seen[h]
		seen[h] = n + 1
		mu.Unlock()
		if n >= times {
			return false
		}
		Fail(w, int(h[4])+n, retryAfter)
		return true
	}
}

// RandomFaults returns an Options.Fault that fails each attempt with
// probability rate (seeded, so a run's fault count is reproducible up to
// scheduling), cycling through the kinds of Fail.
func RandomFaults(rate float64, seed uint64, retryAfter string) func(int, Request, http.ResponseWriter, *http.Request) bool {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return func(hit int, _ Request, w http.ResponseWriter, _ *http.Request) bool {
		mu.Lock()
		f := rng.Float64() < rate
		mu.Unlock()
		if f {
			Fail(w, hit, retryAfter)
		}
		return f
	}
}

// Fail writes one injected fault, chosen by kind mod 3: 429 Too Many
// Requests (with Retry-After when not ""), 500, or a 200 whose JSON body is
// cut short.
func Fail(w http.ResponseWriter, kind int, retryAfter string) {
	switch kind % 3 {
	case 0:
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		http.Error(w, `{"error":"rate limited"}`, http.StatusTooManyRequests)
	case 1:
		http.Error(w, `{"error":"internal"}`, http.StatusInternalServerError)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"stub","choices":[{"index":0,"message":{"role":"assis`))
	}
}
