//go:build esr_offline

package llm

import (
	"errors"
	"strings"
	"testing"
)

// TestOfflineBuildCannotSend runs only in the esr_offline build
// (TestOfflineBuild runs it): New refuses at once, naming the tag and the
// two ways out, instead of each call failing later.
func TestOfflineBuildCannotSend(t *testing.T) {
	if httpIncluded {
		t.Fatal("httpIncluded in the esr_offline build")
	}
	c, err := New(Config{BaseURL: "http://localhost:8000/v1"})
	if c != nil || !errors.Is(err, ErrNoHTTP) {
		t.Fatalf("New = %v, %v; want ErrNoHTTP", c, err)
	}
	for _, want := range []string{"esr_offline", "make llm-cache", "%goflags"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %q: %v", want, err)
		}
	}
}
