package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refWrapper is a Python adapter that serves through the reference
// adapter's functions; extra runs after each response (n is the request's
// line, resp its response).
func refWrapper(t *testing.T, path, extra string) {
	t.Helper()
	ref := refAdapter(t)
	src := `#!/usr/bin/env python3
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("ref", "` + ref + `")
ref = importlib.util.module_from_spec(spec); spec.loader.exec_module(ref)
for n, line in enumerate(sys.stdin, 1):
    req = json.loads(line); rows = ref.build(req)
    resp = {"protocol": ref.PROTOCOL, "id": req.get("id"), "rows": rows}
    if req["op"] == "render": resp["render"] = ref.render(rows)
    print(json.dumps(resp), flush=True)
` + extra
	if err := os.WriteFile(path, []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
}

// Finding 3: an adapter that prints one stray line is stopped at the
// first answer out of step, with the line named; no row is written from an
// answer meant for another request.
func TestExecAdapterStrayLine(t *testing.T) {
	b := genSmall(t)
	dir := t.TempDir()
	clean, stray := filepath.Join(dir, "clean"), filepath.Join(dir, "stray")
	refWrapper(t, clean, "")
	// After its third answer it prints that answer again.
	refWrapper(t, stray, "    if n == 3: print(json.dumps(resp), flush=True)\n")
	run := func(adapter string) (map[string]string, string, int) {
		out := filepath.Join(t.TempDir(), "rows.jsonl")
		_, stderr, code := dataRun(t, "eval", "--bench", b, "--memory", "exec:"+adapter, "--reader", "oracle,scripted:status-reader", "--out", out)
		rows := map[string]string{}
		for _, r := range uniqueRows(t, out) {
			// The memory's name is the adapter's path: compare the rest.
			rows[r.QID+" "+r.Reader.String()] = r.Answer + "|" + r.RawAnswer + "|" + r.Reason
		}
		return rows, stderr, code
	}
	want, stderr, code := run(clean)
	if code != 0 {
		t.Fatalf("clean adapter: exit %d: %s", code, stderr)
	}
	got, stderr, code := run(stray)
	for id, r := range got {
		if want[id] != r {
			t.Errorf("row %s differs from the clean adapter's:\n got %s\nwant %s", id, r, want[id])
		}
	}
	if code == 0 || !strings.Contains(stderr, "line 4: output line 4 has id 3, want 4") || !strings.Contains(stderr, "stray line") {
		t.Errorf("stray line: exit %d: %s", code, stderr)
	}
}

// Finding 4: exec:NAME runs ./NAME, the file it checks, never a
// same-named program found on $PATH.
func TestExecRunsTheCheckedFile(t *testing.T) {
	b := genSmall(t)
	work, bin := t.TempDir(), t.TempDir()
	ranLocal, ranPath := filepath.Join(work, "ran-local"), filepath.Join(work, "ran-path")
	refWrapper(t, filepath.Join(work, "myadapter"), "")
	src, _ := os.ReadFile(filepath.Join(work, "myadapter"))
	os.WriteFile(filepath.Join(work, "myadapter"), []byte(strings.Replace(string(src), "for n, line", "open(\""+ranLocal+"\", \"w\").close()\nfor n, line", 1)), 0o755)
	os.WriteFile(filepath.Join(bin, "myadapter"), []byte("#!/bin/sh\ntouch "+ranPath+"\nexit 1\n"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Chdir(work)
	out := filepath.Join(t.TempDir(), "rows.jsonl")
	if _, stderr, code := dataRun(t, "eval", "--bench", b, "--memory", "exec:myadapter", "--out", out); code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(ranPath); err == nil {
		t.Error("exec:myadapter ran the program on $PATH")
	}
	if _, err := os.Stat(ranLocal); err != nil {
		t.Error("exec:myadapter did not run ./myadapter")
	}
	// A bare name with no such file here is an error, not a $PATH search.
	os.Remove(filepath.Join(work, "myadapter"))
	if _, stderr, code := dataRun(t, "eval", "--bench", b, "--memory", "exec:myadapter", "--out", out, "--fresh"); code == 0 ||
		!strings.Contains(stderr, "$PATH is not searched") {
		t.Errorf("missing ./myadapter: exit %d: %s", code, stderr)
	}
}
