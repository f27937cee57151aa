package llm

import (
	"errors"
	"fmt"
	"sync"
)

// Defaults of the circuit breaker (Config.BreakAfter, BreakAfterCalls).
const (
	defaultBreakAfter      = 50
	defaultBreakAfterCalls = 10
)

// ErrEndpointDown matches every *EndpointDownError with errors.Is.
var ErrEndpointDown = errors.New("llm: endpoint down")

// EndpointDownError is returned by every call to an endpoint whose circuit
// breaker is open: so many requests in a row failed that the endpoint is
// taken to be down, and no more are sent to it by this client.
type EndpointDownError struct {
	Endpoint string // without user info or query
	N        int    // failures in a row
	What     string // "attempts" (HTTP requests) or "requests" (calls, after their retries)
	Last     string // the last failure (redacted)
}

func (e *EndpointDownError) Error() string {
	return fmt.Sprintf("llm: endpoint %s is down: %d %s in a row failed (last: %s); nothing more is sent to it in this run",
		e.Endpoint, e.N, e.What, e.Last)
}

func (e *EndpointDownError) Is(target error) bool { return target == ErrEndpointDown }

// breaker counts one client's failures in a row: failed attempts other
// than 429 (the endpoint answers, it only asks to slow down) and failed
// calls (after their retries, 429 included). Either count reaching its
// limit opens it for good; any answer resets both.
type breaker struct {
	mu              sync.Mutex
	attempts, calls int
	open            *EndpointDownError
}

func (b *breaker) down() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open != nil {
		return b.open
	}
	return nil
}

func (b *breaker) success() {
	b.mu.Lock()
	b.attempts, b.calls = 0, 0
	b.mu.Unlock()
}

// failure records a failed attempt (final: the call gives up with it).
func (b *breaker) failure(c *Client, ae *attemptError, final bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open != nil {
		return
	}
	if ae.status != statusTooManyRequests {
		b.attempts++
	}
	if final {
		b.calls++
	}
	trip := func(n int, what string) {
		b.open = &EndpointDownError{Endpoint: c.safeURL(), N: n, What: what, Last: c.redact(ae.msg)}
		if c.cfg.Log != nil {
			c.cfg.Log(b.open.Error())
		}
	}
	switch {
	case c.cfg.BreakAfter > 0 && b.attempts >= c.cfg.BreakAfter:
		trip(b.attempts, "attempts")
	case c.cfg.BreakAfterCalls > 0 && b.calls >= c.cfg.BreakAfterCalls:
		trip(b.calls, "requests")
	}
}
