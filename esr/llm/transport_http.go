//go:build !esr_offline

package llm

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// httpIncluded reports whether this program can send requests: false when
// it was built with the esr_offline tag.
const httpIncluded = true

// httpTransport is the transport of net/http.
type httpTransport struct{ c *http.Client }

// newTransport makes the transport of a client: its own connection pool,
// keeping Concurrency idle connections per host.
func newTransport(cfg Config) (transport, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = cfg.Concurrency + 4
	tr.MaxIdleConns = 2 * (cfg.Concurrency + 4)
	return httpTransport{&http.Client{Transport: tr, CheckRedirect: checkRedirect}}, nil
}

// checkRedirect lets a redirect carry the API key only while every hop
// stays in the first request's origin (scheme, host and port): net/http
// keeps Authorization for the same host name whatever the port or scheme,
// so a 307 to another port, or from https to http, would hand the key to
// another server or send it in cleartext. Redirected elsewhere, the request
// goes without it (and an endpoint that needs it says 401).
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	first := origin(via[0].URL)
	same := origin(req.URL) == first
	for _, r := range via[1:] {
		same = same && origin(r.URL) == first
	}
	if !same {
		req.Header.Del("Authorization")
	}
	return nil
}

// origin is u's scheme, host and port, the port spelled out when it is
// the scheme's default.
func origin(u *url.URL) string {
	scheme, port := strings.ToLower(u.Scheme), u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

func (t httpTransport) post(ctx context.Context, url string, header [][2]string, body []byte) (wireReply, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return wireReply{}, err
	}
	for _, h := range header {
		req.Header.Set(h[0], h[1])
	}
	resp, err := t.c.Do(req)
	if err != nil {
		return wireReply{}, err
	}
	defer resp.Body.Close()
	data, rerr := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	return wireReply{StatusCode: resp.StatusCode, Body: data, ReadErr: rerr, RetryAfter: resp.Header.Get("Retry-After")}, nil
}
