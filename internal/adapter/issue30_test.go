package adapter_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/internal/adapter"
)

// These tests each cover one failure found by the second attack (issue 30);
// each failed before its fix.

// Laxity: a response line with data after its object (a second object, or
// text) was taken as the first object. It is malformed, and says why.
func TestAdapterLineWithTrailingData(t *testing.T) {
	resp := `{\"protocol\":\"esr-adapter/2\",\"id\":1,\"rows\":[]}`
	for name, line := range map[string]string{
		"two objects":   resp + " " + resp,
		"trailing text": resp + " ok",
	} {
		t.Run(name, func(t *testing.T) {
			p := script(t, "read l\necho \""+line+"\"\nread l\n")
			c, err := adapter.Get(p)
			if err != nil {
				t.Fatal(err)
			}
			defer adapter.CloseAll()
			_, err = c.Call(request())
			if err == nil {
				t.Fatalf("a line %q was taken as a response", line)
			}
			if !strings.Contains(err.Error(), "after the response") || !strings.Contains(err.Error(), "line 1") {
				t.Errorf("the error does not say what is wrong: %v", err)
			}
		})
	}
}
