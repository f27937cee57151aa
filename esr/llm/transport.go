package llm

import (
	"context"
	"errors"
	"time"
)

// The HTTP client is one file, transport_http.go, left out of a program
// built with the esr_offline build tag (transport_offline.go instead). The
// notebooks build with it (their first cell's %goflags): they read LLM
// answers from the cache only unless ESR_LLM_ONLINE=1, and net/http with
// TLS is about a fifth of what every cell's program links (README,
// Performance). Everything else in this package is the same in both builds.

// ErrNoHTTP is New's error in a program built with the esr_offline tag.
var ErrNoHTTP = errors.New("this program was built with the esr_offline tag (a notebook's first cell sets it in %goflags), " +
	"which leaves the HTTP client out, so it cannot call an LLM endpoint: fill the response cache with `make llm-cache`, " +
	"or remove -tags=esr_offline from %goflags and rerun the cells")

// transport sends one chat-completions request.
type transport interface {
	// post sends body to url with the header fields given; an error means
	// no response arrived.
	post(ctx context.Context, url string, header [][2]string, body []byte) (wireReply, error)
}

// wireReply is what came back: the status, the body (read up to maxBody;
// ReadErr when reading it failed) and the Retry-After header.
type wireReply struct {
	StatusCode int
	Body       []byte
	ReadErr    error
	RetryAfter string
}

// The statuses the retry policy names (net/http's values).
const (
	statusRequestTimeout  = 408
	statusTooManyRequests = 429
)

// httpDateFormats are the date formats HTTP allows (RFC 9110 §5.6.7), as
// net/http.ParseTime tries them.
var httpDateFormats = []string{"Mon, 02 Jan 2006 15:04:05 GMT", time.RFC850, time.ANSIC}

// parseHTTPDate reads an HTTP date (a Retry-After value), as
// net/http.ParseTime does (TestParseHTTPDateMatchesNetHTTP).
func parseHTTPDate(v string) (t time.Time, err error) {
	for _, f := range httpDateFormats {
		if t, err = time.Parse(f, v); err == nil {
			return t, nil
		}
	}
	return t, err
}
