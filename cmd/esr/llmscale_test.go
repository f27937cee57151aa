package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

const (
	secretDefault = "sk-default-SECRET-aaaa1111"
	secretB       = "sk-model-b-SECRET-bbbb2222"
)

// llmEnv clears every ESR_LLM_ variable and sets the given ones.
func llmEnv(t *testing.T, kv ...string) {
	t.Helper()
	for _, e := range os.Environ() {
		if k, _, _ := strings.Cut(e, "="); strings.HasPrefix(k, "ESR_LLM_") {
			t.Setenv(k, "")
		}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		t.Setenv(kv[i], kv[i+1])
	}
}

// stubReply is a deterministic answer: CORRECT for the judge, "30 s" when
// the prompt shows it, else ABSTAIN or a value depending on the prompt.
func stubReply(r llmtest.Request) string {
	u := r.User()
	switch {
	case strings.Contains(u, "Gold answer"):
		return "CORRECT"
	case strings.Contains(u, "30 s"):
		return "30 s"
	case len(u)%3 == 0:
		return "ABSTAIN"
	}
	return "value-" + itoa(len(u)%5)
}

func smallBench(t *testing.T) string {
	return genSmall(t, "--per-stratum", "1", "--sources", "github")
}

func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("esr %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

func readPlan(t *testing.T, out string) planJSON {
	t.Helper()
	var p planJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("dry run output %q: %v", out, err)
	}
	return p
}

// assertNoSecret fails when a secret appears in any file under dir.
func assertNoSecret(t *testing.T, dir string, texts ...string) {
	t.Helper()
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		if strings.HasSuffix(p, ".gz") {
			if zr, err := gzip.NewReader(bytes.NewReader(b)); err == nil {
				b, _ = io.ReadAll(zr)
			}
		}
		for _, s := range []string{secretDefault, secretB} {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("secret found in %s", p)
			}
		}
		return nil
	})
	for _, txt := range texts {
		for _, s := range []string{secretDefault, secretB} {
			if strings.Contains(txt, s) {
				t.Errorf("secret found in command output")
			}
		}
	}
}

func sortedRows(t *testing.T, path string) []eval.Outcome {
	t.Helper()
	rows, err := eval.ReadOutcomes(path)
	if err != nil {
		t.Fatal(err)
	}
	text := func(o *eval.Outcome) string {
		return o.QID + "\x00" + o.Memory.String() + "\x00" + o.Reader.String() + "\x00" + o.Variant.String()
	}
	sort.Slice(rows, func(i, j int) bool { return text(&rows[i]) < text(&rows[j]) })
	return rows
}

// Two endpoints, each serving one model, get only their own model's
// requests, with their own key and their own concurrency limit; the judge
// model has its own endpoint too; keys reach no file and no output.
func TestEndpointsPerModelAndConcurrency(t *testing.T) {
	a := llmtest.New(llmtest.Options{Reply: stubReply, Models: []string{"model-a"}, Latency: 15 * time.Millisecond, Keep: true})
	defer a.Close()
	b := llmtest.New(llmtest.Options{Reply: stubReply, Models: []string{"model-b"}, Latency: 15 * time.Millisecond, Keep: true,
		Fault: llmtest.Faults(0.3, 1, "")})
	defer b.Close()
	j := llmtest.New(llmtest.Options{Reply: stubReply, Models: []string{"judge-m"}, Keep: true})
	defer j.Close()
	llmEnv(t, "ESR_LLM_MODELS", "model-a="+a.BaseURL()+", model-b="+b.BaseURL(),
		"ESR_LLM_JUDGE_MODEL", "judge-m="+j.BaseURL(),
		"ESR_LLM_API_KEY", secretDefault, "ESR_LLM_API_KEY_MODEL_B", secretB,
		"ESR_LLM_CONCURRENCY", "2,model-b=3")
	work := t.TempDir()
	bench := smallBench(t)
	out := filepath.Join(work, "rows.jsonl")
	stdout, stderr, code := runCLI(t, "eval", "--bench", bench, "--memory", "all", "--reader", "llm", "--judge", "llm",
		"--out", out, "--cache", filepath.Join(work, "cache"))
	if code != 0 {
		t.Fatalf("eval: %s", stderr)
	}
	if a.Hits() == 0 || b.Hits() == 0 || j.Hits() == 0 {
		t.Fatalf("hits a=%d b=%d judge=%d", a.Hits(), b.Hits(), j.Hits())
	}
	if a.WrongModel()+b.WrongModel()+j.WrongModel() != 0 {
		t.Errorf("requests for another endpoint's model: a=%d b=%d judge=%d", a.WrongModel(), b.WrongModel(), j.WrongModel())
	}
	for _, c := range []struct {
		s    *llmtest.Server
		auth string
	}{{a, secretDefault}, {b, secretB}, {j, secretDefault}} {
		for _, r := range c.s.Requests() {
			if r.Auth != "Bearer "+c.auth {
				t.Fatalf("wrong key sent to %s's endpoint", r.Model)
			}
		}
	}
	if a.Peak() > 2 || b.Peak() > 3 {
		t.Errorf("ESR_LLM_CONCURRENCY=2,model-b=3 not honoured: peaks a=%d b=%d", a.Peak(), b.Peak())
	}
	var sum runSummary
	bs, err := os.ReadFile(filepath.Join(work, "rows.llm-summary.json"))
	if err != nil || json.Unmarshal(bs, &sum) != nil || len(sum.Models) != 3 {
		t.Fatalf("summary beside the rows: %v %s", err, bs)
	}
	for _, m := range sum.Models {
		if m.Model == "model-b" && (m.Retries == 0 || m.Failed != 0) {
			t.Errorf("model-b summary under faults: %+v", m)
		}
	}
	assertNoSecret(t, work, stdout, stderr)

	// The flag overrides the environment, per endpoint.
	a2 := llmtest.New(llmtest.Options{Reply: stubReply, Latency: 10 * time.Millisecond})
	defer a2.Close()
	llmEnv(t, "ESR_LLM_MODELS", "model-a="+a2.BaseURL(), "ESR_LLM_CONCURRENCY", "6")
	mustCLI(t, "eval", "--bench", bench, "--memory", "all", "--reader", "llm", "--concurrency", "1",
		"--out", filepath.Join(work, "rows2.jsonl"), "--cache", filepath.Join(work, "cache2"))
	if a2.Peak() != 1 {
		t.Errorf("--concurrency 1: peak %d", a2.Peak())
	}
}

// --dry-run sends nothing; its counts are what the real run then sends, and
// afterwards everything counts as cached.
func TestDryRunMatchesRealRun(t *testing.T) {
	s := llmtest.New(llmtest.Options{Reply: stubReply})
	defer s.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", s.BaseURL(), "ESR_LLM_MODELS", "m1,m2")
	work := t.TempDir()
	bench := smallBench(t)
	args := []string{"eval", "--bench", bench, "--memory", "all", "--reader", "llm", "--out", filepath.Join(work, "r.jsonl"),
		"--cache", filepath.Join(work, "c")}
	p := readPlan(t, mustCLI(t, append(args, "--dry-run")...))
	if s.Hits() != 0 {
		t.Fatalf("dry run sent %d requests", s.Hits())
	}
	if p.ToSend == 0 || p.Cached != 0 || len(p.Models) != 2 || p.PromptTokens <= 0 {
		t.Fatalf("plan %+v", p)
	}
	mustCLI(t, args...)
	if s.Hits() != p.ToSend {
		t.Errorf("dry run said %d requests, the run sent %d", p.ToSend, s.Hits())
	}
	p2 := readPlan(t, mustCLI(t, append(args, "--dry-run", "--fresh")...))
	if p2.ToSend != 0 || p2.Cached != p.ToSend {
		t.Errorf("after the run: %+v", p2)
	}
	// esr run's dry run agrees with what esr run sends.
	runArgs := []string{"run", "strata", "--bench", bench, "--B", "50", "--out", filepath.Join(work, "out"), "--cache", filepath.Join(work, "c2")}
	pr := readPlan(t, mustCLI(t, append(runArgs, "--dry-run")...))
	before := s.Hits()
	mustCLI(t, runArgs...)
	if s.Hits()-before != pr.ToSend || pr.ToSend == 0 {
		t.Errorf("esr run: dry run %d, sent %d", pr.ToSend, s.Hits()-before)
	}
}

// batchRun plays `vllm run-batch`: it posts each request line's body to
// the stub and writes Batch API output lines; lines whose custom_id is in
// fail get an error instead.
func batchRun(t *testing.T, s *llmtest.Server, in, out string, fail map[int]bool) int {
	t.Helper()
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var res bytes.Buffer
	n := 0
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		n++
		var l llm.BatchLine
		if err := json.Unmarshal([]byte(line), &l); err != nil || l.Method != "POST" || l.URL != "/v1/chat/completions" {
			t.Fatalf("request line %d: %v %q", i+1, err, line)
		}
		if fail[i] {
			json.NewEncoder(&res).Encode(map[string]any{"id": "b", "custom_id": l.CustomID,
				"response": map[string]any{"status_code": 500, "body": map[string]any{"error": "boom"}}, "error": nil})
			continue
		}
		resp, err := http.Post(s.URL+l.URL, "application/json", bytes.NewReader(l.Body))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		json.NewEncoder(&res).Encode(map[string]any{"id": "b", "custom_id": l.CustomID,
			"response": map[string]any{"status_code": resp.StatusCode, "request_id": "r", "body": json.RawMessage(body)}, "error": nil})
	}
	if err := os.WriteFile(out, res.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return n
}

// export → batch run → import → rerun sends nothing and gives the same
// rows as the online path; the exported bodies are the online bodies;
// failed lines stay uncached and are exported again.
func TestBatchRoundTrip(t *testing.T) {
	online := llmtest.New(llmtest.Options{Reply: stubReply, Keep: true})
	defer online.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", online.BaseURL(), "ESR_LLM_MODELS", "m1,m2", "ESR_LLM_API_KEY", secretDefault)
	work := t.TempDir()
	bench := smallBench(t)
	sel := []string{"--bench", bench, "--memory", "all", "--reader", "llm"}
	mustCLI(t, append([]string{"eval", "--out", filepath.Join(work, "online.jsonl"), "--cache", filepath.Join(work, "c-online")}, sel...)...)
	onlineBodies := map[string]bool{}
	for _, r := range online.Requests() {
		onlineBodies[string(r.Raw)] = true
	}

	offline := llmtest.New(llmtest.Options{Reply: stubReply})
	defer offline.Close()
	cache := filepath.Join(work, "c-batch")
	req := filepath.Join(work, "requests.jsonl")
	p := readPlan(t, mustCLI(t, append([]string{"batch", "export", "--out", req, "--cache", cache}, sel...)...))
	if p.ToSend != len(onlineBodies) {
		t.Errorf("exported %d requests, the online run sent %d distinct ones", p.ToSend, len(onlineBodies))
	}
	data, _ := os.ReadFile(req)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var l llm.BatchLine
		json.Unmarshal([]byte(line), &l)
		if !onlineBodies[string(l.Body)] {
			t.Fatalf("exported body is not one the online path sent: %s", l.Body)
		}
	}
	results := filepath.Join(work, "results.jsonl")
	n := batchRun(t, offline, req, results, map[int]bool{0: true})
	// An invalid line is reported with file:line:field; the rest imports.
	f, _ := os.OpenFile(results, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"custom_id":"nope","response":{"status_code":200,"body":{}}}` + "\n")
	f.Close()
	stdout, stderr, code := runCLI(t, "batch", "import", "--results", results, "--requests", req, "--cache", cache)
	if code == 0 || !strings.Contains(stderr, "results.jsonl:"+itoa(n+1)+`: field "custom_id"`) {
		t.Errorf("invalid line not reported as file:line:field: %d %s", code, stderr)
	}
	var rep llm.ImportReport
	json.Unmarshal([]byte(stdout), &rep)
	if rep.Imported != n-1 || len(rep.Failed) != 1 {
		t.Fatalf("import report %+v", rep)
	}
	// The failed request is exported again, alone.
	p2 := readPlan(t, mustCLI(t, append([]string{"batch", "export", "--out", req, "--cache", cache}, sel...)...))
	if p2.ToSend != 1 {
		t.Fatalf("after a failed line, export has %d requests", p2.ToSend)
	}
	batchRun(t, offline, req, results, nil)
	mustCLI(t, "batch", "import", "--results", results, "--requests", req, "--cache", cache)

	// The rerun sends nothing (its endpoint is a third stub) and gives the
	// online rows.
	none := llmtest.New(llmtest.Options{Reply: stubReply})
	defer none.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", none.BaseURL(), "ESR_LLM_MODELS", "m1,m2")
	mustCLI(t, append([]string{"eval", "--out", filepath.Join(work, "batch.jsonl"), "--cache", cache}, sel...)...)
	if none.Hits() != 0 {
		t.Errorf("rerun after import sent %d requests", none.Hits())
	}
	a, b := sortedRows(t, filepath.Join(work, "online.jsonl")), sortedRows(t, filepath.Join(work, "batch.jsonl"))
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("rows: online %d, batch %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("row %d differs:\nonline %+v\nbatch  %+v", i, a[i], b[i])
		}
	}
	assertNoSecret(t, work)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// A result pack moved to a fresh cache reproduces a table with no
// endpoint; a damaged pack is refused.
func TestPackReproducesTablesOffline(t *testing.T) {
	s := llmtest.New(llmtest.Options{Reply: stubReply})
	defer s.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", s.BaseURL(), "ESR_LLM_MODELS", "m1", "ESR_LLM_API_KEY", secretDefault)
	work := t.TempDir()
	bench := smallBench(t)
	outA, outB := filepath.Join(work, "a"), filepath.Join(work, "b")
	mustCLI(t, "run", "render-confound", "--bench", bench, "--B", "200", "--out", outA, "--cache", filepath.Join(work, "cA"))
	pack := filepath.Join(work, "pack.jsonl.gz")
	var m llm.PackManifest
	json.Unmarshal([]byte(mustCLI(t, "cache", "export", "--out", pack, "--cache", filepath.Join(work, "cA"))), &m)
	if m.Entries == 0 || m.Entries != s.Hits() || m.Models["m1"] != m.Entries || len(m.Templates) == 0 || len(m.ContentSHA256) != 64 {
		t.Fatalf("manifest %+v (stub hits %d)", m, s.Hits())
	}
	// A fresh clone: no endpoint, only the model names, an empty cache.
	llmEnv(t, "ESR_LLM_MODELS", "m1")
	fresh := filepath.Join(work, "fresh", ".esr-cache", "llm")
	var rep llm.PackReport
	json.Unmarshal([]byte(mustCLI(t, "cache", "import", pack, "--cache", fresh)), &rep)
	if rep.Imported != m.Entries {
		t.Fatalf("import %+v", rep)
	}
	hits := s.Hits()
	mustCLI(t, "run", "render-confound", "--bench", bench, "--B", "200", "--offline", "--out", outB, "--cache", fresh)
	if s.Hits() != hits {
		t.Errorf("offline run sent requests")
	}
	csvs, _ := filepath.Glob(filepath.Join(outA, "*.csv"))
	if len(csvs) == 0 {
		t.Fatal("no tables")
	}
	for _, f := range csvs {
		x, _ := os.ReadFile(f)
		y, err := os.ReadFile(filepath.Join(outB, filepath.Base(f)))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs from the pack's reproduction", filepath.Base(f))
		}
	}
	// Without the pack, the offline run says what is missing.
	if _, errOut, code := runCLI(t, "run", "render-confound", "--bench", bench, "--offline", "--out", filepath.Join(work, "c"), "--cache", filepath.Join(work, "empty")); code == 0 || !strings.Contains(errOut, "missing") {
		t.Errorf("offline without answers: %d %s", code, errOut)
	}
	// Damage one entry: the content hash catches it.
	zr, _ := gzip.NewReader(bytes.NewReader(must(os.ReadFile(pack))))
	raw, _ := io.ReadAll(zr)
	raw = bytes.Replace(raw, []byte(`ABSTAIN`), []byte(`30 s`), 1)
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(raw)
	zw.Close()
	bad := filepath.Join(work, "bad.gz")
	os.WriteFile(bad, zb.Bytes(), 0o644)
	if _, errOut, code := runCLI(t, "cache", "import", bad, "--cache", filepath.Join(work, "c3")); code == 0 || !strings.Contains(errOut, `bad.gz:1: field "manifest.content_sha256"`) {
		t.Errorf("damaged pack: %d %s", code, errOut)
	}
	assertNoSecret(t, work)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The notebooks' LLM path: before the cache is filled, a notebook's
// evaluation stops at once naming the command; `esr run all` fills it
// against a stub that fails 40% of requests' first attempts (429, 500,
// truncated JSON), with progress and a summary; then every notebook
// evaluation reads the cache only, sends nothing and finishes in seconds.
func TestRunAllThenNotebooksOffline(t *testing.T) {
	s := llmtest.New(llmtest.Options{Reply: stubReply, Latency: 2 * time.Millisecond, Fault: llmtest.Faults(0.4, 2, "0.01")})
	defer s.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", s.BaseURL(), "ESR_LLM_MODELS", "m1", "ESR_LLM_CONCURRENCY", "16")
	root := t.TempDir()
	data := filepath.Join(root, "data")
	for _, d := range []string{"synthetic", "dyknow"} {
		if _, errOut, code := runCLI(t, "gen", "--seed", "3", "--per-stratum", "4", "--sources", "github", "--out", filepath.Join(data, d)); code != 0 {
			t.Fatal(errOut)
		}
	}
	cacheRoot := filepath.Join(root, ".esr-cache")
	bctx := context.Background()
	rs, err := lab.DefaultReaders(cacheRoot)
	if err != nil {
		t.Fatal(err)
	}
	su, _ := lab.StepSetup(data, lab.RunAllStep{Suite: "render-confound", Bench: "synthetic"}, rs, nil)
	_, err = lab.SuiteRenderConfound.Suite().Run(bctx, su)
	if !errors.Is(err, llm.ErrNotCached) || !strings.Contains(err.Error(), "make llm-cache") || s.Hits() != 0 {
		t.Fatalf("notebook before filling: hits %d, err %v", s.Hits(), err)
	}
	closeReaders(rs)

	est, err := llmEstimate(bctx, root)
	if err != nil || len(est) != 1 || est[0].ToSend == 0 {
		t.Fatalf("estimate %+v %v", est, err)
	}
	old := progressInterval
	progressInterval = 50 * time.Millisecond
	defer func() { progressInterval = old }()
	out := filepath.Join(root, "results")
	_, stderr, code := runCLI(t, "run", "all", "--data", data, "--out", out, "--cache", filepath.Join(cacheRoot, "llm"), "--B", "100")
	if code != 0 {
		t.Fatalf("run all: %s", stderr)
	}
	if !strings.Contains(stderr, "llm done m1: ") || !strings.Contains(stderr, "retries") {
		t.Errorf("no progress lines: %s", stderr)
	}
	var sum struct {
		Plan planJSON
		Fill llm.FillSummary
	}
	json.Unmarshal(must(os.ReadFile(filepath.Join(out, "llm-summary.json"))), &sum)
	if sum.Fill.Done != est[0].ToSend || sum.Fill.Failed != 0 || sum.Fill.Models[0].Retries == 0 || s.Hits() <= sum.Fill.Done {
		t.Errorf("fill summary %+v (estimate %d, stub hits %d)", sum.Fill, est[0].ToSend, s.Hits())
	}
	// The notebooks now read cached rows only.
	hits := s.Hits()
	rs, err = lab.DefaultReaders(cacheRoot)
	if err != nil {
		t.Fatal(err)
	}
	defer closeReaders(rs)
	start := time.Now()
	for _, st := range lab.RunAllSteps(data) {
		setup, err := lab.StepSetup(data, st, rs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lab.EvaluateStep(bctx, st, setup); err != nil {
			t.Fatalf("%s offline: %v", st.Name(), err)
		}
	}
	if s.Hits() != hits {
		t.Errorf("notebook evaluations sent %d requests", s.Hits()-hits)
	}
	t.Logf("run all: %d requests answered through %d attempts; notebook evaluations from the cache: %s", sum.Fill.Done, hits, time.Since(start))
	// A second run all sends nothing.
	mustCLI(t, "run", "all", "--data", data, "--out", out, "--cache", filepath.Join(cacheRoot, "llm"), "--B", "100")
	if s.Hits() != hits {
		t.Errorf("second run all sent %d requests", s.Hits()-hits)
	}
}

// A key in ESR_LLM_BASE_URL's query string (…/v1?api-key=KEY) reaches
// neither stderr nor the run's files (llm-summary.json), even from an
// endpoint that refuses the request and echoes the URL it was asked for
// (esr/llm's TestBaseURLQueryValuesAreRedacted covers net/http's own
// errors, which quote the URL, and retries). The request goes to
// …/v1/chat/completions?api-key=KEY.
func TestBaseURLQueryKeyStaysOutOfOutputs(t *testing.T) {
	const queryKey = "qk-SECRET-cccc3333dddd"
	var mu sync.Mutex
	var paths []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
		http.Error(w, `{"error":"bad key for http://`+r.Host+r.URL.String()+`"}`, http.StatusUnauthorized)
	}))
	defer s.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", s.URL+"/v1?api-key="+queryKey, "ESR_LLM_MODELS", "m1")
	work := t.TempDir()
	stdout, stderr, code := runCLI(t, "eval", "--bench", smallBench(t), "--memory", "all", "--reader", "llm", "--judge", "llm",
		"--out", filepath.Join(work, "rows.jsonl"), "--cache", filepath.Join(work, "cache"))
	if code == 0 {
		t.Fatal("a refusing endpoint: exit 0")
	}
	if _, err := os.Stat(filepath.Join(work, "rows.llm-summary.json")); err != nil {
		t.Errorf("no summary to check: %v", err)
	}
	filepath.Walk(work, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(queryKey)) {
				t.Errorf("the query's key is in %s", p)
			}
		}
		return nil
	})
	if strings.Contains(stdout+stderr, queryKey) {
		t.Errorf("the query's key is in the command's output:\n%s", stderr)
	}
	mu.Lock()
	if want := "/v1/chat/completions?api-key=" + queryKey; len(paths) == 0 || paths[0] != want {
		t.Errorf("requests: %q, want %s", paths, want)
	}
	mu.Unlock()
}
