package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// These tests each cover one fault found when the kit was tried with
// faults and bad input; each failed before its fix.

// waitFor polls cond every 10 ms for up to d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(d); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("after %s: %s", d, what)
		}
	}
}

// uniqueRows reads an outcomes file and fails on a bad line or a row
// written twice.
func uniqueRows(t *testing.T, path string) []eval.Outcome {
	t.Helper()
	rows, err := eval.ReadOutcomes(path)
	if err != nil {
		t.Fatalf("outcomes file damaged: %v", err)
	}
	seen := map[eval.RowKey]bool{}
	for _, r := range rows {
		if seen[r.Key()] {
			t.Fatalf("row %+v written twice (%d rows)", r.Key(), len(rows))
		}
		seen[r.Key()] = true
	}
	return rows
}

// Finding 1: two processes on one --out. The second is refused at once,
// naming the first (pid and command); the file holds every row once, and
// rows longer than 4 KB stay whole lines.
func TestEvalTwoRunsOnOneOut(t *testing.T) {
	long := strings.Repeat("a long answer ", 500) // rows of about 7 KB
	s := llmtest.New(llmtest.Options{Reply: func(llmtest.Request) string { return long }, Latency: 60 * time.Millisecond})
	defer s.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", s.BaseURL(), "ESR_LLM_MODELS", "m", "ESR_LLM_CONCURRENCY", "1")
	b := smallBench(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "rows.jsonl")
	args := func(cache string) []string {
		return []string{"eval", "--bench", b, "--memory", "fine-ledger,render-only", "--reader", "llm:m", "--out", out,
			"--cache", filepath.Join(dir, cache)}
	}
	first, _, firstErr := cliProcess(t, nil, args("cache-a")...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the first run wrote no row", func() bool {
		fi, err := os.Stat(out)
		return err == nil && fi.Size() > 0
	})
	second, _, secondErr := cliProcess(t, nil, args("cache-b")...)
	err := second.Run()
	if err == nil {
		t.Errorf("a second run on the same --out exited 0")
	}
	if want := "pid " + strconv.Itoa(first.Process.Pid) + ": "; !strings.Contains(secondErr.String(), want) ||
		!strings.Contains(secondErr.String(), "another run is writing it") {
		t.Errorf("the refusal does not name the first run (%q): %s", want, secondErr)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first run: %v: %s", err, firstErr)
	}
	rows := uniqueRows(t, out)
	for _, r := range rows {
		if r.RawAnswer != long {
			t.Fatalf("row %s has a damaged answer", r.Key())
		}
	}
	if len(rows) == 0 || len(rows)%2 != 0 {
		t.Errorf("%d rows, want one per QA and memory", len(rows))
	}
}

// emptyReply answers like a reasoning model out of max_tokens: no text,
// finish_reason "length".
func emptyReply(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"length"}]}`))
}

// Finding 2: an empty reply is a failed attempt, retried, then a failed
// item: no row, nothing cached, the run and its summary say how many
// failed; once the endpoint answers, a rerun fills the gap.
func TestEvalEmptyReplyIsAFailure(t *testing.T) {
	b := smallBench(t)
	bb, err := bench.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	q := bb.QAs[0].Question
	broken := 0
	for _, x := range bb.QAs {
		if strings.Contains(x.Question, q) {
			broken++
		}
	}
	var empty atomic.Bool
	empty.Store(true)
	s := llmtest.New(llmtest.Options{Reply: stubReply, Fault: func(_ int, req llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
		if empty.Load() && strings.Contains(req.User(), q) {
			emptyReply(w)
			return true
		}
		return false
	}})
	defer s.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", s.BaseURL(), "ESR_LLM_MODELS", "m")
	defer func(old llm.Config) { clientDefaults = old }(clientDefaults)
	clientDefaults.BackoffBase, clientDefaults.BackoffMax = time.Millisecond, time.Millisecond
	dir := t.TempDir()
	out := filepath.Join(dir, "rows.jsonl")
	args := []string{"eval", "--bench", b, "--memory", "fine-ledger", "--reader", "llm:m", "--out", out, "--cache", filepath.Join(dir, "cache")}
	_, stderr, code := runCLI(t, args...)
	if code == 0 || !strings.Contains(stderr, fmt.Sprintf("%d items failed", broken)) || !strings.Contains(stderr, `finish_reason "length"`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := uniqueRows(t, out)
	if len(rows) != len(bb.QAs)-broken {
		t.Errorf("%d rows, want %d (no row for a failed item)", len(rows), len(bb.QAs)-broken)
	}
	for _, r := range rows {
		if r.QID == bb.QAs[0].QID {
			t.Errorf("the failed item has a row: %+v", r)
		}
	}
	var sum runSummary
	json.Unmarshal(must(os.ReadFile(filepath.Join(dir, "rows.llm-summary.json"))), &sum)
	if sum.ItemsFailed != broken || len(sum.Failures) != broken {
		t.Errorf("summary: %d items failed, %v", sum.ItemsFailed, sum.Failures)
	}
	// Nothing empty was cached: the dry run still has them to send, and a
	// rerun against an endpoint that answers completes the file.
	p := readPlan(t, mustCLI(t, append(args, "--dry-run")...))
	if p.ToSend != broken {
		t.Errorf("dry run after the failure: %d to send, want %d", p.ToSend, broken)
	}
	empty.Store(false)
	mustCLI(t, args...)
	if rows := uniqueRows(t, out); len(rows) != len(bb.QAs) {
		t.Errorf("after the rerun: %d rows, want %d", len(rows), len(bb.QAs))
	}
}

// Finding 5: a resume notices what changed (the bench's content, the
// relation source, a format) and refuses, saying to use --fresh or another
// --out; --fresh recomputes; rows without a fingerprint are refused too.
func TestEvalResumeRefusesChangedSetup(t *testing.T) {
	b := genSmall(t)
	out := filepath.Join(t.TempDir(), "rows.jsonl")
	args := []string{"eval", "--bench", b, "--memory", "fine-ledger,coarse-retain", "--reader", "oracle", "--out", out}
	mustCLI(t, args...)
	rows := uniqueRows(t, out)
	if rows[0].Fingerprint == "" {
		t.Fatal("rows carry no fingerprint")
	}
	mustCLI(t, args...) // same setup: resumes, nothing to do
	refused := func(why string, extra ...string) {
		t.Helper()
		_, stderr, code := runCLI(t, append(append([]string{}, args...), extra...)...)
		if code == 0 || !strings.Contains(stderr, "rows.jsonl:1: the row of qid") || !strings.Contains(stderr, "--fresh") {
			t.Errorf("%s: exit %d: %s", why, code, stderr)
		}
	}
	refused("other relations", "--relations", "same-state")
	refused("other ledger format", "--ledger-format", "verbose")
	qa := filepath.Join(b, bench.QAFile)
	orig := must(os.ReadFile(qa))
	os.WriteFile(qa, []byte(strings.Replace(string(orig), `"question":"`, `"question":"Now: `, 1)), 0o644)
	refused("bench changed")
	mustCLI(t, append(args, "--fresh")...)
	if after := uniqueRows(t, out); len(after) != len(rows) || after[0].Fingerprint == rows[0].Fingerprint {
		t.Errorf("--fresh: %d rows (want %d), fingerprint %s", len(after), len(rows), after[0].Fingerprint)
	}
	// Rows of an older esrkit, without fingerprints.
	os.WriteFile(qa, orig, 0o644)
	var old []byte
	for _, r := range rows {
		r.Fingerprint = ""
		l, _ := json.Marshal(r)
		old = append(append(old, l...), '\n')
	}
	os.WriteFile(out, old, 0o644)
	_, stderr, code := runCLI(t, args...)
	if code == 0 || !strings.Contains(stderr, "has no fingerprint") {
		t.Errorf("rows without fingerprint: exit %d: %s", code, stderr)
	}
	// Rows of another reader are left alone: adding a reader resumes.
	mustCLI(t, append(args, "--fresh")...)
	mustCLI(t, "eval", "--bench", b, "--memory", "fine-ledger,coarse-retain", "--reader", "oracle,scripted:status-reader", "--out", out)
	if n := len(uniqueRows(t, out)); n != 2*len(rows) {
		t.Errorf("adding a reader: %d rows, want %d", n, 2*len(rows))
	}
}

// deadEndpoint is a base URL where nothing listens (connections refused).
func deadEndpoint(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

// Finding 6: `esr run all` against a dead endpoint stops within seconds,
// saying the endpoint is down and the command that resumes.
func TestRunAllStopsAtDeadEndpoint(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	for _, d := range []string{"synthetic", "dyknow"} {
		if _, errOut, code := runCLI(t, "gen", "--seed", "3", "--per-stratum", "4", "--sources", "github", "--out", filepath.Join(data, d)); code != 0 {
			t.Fatal(errOut)
		}
	}
	llmEnv(t, "ESR_LLM_BASE_URL", deadEndpoint(t), "ESR_LLM_MODELS", "m1")
	out := filepath.Join(root, "results")
	cmd, _, stderr := cliProcess(t, nil, "run", "all", "--data", data, "--out", out, "--cache", filepath.Join(root, "cache"), "--B", "50")
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatalf("exit 0 against a dead endpoint: %s", stderr)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still sending to a dead endpoint after 20 s: %s", tail(stderr.String()))
	}
	el := time.Since(start)
	for _, want := range []string{"is down", "in a row failed", "resume with: esr run all --data " + data} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q: %s", want, tail(stderr.String()))
		}
	}
	var sum struct{ Fill llm.FillSummary }
	json.Unmarshal(must(os.ReadFile(filepath.Join(out, "llm-summary.json"))), &sum)
	if len(sum.Fill.Models) != 1 || sum.Fill.Models[0].Stopped == "" || sum.Fill.Models[0].NotSent == 0 ||
		sum.Fill.Models[0].Attempts > 400 {
		t.Errorf("fill summary %+v", sum.Fill)
	}
	t.Logf("stopped after %s, %d attempts, %d of %d requests not sent", el.Round(time.Millisecond),
		sum.Fill.Models[0].Attempts, sum.Fill.Models[0].NotSent, sum.Fill.ToSend)
}

func tail(s string) string {
	if len(s) > 1500 {
		return "…" + s[len(s)-1500:]
	}
	return s
}

// Finding 9: a batch export that fails midway (a full disk) leaves the
// previous requests file whole and no temporary file; a summary whose
// rename fails leaves no .tmp behind.
func TestExportsAreAtomic(t *testing.T) {
	llmEnv(t)
	b := smallBench(t)
	dir := t.TempDir()
	req := filepath.Join(dir, "requests.jsonl")
	args := []string{"batch", "export", "--bench", b, "--memory", "all", "--reader", "llm:m", "--cache", filepath.Join(dir, "cache"), "--out", req}
	mustCLI(t, args...)
	good := must(os.ReadFile(req))
	if len(good) < 32<<10 {
		t.Fatalf("export of %d bytes is too small for the test", len(good))
	}
	// The same export again, in a process that may write no file past
	// 16 KB: it fails like a full disk.
	cmd, _, stderr := cliProcess(t, []string{"ESRKIT_TEST_FSIZE=16384"}, args...)
	if err := cmd.Run(); err == nil {
		t.Fatalf("export past the size limit exited 0: %s", stderr)
	}
	if now := must(os.ReadFile(req)); string(now) != string(good) {
		t.Errorf("the failed export changed the previous file (%d bytes, was %d)", len(now), len(good))
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// A summary that cannot be renamed into place (a folder is in the
	// way) leaves no temporary file.
	sumPath := filepath.Join(dir, "s.json")
	os.Mkdir(sumPath, 0o755)
	if err := writeJSON(sumPath, map[string]int{"a": 1}); err == nil {
		t.Error("writing over a folder succeeded")
	}
	left, _ = filepath.Glob(filepath.Join(dir, "*tmp*"))
	left2, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(left)+len(left2) != 0 {
		t.Errorf("temporary files left: %v %v", left, left2)
	}
}
