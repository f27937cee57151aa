package reader

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/llmtest"
)

const testKey = "sk-live-DO-NOT-LEAK-0123456789"

func testConfig(srv *llmtest.Server, dir string) llm.Setup {
	return llm.Setup{CacheDir: dir, Concurrency: 8, BaseURL: srv.BaseURL(), APIKey: testKey,
		Getenv: func(string) string { return "" }, Timeout: 5 * time.Second}
}

func closeAll(rs []Reader) {
	for _, r := range rs {
		if c, ok := r.(interface{ Close() error }); ok {
			c.Close()
		}
	}
}

func TestLLMReaderPromptAndParse(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Keep: true, Usage: true, Reply: func(r llmtest.Request) string {
		if strings.Contains(r.User(), "reply with exactly ABSTAIN") {
			return "ABSTAIN"
		}
		return "Answer: 30 seconds."
	}})
	defer srv.Close()
	rs, err := ParseList("llm:qwen2.5-7b", testConfig(srv, t.TempDir()), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll(rs)
	r := rs[0]
	if want := (Spec{Kind: KindLLM, Name: "qwen2.5-7b"}); r.Spec() != want || r.Family() != Family(want) {
		t.Errorf("spec %s family %s", r.Spec(), r.Family())
	}
	s, atoms := bench.Figure1()
	for _, m := range []memory.Class{memory.GraphRAGAbstain, memory.GraphRAGLite} {
		st := memory.MustBuild(memory.SpecOf(m), s, atoms, memory.Options{})
		q := esr.Query{Type: esr.Snapshot, Key: bench.TimeoutKey, Question: bench.Figure1Question}
		in := Input{QID: "f1", Question: q.Question, QueryType: esr.Snapshot, Context: st.Render(q), MayAbstain: st.MayAbstain()}
		out, err := r.Read(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		want := esr.Abstain
		if !st.MayAbstain() {
			want = esr.Says("30 seconds")
		}
		if out.Answer != want || out.Cached {
			t.Errorf("%s: %+v, want %v uncached", m, out, want)
		}
		if out.ContextTokens == 0 || out.CompletionTokens != 1 {
			t.Errorf("token counts %+v", out)
		}
		again, _ := r.Read(context.Background(), in)
		if !again.Cached || again.Answer != out.Answer || again.ContextTokens != out.ContextTokens {
			t.Errorf("second read not from cache: %+v", again)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the rest cached)", len(reqs))
	}
	for _, q := range reqs {
		if q.Model != "qwen2.5-7b" || q.Temperature == nil || *q.Temperature != 0 || q.N != 1 {
			t.Errorf("request %+v", q)
		}
		if !strings.Contains(q.User(), "a1|service|request_timeout|30 s") && !strings.Contains(q.User(), "| a1 | 30 s |") {
			t.Errorf("render missing from prompt: %s", q.User())
		}
		if !strings.Contains(q.User(), "Question: "+bench.Figure1Question) {
			t.Errorf("question missing from prompt")
		}
	}
}

func TestParseListLLM(t *testing.T) {
	env := map[string]string{"ESR_LLM_MODELS": "m1, m2"}
	getenv := func(k string) string { return env[k] }
	if _, err := ParseList("oracle,llm", llm.Setup{Getenv: getenv}, nil); err == nil || !strings.Contains(err.Error(), "ESR_LLM_BASE_URL") {
		t.Errorf("no base URL: %v", err)
	}
	srv := llmtest.New(llmtest.Options{})
	defer srv.Close()
	env["ESR_LLM_BASE_URL"] = srv.BaseURL()
	rs, err := ParseList("oracle, llm, scripted:time-sorter, llm:m3", llm.Setup{Getenv: getenv, CacheDir: t.TempDir()}, stubSims{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll(rs)
	var names []string
	for _, r := range rs {
		names = append(names, r.Spec().String())
	}
	if got := strings.Join(names, ","); got != "oracle,llm:m1,llm:m2,scripted:time-sorter,llm:m3" {
		t.Errorf("readers %s", got)
	}
	if rs[1].(*LLM).Client != rs[2].(*LLM).Client || rs[1].(*LLM).Cache != rs[4].(*LLM).Cache {
		t.Error("LLM readers of one list should share client and cache")
	}
	if _, err := Parse("llm", llm.Setup{Getenv: getenv}, stubSims{}); err == nil {
		t.Error("bare llm with two models should ask for one")
	}
	all, err := ParseList("scripted", llm.Setup{}, stubSims{})
	if err != nil || len(all) != len(stubProfiles) {
		t.Errorf("scripted expands to %d readers (%v)", len(all), err)
	}
	if _, err := ParseList("llm", llm.Setup{Getenv: func(string) string { return "" }}, nil); err == nil ||
		!strings.Contains(err.Error(), "ESR_LLM_MODELS") {
		t.Errorf("no models: %v", err)
	}
	for _, bad := range []string{"gpt", "scripted", "scripted:nope", "llm:"} {
		if _, err := Parse(bad, llm.Setup{Getenv: getenv}, stubSims{}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func inputs(n int) []Input {
	ins := make([]Input, n)
	for i := range ins {
		ins[i] = Input{QID: fmt.Sprint(i), Question: "What request_timeout is in force?", QueryType: esr.Snapshot,
			Context: fmt.Sprintf("service / request_timeout: %d s (as of 2024-03-01)", i), MayAbstain: true}
	}
	return ins
}

func echoValue(r llmtest.Request) string {
	u := r.User()
	i := strings.Index(u, "request_timeout: ")
	j := strings.Index(u, " (as of")
	if i < 0 || j < i {
		return "ABSTAIN"
	}
	return u[i+len("request_timeout: ") : j]
}

// Kill and resume: a run cancelled midway keeps what arrived; the rerun asks
// only for the rest; a third run asks for nothing.
func TestLLMKillAndResume(t *testing.T) {
	var cancelOnce sync.Once
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := llmtest.New(llmtest.Options{Latency: 20 * time.Millisecond, Reply: echoValue,
		Fault: func(n int, _ llmtest.Request, _ http.ResponseWriter, _ *http.Request) bool {
			if n == 12 {
				cancelOnce.Do(cancel)
			}
			return false
		}})
	defer srv.Close()
	dir := t.TempDir()
	ins := inputs(60)
	var logs []string
	var logMu sync.Mutex
	cfg := testConfig(srv, dir)
	cfg.Log = func(s string) { logMu.Lock(); logs = append(logs, s); logMu.Unlock() }

	rs, err := ParseList("llm:m", cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := ReadAll(ctx, rs[0], ins, BatchOptions{Concurrency: 4})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v", err)
	}
	noLeak(t, "error", err.Error())
	got := 0
	for i, o := range outs {
		if o.Raw != "" {
			got++
			if o.Answer != esr.Says(fmt.Sprintf("%d s", i)) {
				t.Errorf("item %d: %v", i, o.Answer)
			}
		}
	}
	if got == 0 || got == len(ins) {
		t.Fatalf("first run finished %d of %d: the cancel did not land midway", got, len(ins))
	}
	closeAll(rs) // the process "dies": the cache file is closed

	before := srv.Hits()
	rs, err = ParseList("llm:m", cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var progress []int
	outs, err = ReadAll(context.Background(), rs[0], ins, BatchOptions{Concurrency: 4,
		Progress: func(done, total int) { progress = append(progress, done) }})
	if err != nil {
		t.Fatal(err)
	}
	if asked := srv.Hits() - before; asked != len(ins)-got {
		t.Errorf("rerun asked %d, want exactly the %d missing", asked, len(ins)-got)
	}
	for i, o := range outs {
		if o.Answer != esr.Says(fmt.Sprintf("%d s", i)) {
			t.Errorf("rerun item %d: %v", i, o.Answer)
		}
	}
	if len(progress) != len(ins) || progress[len(progress)-1] != len(ins) {
		t.Errorf("progress calls %v", progress)
	}
	closeAll(rs)

	before = srv.Hits()
	rs, _ = ParseList("llm:m", cfg, nil)
	if _, err := ReadAll(context.Background(), rs[0], ins, BatchOptions{Concurrency: 4}); err != nil {
		t.Fatal(err)
	}
	if srv.Hits() != before {
		t.Errorf("fully cached rerun sent %d requests", srv.Hits()-before)
	}
	closeAll(rs)
	noLeakInDir(t, dir)
	noLeak(t, "log", logs...)
}

// Faults during a batch: the run finishes with correct answers.
func TestLLMBatchWithFaults(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Reply: echoValue,
		Fault: func(n int, req llmtest.Request, w http.ResponseWriter, r *http.Request) bool {
			switch n % 7 {
			case 1:
				w.Header().Set("Retry-After", "0.01")
				http.Error(w, "busy", http.StatusTooManyRequests)
			case 3:
				http.Error(w, "oops", http.StatusInternalServerError)
			case 5:
				w.Write([]byte(`{"choices":[{"message":{"content":"tru`))
			default:
				return false
			}
			return true
		}})
	defer srv.Close()
	dir := t.TempDir()
	var logs []string
	var mu sync.Mutex
	cfg := testConfig(srv, dir)
	cfg.Log = func(s string) { mu.Lock(); logs = append(logs, s); mu.Unlock() }
	rs, err := ParseList("llm:m", cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll(rs)
	// Fast backoff for the test. Three of every seven requests fault, so a
	// request fails 9 attempts in a row with probability (3/7)^9 if the
	// faults fall at random: about one run in 40 over 50 items. 20 retries
	// make that about one in a million.
	c, _ := llm.New(llm.Config{BaseURL: srv.BaseURL(), APIKey: testKey, Concurrency: 8, MaxRetries: 20,
		BackoffBase: time.Millisecond, BackoffMax: 4 * time.Millisecond, Log: cfg.Log})
	rs[0].(*LLM).Client = c
	ins := inputs(50)
	outs, err := ReadAll(context.Background(), rs[0], ins, BatchOptions{Concurrency: 8})
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range outs {
		if o.Answer != esr.Says(fmt.Sprintf("%d s", i)) {
			t.Errorf("item %d: %v", i, o.Answer)
		}
	}
	if c.Stats().Retries == 0 {
		t.Error("no retries happened")
	}
	noLeak(t, "log", logs...)
	noLeakInDir(t, dir)
}

// An endpoint that rejects the key: a clear error, with the key redacted.
func TestLLMErrorRedacted(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Fault: func(_ int, req llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
		http.Error(w, "bad key: "+req.Auth, http.StatusUnauthorized)
		return true
	}})
	defer srv.Close()
	rs, err := ParseList("llm:m", testConfig(srv, t.TempDir()), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll(rs)
	_, err = rs[0].Read(context.Background(), inputs(1)[0])
	if err == nil || !strings.Contains(err.Error(), "llm:m") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("error %v", err)
	}
	noLeak(t, "error", err.Error())
}

func noLeak(t *testing.T, what string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, testKey) {
			t.Errorf("%s contains the API key: %s", what, s)
		}
	}
}

func noLeakInDir(t *testing.T, dir string) {
	t.Helper()
	n := 0
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		n++
		b, err := os.ReadFile(p)
		if err != nil {
			t.Error(err)
		}
		if strings.Contains(string(b), testKey) {
			t.Errorf("%s contains the API key", p)
		}
		return nil
	})
	if n == 0 {
		t.Error("the run wrote no file to scan")
	}
}

func TestCatalog(t *testing.T) {
	cat := Catalog(llm.Setup{Getenv: func(k string) string {
		return map[string]string{"ESR_LLM_MODELS": "qwen3-8b", "ESR_LLM_API_KEY": testKey}[k]
	}}, stubSims{})
	kinds := map[string]int{}
	for _, c := range cat {
		kinds[c.Kind]++
		sim := c.Kind == "scripted" || c.Kind == "sim" || c.Kind == "sim-calibrated"
		if sim && !c.Simulated {
			t.Errorf("%s not marked simulated", c.Name)
		}
		if !sim && c.Simulated {
			t.Errorf("%s marked simulated", c.Name)
		}
		if c.Simulated != c.Name.Simulated() {
			t.Errorf("%s: simulated %v, its spec says %v", c.Name, c.Simulated, c.Name.Simulated())
		}
	}
	if kinds["oracle"] != 1 || kinds["scripted"] != len(stubProfiles) || kinds["sim"] != 0 || kinds["llm"] != 1 {
		t.Errorf("catalog kinds %v", kinds)
	}
	if l := cat[len(cat)-1].Capabilities.(LLMCapabilities); l.EndpointConfigured || l.Model != "qwen3-8b" {
		t.Errorf("llm entry %+v", l)
	}
}

// stubSims stands in for sim.Readers (which imports this package): two
// scripted profiles, named as the real ones are.
type stubSims struct{}

var stubProfiles = []string{"time-sorter", "status-reader"}

func (stubSims) Reader(spec Spec) (Reader, error) {
	for _, p := range stubProfiles {
		if spec.Kind == KindScripted && spec.Name == p {
			return namedReader{Oracle{}, spec}, nil
		}
	}
	return nil, fmt.Errorf("no profile %s", spec)
}

func (s stubSims) All(kind Kind) ([]Reader, error) {
	var out []Reader
	for _, p := range stubProfiles {
		r, err := s.Reader(Spec{Kind: kind, Name: p})
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func (stubSims) Catalog() []Info {
	var out []Info
	for _, p := range stubProfiles {
		out = append(out, Info{Name: Spec{Kind: KindScripted, Name: p}, Kind: "scripted", Simulated: true})
	}
	return out
}

type namedReader struct {
	Oracle
	spec Spec
}

func (r namedReader) Spec() Spec { return r.spec }
