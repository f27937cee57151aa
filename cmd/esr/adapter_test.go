package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// refAdapter is the repository's reference adapter (Python, standard
// library only).
func refAdapter(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../../examples/adapter/coarse_adapter.py")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	return p
}

func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "adapter.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEvalExecAdapter(t *testing.T) {
	ref := refAdapter(t)
	bench := genSmall(t)
	out := filepath.Join(t.TempDir(), "rows.jsonl")
	mems := "exec:" + ref + ",exec:" + ref + "~render-only,coarse-retain"
	if _, errOut, code := dataRun(t, "eval", "--bench", bench, "--memory", mems, "--reader", "oracle,scripted:status-reader", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows, err := eval.ReadOutcomes(out)
	if err != nil {
		t.Fatal(err)
	}
	correct := map[string]int{}
	for _, r := range rows {
		if r.Correct {
			correct[r.Memory.String()+" "+r.Reader.String()]++
		}
	}
	on, off := "exec:"+ref+" oracle", "exec:"+ref+"~render-only oracle"
	// The reference adapter is a retaining coarse store: under the oracle
	// reader it answers exactly like coarse-retain, and its control (no
	// invalidation) does worse.
	if correct[on] != correct["coarse-retain oracle"] || correct[off] >= correct[on] {
		t.Errorf("correct counts %v", correct)
	}
	if correct["exec:"+ref+" scripted:status-reader"] == 0 {
		t.Errorf("the scripted reader read nothing from the adapter's render: %v", correct)
	}
}

func TestEvalExecAdapterFaults(t *testing.T) {
	bench := genSmall(t)
	cases := map[string]struct{ body, want string }{
		"crash":      {"read l; echo 'boom: bad state' >&2; exit 3\n", "ended without answering (exit status 3); its stderr ends: boom: bad state"},
		"malformed":  {"read l; echo '{not json'; read l\n", "malformed JSON"},
		"hang":       {"sleep 30\n", "no answer within"},
		"noprotocol": {"read l; echo '{\"rows\": []}'; read l\n", "response protocol"},
	}
	t.Setenv("ESR_ADAPTER_TIMEOUT", "")
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := script(t, c.body)
			if name == "hang" {
				defer setTimeout(t)()
			}
			out := filepath.Join(t.TempDir(), "rows.jsonl")
			_, errOut, code := dataRun(t, "eval", "--bench", bench, "--memory", "exec:"+p, "--out", out)
			if code == 0 {
				t.Fatal("a faulty adapter gave exit 0")
			}
			for _, w := range []string{"adapter exec:" + p, "stream ", "line 1", c.want} {
				if !strings.Contains(errOut, w) {
					t.Errorf("error lacks %q: %s", w, errOut)
				}
			}
		})
	}
	if _, errOut, code := dataRun(t, "eval", "--bench", bench, "--memory", "exec:/no/such/adapter", "--out", filepath.Join(t.TempDir(), "x")); code == 0 || !strings.Contains(errOut, "exec:/no/such/adapter") {
		t.Errorf("missing adapter: exit %d: %s", code, errOut)
	}
}

// An adapter that fails midway keeps the rows finished before it; the same
// command resumes once the adapter works.
func TestEvalExecAdapterResume(t *testing.T) {
	ref := refAdapter(t)
	bench := genSmall(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "adapter")
	// Serve through the reference adapter's functions, but die at the 40th
	// request while the file "fail" exists.
	flag := filepath.Join(dir, "fail")
	os.WriteFile(flag, nil, 0o644)
	wrapper := `#!/usr/bin/env python3
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("ref", "` + ref + `")
ref = importlib.util.module_from_spec(spec); spec.loader.exec_module(ref)
for n, line in enumerate(sys.stdin, 1):
    if n >= 40 and os.path.exists("` + flag + `"):
        sys.stderr.write("dying\\n"); sys.exit(9)
    req = json.loads(line); rows = ref.build(req); resp = {"protocol": ref.PROTOCOL, "id": req["id"], "rows": rows}
    if req["op"] == "render": resp["render"] = ref.render(rows)
    print(json.dumps(resp), flush=True)
`
	if err := os.WriteFile(p, []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "rows.jsonl")
	args := []string{"eval", "--bench", bench, "--memory", "exec:" + p, "--reader", "oracle", "--out", out}
	_, errOut, code := dataRun(t, args...)
	if code == 0 || !strings.Contains(errOut, "line 40") || !strings.Contains(errOut, "rerun to resume") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	partial, err := eval.ReadOutcomes(out)
	if err != nil || len(partial) == 0 {
		t.Fatalf("no rows kept: %v", err)
	}
	os.Remove(flag)
	if _, errOut, code := dataRun(t, args...); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	full, _ := eval.ReadOutcomes(out)
	seen := map[eval.RowKey]bool{}
	for _, r := range full {
		if seen[r.Key()] {
			t.Fatalf("row %s written twice", r.Key())
		}
		seen[r.Key()] = true
	}
	if len(full) <= len(partial) {
		t.Errorf("resume added nothing: %d then %d rows", len(partial), len(full))
	}
}

// TestEvalControlsByName: `esr eval` runs the render-matched control of a
// built-in, a deployed and an exec: class by name (NAME~render-only), and
// every control's oracle read-out is the d-blind one: it answers exactly
// where render-only answers.
func TestEvalControlsByName(t *testing.T) {
	ref := refAdapter(t)
	bench := genSmall(t)
	out := filepath.Join(t.TempDir(), "rows.jsonl")
	controls := []string{"coarse-retain~render-only", "graphiti~render-only", "exec:" + ref + "~render-only"}
	mems := strings.Join(append(append([]string{}, controls...), "render-only"), ",")
	if _, errOut, code := dataRun(t, "eval", "--bench", bench, "--memory", mems, "--reader", "oracle", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows, err := eval.ReadOutcomes(out)
	if err != nil {
		t.Fatal(err)
	}
	answer := map[string]string{}
	n := map[string]int{}
	for _, r := range rows {
		answer[r.Memory.String()+"\x00"+r.QID] = r.Answer
		n[r.Memory.String()]++
	}
	for _, c := range controls {
		if n[c] == 0 || n[c] != n["render-only"] {
			t.Fatalf("%s: %d rows, render-only %d", c, n[c], n["render-only"])
		}
		for _, r := range rows {
			if r.Memory.Is(memory.RenderOnly) && answer[c+"\x00"+r.QID] != r.Answer {
				t.Errorf("%s on %s answers %q, render-only %q", c, r.QID, answer[c+"\x00"+r.QID], r.Answer)
			}
		}
	}
}
