//go:build !esr_offline

package llm_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// redirector answers every request with a 307 to the same path on to.
func redirector(to string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	})
}

// redirected sends one request through from (its base URL) and returns
// what the endpoint it was redirected to received.
func redirected(t *testing.T, from *httptest.Server, to *llmtest.Server) []llmtest.Request {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: from.URL + "/v1", APIKey: secret, Timeout: 5 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if from.TLS != nil {
		llm.TrustTLS(c, from.Client().Transport.(*http.Transport).TLSClientConfig)
	}
	if _, err := ask(c); err != nil {
		t.Logf("call: %v", err) // the endpoint may refuse a request without its key
	}
	got := to.Requests()
	if len(got) == 0 {
		t.Fatal("the redirect was not followed: this test checks nothing")
	}
	return got
}

// A 307 from the endpoint to another port of the same host does not carry
// the API key there: net/http keeps Authorization for the same host name
// whatever the port.
func TestRedirectToAnotherPortDropsTheKey(t *testing.T) {
	to := llmtest.New(llmtest.Options{Keep: true})
	defer to.Close()
	from := httptest.NewServer(redirector(to.URL))
	defer from.Close()
	for _, r := range redirected(t, from, to) {
		if r.Auth != "" {
			t.Errorf("the request redirected from %s to %s carried Authorization %q", from.URL, to.URL, r.Auth)
		}
	}
}

// A 307 from https to http on the same host does not send the key in
// cleartext.
func TestRedirectFromHTTPSToHTTPDropsTheKey(t *testing.T) {
	to := llmtest.New(llmtest.Options{Keep: true})
	defer to.Close()
	from := httptest.NewTLSServer(redirector(to.URL))
	defer from.Close()
	for _, r := range redirected(t, from, to) {
		if r.Auth != "" {
			t.Errorf("the request redirected from %s to %s carried Authorization %q", from.URL, to.URL, r.Auth)
		}
	}
}

// A redirect within the endpoint's own origin (another path) keeps the key.
func TestRedirectWithinTheOriginKeepsTheKey(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Keep: true})
	defer srv.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/old/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v1/chat/completions", http.StatusTemporaryRedirect)
	})
	mux.Handle("/v1/", srv.Config.Handler)
	same := httptest.NewServer(mux)
	defer same.Close()
	c, err := llm.New(llm.Config{BaseURL: same.URL + "/old", APIKey: secret, Timeout: 5 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask(c); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests(); len(got) != 1 || got[0].Auth != "Bearer "+secret {
		t.Errorf("the request redirected within %s: %+v, want it with the key", same.URL, got)
	}
}

// The redirect policy keeps the key only while every hop stays in the first
// request's scheme, host and port (a default port spelled out or not).
func TestRedirectPolicyKeepsTheKeyInTheOrigin(t *testing.T) {
	for _, c := range []struct {
		chain []string // the first request, the hops, the redirected request
		keep  bool
	}{
		{[]string{"https://api.example.org/v1/chat/completions", "https://api.example.org/v2/chat/completions"}, true},
		{[]string{"https://api.example.org/v1", "https://API.example.org:443/v1"}, true},
		{[]string{"http://127.0.0.1:18001/v1", "http://127.0.0.1:18002/v1"}, false},
		{[]string{"https://api.example.org/v1", "http://api.example.org/v1"}, false},
		{[]string{"https://api.example.org:8443/v1", "http://api.example.org:8443/v1"}, false},
		{[]string{"https://api.example.org/v1", "https://evil.example.org/v1"}, false},
		// Back to the first origin after a detour: the detour chose where.
		{[]string{"https://api.example.org/v1", "https://api.example.org:8443/x", "https://api.example.org/admin"}, false},
	} {
		var via []*http.Request
		for _, u := range c.chain[:len(c.chain)-1] {
			via = append(via, httptest.NewRequest(http.MethodPost, u, nil))
		}
		req := httptest.NewRequest(http.MethodPost, c.chain[len(c.chain)-1], nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		if err := llm.CheckRedirect(req, via); err != nil {
			t.Fatal(err)
		}
		if kept := req.Header.Get("Authorization") != ""; kept != c.keep {
			t.Errorf("%v: key kept %v, want %v", c.chain, kept, c.keep)
		}
	}
}
