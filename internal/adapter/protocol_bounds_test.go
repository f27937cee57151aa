package adapter_test

import (
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/adapter"
)

// These tests each cover one failure found by an attack on the kit;
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

// Item 12: the request was written to the adapter outside its timeout: an
// adapter that never reads its input blocked the call for ever once a
// request exceeded the pipe's buffer (200 KB of event text). The write is
// inside the timeout; the adapter is stopped and the error says so.
func TestAdapterWriteIsInsideTheTimeout(t *testing.T) {
	defer func(d time.Duration) { adapter.Timeout = d }(adapter.Timeout)
	adapter.Timeout = time.Second
	p := script(t, "exec sleep 60\n") // never reads
	c, err := adapter.Get(p)
	if err != nil {
		t.Fatal(err)
	}
	defer adapter.CloseAll()
	req := request()
	req.Stream.Events = []esr.Event{{ID: "e1", Text: strings.Repeat("x", 200_000)}}
	done := make(chan error, 1)
	start := time.Now()
	go func() { _, err := c.Call(req); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "within") {
			t.Errorf("after %s: %v, want the timeout error", time.Since(start).Round(time.Millisecond), err)
		}
	case <-time.After(8 * time.Second):
		adapter.CloseAll()
		t.Fatal("the call is still writing its request after 8 s (timeout 1 s)")
	}
}

// Bound every read: an adapter printing an endless line is stopped once the
// line passes MaxLine, and the error says so.
func TestAdapterLineIsBounded(t *testing.T) {
	defer func(n int) { adapter.MaxLine = n }(adapter.MaxLine)
	adapter.MaxLine = 1 << 20
	p := script(t, "read l\nexec tr -d '\\n' < /dev/zero\n")
	c, err := adapter.Get(p)
	if err != nil {
		t.Fatal(err)
	}
	defer adapter.CloseAll()
	_, err = c.Call(request())
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("an endless output line: %v", err)
	}
}

// Item 7: Describe asks hello; an adapter that answers it is described,
// one that dies on it is started again without it and serves as before.
func TestDescribe(t *testing.T) {
	defer adapter.CloseAll()
	answer := `{\"protocol\":\"esr-adapter/2\",\"id\":1,\"rows\":[],\"adapter\":{\"version\":\"v7\",\"files\":[\"impl.py\"]}}`
	p := script(t, "read l\necho \""+answer+"\"\nread l\necho '{\"protocol\":\"esr-adapter/2\",\"id\":2,\"rows\":[]}'\nread l\n")
	desc, note, err := adapter.Describe(p)
	if err != nil || desc == nil || desc.Version != "v7" || len(desc.Files) != 1 || desc.Files[0] != "impl.py" {
		t.Fatalf("Describe: %+v %q %v", desc, note, err)
	}
	if _, _, err := adapter.Fingerprint(p); err == nil || !strings.Contains(err.Error(), "impl.py") {
		t.Errorf("a named file that is missing: %v", err)
	}
	// An adapter written before hello: it dies on an op it does not know.
	old := script(t, "read l\ncase \"$l\" in *hello*) exit 4;; esac\necho '{\"protocol\":\"esr-adapter/2\",\"id\":1,\"rows\":[]}'\nread l\n")
	desc, note, err = adapter.Describe(old)
	if err != nil || desc != nil || !strings.Contains(note, "did not answer hello") {
		t.Fatalf("Describe of an old adapter: %+v %q %v", desc, note, err)
	}
	c, err := adapter.Get(old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(request()); err != nil {
		t.Errorf("the old adapter, started again, does not serve: %v", err)
	}
	if _, covers, err := adapter.Fingerprint(old); err != nil || !strings.Contains(covers, "only") {
		t.Errorf("Fingerprint of an old adapter: %q %v", covers, err)
	}
}
