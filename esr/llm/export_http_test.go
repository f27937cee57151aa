//go:build !esr_offline

package llm

import (
	"crypto/tls"
	"net/http"
)

// TrustTLS makes c's transport trust what cfg trusts (a test server's
// certificate: httptest.Server.Client's TLS configuration).
func TrustTLS(c *Client, cfg *tls.Config) {
	c.post.(httpTransport).c.Transport.(*http.Transport).TLSClientConfig = cfg.Clone()
}

// CheckRedirect is the HTTP client's redirect policy.
var CheckRedirect = checkRedirect
