//go:build !esr_offline

package llm

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

const httpIncluded = true

// httpTransport is the transport of net/http.
type httpTransport struct{ c *http.Client }

// newTransport makes the transport of a client: its own connection pool,
// keeping Concurrency idle connections per host.
func newTransport(cfg Config) (transport, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = cfg.Concurrency + 4
	tr.MaxIdleConns = 2 * (cfg.Concurrency + 4)
	return httpTransport{&http.Client{Transport: tr}}, nil
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
