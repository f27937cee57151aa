package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/esrkit/esrkit/internal/termsafe"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one chat-completions call. Temperature is sent as given (the
// readers, judge and extractor always use 0); one generation is asked for.
type Request struct {
	Model       string
	Messages    []Message
	Temperature float64
	// MaxTokens bounds the completion (0: the server's default).
	MaxTokens int
}

// Response is the first choice of a completion with the usage counts the
// server reported (0 when it reported none).
type Response struct {
	Content          string `json:"content"`
	FinishReason     string `json:"finish_reason,omitempty"`
	PromptTokens     int    `json:"prompt_tokens,omitempty"`
	CompletionTokens int    `json:"completion_tokens,omitempty"`
}

// Empty reports whether the response has no text: an empty or cut reply is
// a failed attempt, never an answer (it is neither cached nor imported, and
// a cached one is asked again).
func (r Response) Empty() bool { return strings.TrimSpace(r.Content) == "" }

// Stats counts a client's traffic.
type Stats struct {
	// Requests is HTTP attempts sent (retries included).
	Requests int64
	// Retries is attempts that failed transiently and were retried.
	Retries int64
	// Failures is calls that returned an error.
	Failures int64
	// Done is calls that returned a response.
	Done int64
}

// counters are one model's (or the whole client's) traffic.
type counters struct {
	requests, retries, failures, done atomic.Int64
}

func (c *counters) stats() Stats {
	return Stats{Requests: c.requests.Load(), Retries: c.retries.Load(), Failures: c.failures.Load(), Done: c.done.Load()}
}

// Client calls one OpenAI-compatible endpoint. It is safe for concurrent use.
type Client struct {
	cfg     Config
	url     string
	secrets []string // the API key and the base URL's password and query values, for redact
	post    transport
	sem     chan struct{}
	all     counters
	models  sync.Map // model → *counters
	breaker breaker
}

// ErrNoBaseURL is returned by New when no base URL is configured.
var ErrNoBaseURL = errors.New(EnvBaseURL + " is not set (the OpenAI-compatible endpoint, e.g. http://localhost:8000/v1)")

// New makes a client.
func New(cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	base := strings.TrimSpace(cfg.BaseURL)
	if base == "" {
		return nil, ErrNoBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		// The value is not echoed: a URL can carry credentials.
		return nil, fmt.Errorf("the base URL (%s) is not an http(s) URL such as http://localhost:8000/v1", EnvBaseURL)
	}
	post, err := newTransport(cfg)
	if err != nil {
		return nil, err
	}
	secrets := append(urlSecrets(u), cfg.APIKey)
	return &Client{cfg: cfg, url: completionsURL(u), secrets: secrets, post: post, sem: make(chan struct{}, cfg.Concurrency)}, nil
}

// completionsURL is the chat-completions endpoint of base URL u: its path
// joined with /chat/completions (unless it ends so already), its query
// string kept after it (…/v1?api-key=K → …/v1/chat/completions?api-key=K),
// its fragment dropped.
func completionsURL(u *url.URL) string {
	e := *u
	p := strings.TrimRight(e.EscapedPath(), "/")
	if !strings.HasSuffix(p, "/chat/completions") {
		p += "/chat/completions"
	}
	e.Path, _ = url.PathUnescape(p)
	e.RawPath = p
	e.Fragment, e.RawFragment = "", ""
	return e.String()
}

// Concurrency is the client's limit on requests in flight.
func (c *Client) Concurrency() int { return c.cfg.Concurrency }

// Stats reports the client's traffic so far.
func (c *Client) Stats() Stats { return c.all.stats() }

// ModelStats reports the traffic of one model's calls so far.
func (c *Client) ModelStats(model string) Stats { return c.model(model).stats() }

func (c *Client) model(m string) *counters {
	if v, ok := c.models.Load(m); ok {
		return v.(*counters)
	}
	v, _ := c.models.LoadOrStore(m, &counters{})
	return v.(*counters)
}

// Error is a failed call: the last attempt's problem, how many attempts were
// made, and the HTTP status when there was one. Its text is redacted.
type Error struct {
	Status   int
	Attempts int
	Msg      string
	// Temporary is whether the last failure was of a retryable kind (the
	// retry budget ran out).
	Temporary bool
}

func (e *Error) Error() string {
	if e.Attempts > 1 {
		return fmt.Sprintf("llm: %s (gave up after %d attempts)", e.Msg, e.Attempts)
	}
	return "llm: " + e.Msg
}

// attemptError is one attempt's failure before it is wrapped.
type attemptError struct {
	status     int
	msg        string
	retry      bool
	retryAfter time.Duration
}

// Chat sends req and returns the first choice, retrying transient failures
// (429, 408, 5xx, timeouts, network errors, malformed or truncated bodies)
// with exponential backoff and jitter, honouring Retry-After, up to
// MaxRetries retries. Other HTTP errors fail at once. Cancelling ctx stops at
// once with ctx's error.
func (c *Client) Chat(ctx context.Context, req Request) (Response, error) {
	body, err := requestBody(req)
	if err != nil {
		return Response{}, err
	}
	mc := c.model(req.Model)
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return Response{}, err
		}
		if err := c.breaker.down(); err != nil {
			return Response{}, err
		}
		select {
		case c.sem <- struct{}{}:
		case <-ctx.Done():
			return Response{}, ctx.Err()
		}
		if err := c.breaker.down(); err != nil {
			<-c.sem
			return Response{}, err
		}
		mc.requests.Add(1)
		resp, aerr := c.attempt(ctx, body)
		<-c.sem
		if aerr == nil {
			c.breaker.success()
			c.all.done.Add(1)
			mc.done.Add(1)
			return resp, nil
		}
		if err := ctx.Err(); err != nil {
			return Response{}, err
		}
		final := !aerr.retry || attempt >= c.cfg.MaxRetries
		c.breaker.failure(c, aerr, final)
		if final {
			c.all.failures.Add(1)
			mc.failures.Add(1)
			return Response{}, &Error{Status: aerr.status, Attempts: attempt + 1, Msg: c.redact(aerr.msg), Temporary: aerr.retry}
		}
		c.all.retries.Add(1)
		mc.retries.Add(1)
		wait := c.backoff(attempt, aerr.retryAfter)
		if c.cfg.Log != nil {
			capped := ""
			if aerr.retryAfter > c.cfg.MaxRetryAfter {
				capped = fmt.Sprintf(" (Retry-After asked for %s, capped at %s)", retryAfterText(aerr.retryAfter), c.cfg.MaxRetryAfter)
			}
			c.cfg.Log(c.redact(fmt.Sprintf("llm: %s model %s: %s; retry %d/%d in %s%s",
				c.safeURL(), req.Model, aerr.msg, attempt+1, c.cfg.MaxRetries, wait.Round(time.Millisecond), capped)))
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return Response{}, ctx.Err()
		}
	}
}

// backoff is the wait before retry number attempt+1: full jitter over the
// exponential bound, at least the server's Retry-After (capped).
func (c *Client) backoff(attempt int, retryAfter time.Duration) time.Duration {
	bound := c.cfg.BackoffBase
	for i := 0; i < attempt && bound < c.cfg.BackoffMax; i++ {
		bound *= 2
	}
	if bound > c.cfg.BackoffMax {
		bound = c.cfg.BackoffMax
	}
	wait := time.Duration(rand.Int64N(int64(bound) + 1))
	if retryAfter > c.cfg.MaxRetryAfter {
		retryAfter = c.cfg.MaxRetryAfter
	}
	if retryAfter > wait {
		// Honour the server, with a little jitter so clients do not return
		// in lockstep.
		wait = retryAfter + time.Duration(rand.Int64N(int64(retryAfter)/10+1))
	}
	return wait
}

// requestBody is the JSON body Chat sends for req (and the "body" of a
// batch request line): model, messages, temperature, n = 1, max_tokens when
// set, stream false.
func requestBody(req Request) ([]byte, error) {
	return json.Marshal(wireRequest{Model: req.Model, Messages: req.Messages,
		Temperature: req.Temperature, N: 1, MaxTokens: req.MaxTokens})
}

type wireRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature float64   `json:"temperature"`
	N           int       `json:"n"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Stream      bool      `json:"stream"`
}

type wireResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message *struct {
			Content   *string         `json:"content"`
			ToolCalls json.RawMessage `json:"tool_calls"`
		} `json:"message"`
		Text         *string `json:"text"`
		FinishReason string  `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// maxBody bounds a response body.
const maxBody = 16 << 20

func (c *Client) attempt(ctx context.Context, body []byte) (Response, *attemptError) {
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	header := [][2]string{{"Content-Type", "application/json"}, {"Accept", "application/json"}}
	if c.cfg.APIKey != "" {
		header = append(header, [2]string{"Authorization", "Bearer " + c.cfg.APIKey})
	}
	c.all.requests.Add(1)
	reply, err := c.post.post(actx, c.url, header, body)
	if err != nil {
		return Response{}, c.transportError(ctx, actx, err)
	}
	data, rerr := reply.Body, reply.ReadErr
	if reply.StatusCode < 200 || reply.StatusCode > 299 {
		ae := &attemptError{status: reply.StatusCode,
			msg: fmt.Sprintf("HTTP %d from %s: %s", reply.StatusCode, c.safeURL(), snippet(data, c.secrets))}
		switch {
		case reply.StatusCode == statusTooManyRequests, reply.StatusCode == statusRequestTimeout,
			reply.StatusCode >= 500:
			ae.retry = true
			ae.retryAfter = parseRetryAfter(reply.RetryAfter, time.Now())
		}
		return Response{}, ae
	}
	if rerr != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return Response{}, &attemptError{status: reply.StatusCode, retry: true,
				msg: fmt.Sprintf("timed out after %s reading the response", c.cfg.Timeout)}
		}
		return Response{}, &attemptError{status: reply.StatusCode, retry: true,
			msg: "truncated response: " + rerr.Error()}
	}
	r, _, msg := parseCompletion(data, c.secrets)
	if msg != "" {
		return Response{}, &attemptError{status: reply.StatusCode, retry: true, msg: msg}
	}
	// A proxy that echoes request headers must not get the key into
	// answers, outcome rows or the cache.
	r.Content = c.redactAnswer(r.Content)
	return r, nil
}

// parseCompletion reads a chat-completions body and the model it names;
// msg says what is wrong with it ("" when it is fine). A reply without text
// is wrong: no message, content null or empty (a reasoning model that spent
// max_tokens before answering: finish_reason "length"), or tool calls only.
// msg quotes the body with keys redacted (snippet).
func parseCompletion(data []byte, keys []string) (r Response, model, msg string) {
	var w wireResponse
	if err := json.Unmarshal(data, &w); err != nil {
		return Response{}, "", fmt.Sprintf("malformed response (%v): %s", err, snippet(data, keys))
	}
	if len(w.Choices) == 0 {
		msg := "response has no choices"
		if len(w.Error) > 0 && string(w.Error) != "null" {
			msg = "response reports an error: " + snippet(w.Error, keys)
		}
		return Response{}, w.Model, msg + ": " + snippet(data, keys)
	}
	ch := w.Choices[0]
	r.FinishReason = ch.FinishReason
	switch {
	case ch.Message != nil && ch.Message.Content != nil:
		r.Content = *ch.Message.Content
	case ch.Text != nil:
		r.Content = *ch.Text
	}
	if w.Usage != nil {
		r.PromptTokens, r.CompletionTokens = w.Usage.PromptTokens, w.Usage.CompletionTokens
	}
	if r.Empty() {
		what := "empty reply"
		switch {
		case ch.Message == nil && ch.Text == nil:
			what = "the reply has no message"
		case ch.Message != nil && len(ch.Message.ToolCalls) > 0 && string(ch.Message.ToolCalls) != "null" && string(ch.Message.ToolCalls) != "[]":
			what = "the reply has tool calls only, no text"
		case ch.Message != nil && ch.Message.Content == nil && ch.Text == nil:
			what = "empty reply (content null)"
		}
		if r.FinishReason == "length" {
			what += ": the model reached max_tokens before answering (finish_reason \"length\"; raise max_tokens for a reasoning model)"
		} else if r.FinishReason != "" {
			what += fmt.Sprintf(" (finish_reason %q)", r.FinishReason)
		}
		return Response{}, w.Model, what
	}
	return r, w.Model, ""
}

// transportError classifies an error from the transport (http.Client.Do): the caller's
// cancellation is final, everything else (the attempt's own timeout,
// refused or reset connections, EOF) is retried.
func (c *Client) transportError(ctx, actx context.Context, err error) *attemptError {
	if ctx.Err() != nil {
		return &attemptError{msg: ctx.Err().Error()}
	}
	if actx.Err() != nil {
		return &attemptError{retry: true, msg: fmt.Sprintf("timed out after %s waiting for %s", c.cfg.Timeout, c.safeURL())}
	}
	return &attemptError{retry: true, msg: "request failed: " + err.Error()}
}

// parseRetryAfter reads a Retry-After header: delay seconds (fractions
// accepted) or an HTTP date. Unparseable, negative, NaN or absent: 0. A delay
// longer than a time.Duration holds (about 292 years) saturates at the
// longest one instead of wrapping to a negative wait (which retried at
// once); backoff then caps it at Config.MaxRetryAfter.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		switch {
		case !(s > 0): // negative, zero or NaN
			return 0
		case s >= float64(math.MaxInt64)/float64(time.Second):
			return math.MaxInt64
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := parseHTTPDate(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// retryAfterText is a Retry-After delay for a message ("over 292 years" when
// it saturated).
func retryAfterText(d time.Duration) string {
	if d == math.MaxInt64 {
		return "over 292 years"
	}
	return d.Round(time.Second).String()
}

// maxSnippet bounds the part of a server's body an error message quotes.
const maxSnippet = 200

// snippet is the start of a server's body for an error message: on one
// line, every secret in keys and every URL's query values redacted before
// it is cut (a key the cut ran through would leave its start), and escaped
// for a terminal (termsafe.Escape: a reply cannot colour, clear or retitle
// the screen that shows the error).
func snippet(b []byte, keys []string) string {
	s := termsafe.Escape(redactAll(strings.Join(strings.Fields(string(b)), " "), keys))
	if len(s) > maxSnippet {
		cut := maxSnippet
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	if s == "" {
		s = "(empty body)"
	}
	return s
}

// safeURL is the endpoint without user info or query string.
func (c *Client) safeURL() string {
	u, err := url.Parse(c.url)
	if err != nil {
		return "(endpoint)"
	}
	u.User = nil
	u.RawQuery = ""
	u.Fragment = ""
	return u.String()
}
