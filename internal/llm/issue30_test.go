package llm_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/llm"
	"github.com/esrkit/esrkit/internal/llm/llmtest"
)

// These tests each cover one failure found by the second attack (issue 30);
// each failed before its fix.

// Item 16: a Retry-After beyond what a time.Duration holds (above about
// 9.2e9 s) overflowed to a negative wait, and the client retried at once. It
// is capped at MaxRetryAfter, and the retry line says so.
func TestRetryAfterOverflowIsCapped(t *testing.T) {
	for _, ra := range []string{"1e10", "99999999999999999999", "1e308"} {
		t.Run(ra, func(t *testing.T) {
			srv := llmtest.New(llmtest.Options{Reply: func(llmtest.Request) string { return "30 s" },
				Fault: func(hit int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
					if hit > 1 {
						return false
					}
					llmtest.Fail(w, 0, ra) // 429 with Retry-After
					return true
				}})
			defer srv.Close()
			const capAt = 300 * time.Millisecond
			c, logs := newClient(t, srv, func(cfg *llm.Config) { cfg.MaxRetryAfter = capAt })
			start := time.Now()
			if _, err := ask(c); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < capAt {
				t.Errorf("Retry-After %s: retried after %s, want at least the cap %s", ra, d, capAt)
			}
			if len(*logs) != 1 || !strings.Contains((*logs)[0], "capped") {
				t.Errorf("the retry line does not say the server's Retry-After was capped: %q", *logs)
			}
		})
	}
}
