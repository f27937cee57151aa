package memory_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
)

// countingAdapter writes an esr-adapter/2 adapter (Python, standard library)
// that appends each request's op to log and renders the query's question,
// so a render shown for the wrong query would be seen. perState is what its
// hello declares (render_per_state).
func countingAdapter(t *testing.T, perState bool) (path, log string) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	dir := t.TempDir()
	path, log = filepath.Join(dir, "adapter.py"), filepath.Join(dir, "ops.log")
	src := fmt.Sprintf(`#!/usr/bin/python3
import json, sys
P = "esr-adapter/2"
for line in sys.stdin:
    req = json.loads(line)
    with open(%q, "a") as f:
        f.write(req["op"] + "\n")
    resp = {"protocol": P, "id": req["id"], "rows": []}
    if req["op"] == "hello":
        resp["adapter"] = {"version": "counting 1", "render_per_state": %s}
    if req["op"] == "render":
        resp["render"] = "rendered for: " + req["query"]["question"]
    sys.stdout.write(json.dumps(resp) + "\n")
    sys.stdout.flush()
`, log, map[bool]string{true: "True", false: "False"}[perState])
	if err := os.WriteFile(path, []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, log
}

func renderRequests(t *testing.T, log string) int {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "render\n")
}

// TestExecRenderIsAskedPerQueryUnlessDeclaredPerState: an adapter asked
// three queries of one state gets three render requests, each answered
// for its own query, unless its hello declares render_per_state, when it
// gets one and that render is shown for every query.
func TestExecRenderIsAskedPerQueryUnlessDeclaredPerState(t *testing.T) {
	defer memory.CloseAdapters()
	at := esr.Time{Time: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := &esr.Stream{ID: "s1", Events: []esr.Event{{ID: "e1", Timestamp: at, Text: "x"}}}
	atoms := []esr.Atom{{ID: "a1", StreamID: "s1", EventID: "e1", Timestamp: at, Entity: "svc", Attribute: "port", Value: "80", Polarity: esr.Positive, Confidence: 1}}
	questions := []string{"What port now?", "Which port before?", "Is the port refined?"}
	for _, perState := range []bool{false, true} {
		path, log := countingAdapter(t, perState)
		st, err := memory.Build(memory.SpecOf(memory.Class(memory.ExecPrefix+path)), s, atoms, memory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var shown []string
		for _, q := range questions {
			shown = append(shown, st.Render(esr.Query{Type: esr.Snapshot, Key: atoms[0].Key(), Question: q}))
		}
		if err := memory.Err(st); err != nil {
			t.Fatal(err)
		}
		n := renderRequests(t, log)
		if !perState {
			if n != len(questions) {
				t.Errorf("per query: %d render requests for %d queries", n, len(questions))
			}
			for i, q := range questions {
				if shown[i] != "rendered for: "+q {
					t.Errorf("per query: query %q shows %q", q, shown[i])
				}
			}
			continue
		}
		if n != 1 {
			t.Errorf("per state: %d render requests for one state, want 1", n)
		}
		for i := range questions {
			if shown[i] != shown[0] {
				t.Errorf("per state: query %d shows %q, the first %q", i, shown[i], shown[0])
			}
		}
	}
}
