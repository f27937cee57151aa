package layout

import "testing"

func TestSplitFact(t *testing.T) {
	for s, want := range map[string][2]string{
		"service request_timeout is 30 s":           {"service request_timeout", "30 s"},
		"service request_timeout is now 30 s":       {"service request_timeout", "30 s"},
		"service request_timeout was set to 30 s":   {"service request_timeout", "30 s"},
		"service request_timeout changed to 30 s":   {"service request_timeout", "30 s"},
		"service request_timeout became not 30 s":   {"service request_timeout", "not 30 s"},
		"issue #1 workaround is set to pin what is": {"issue #1 workaround", "pin what is"},
	} {
		k, v, ok := SplitFact(s)
		if !ok || [2]string{k, v} != want {
			t.Errorf("splitFact(%q) = %q, %q, %v; want %q", s, k, v, ok, want)
		}
	}
	if _, _, ok := SplitFact("no verb here"); ok {
		t.Error("split a sentence without a verb phrase")
	}
}
