package llm_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// TestMain doubles as a helper process for the cache tests: with
// LLMTEST_HOLD=MODE:DIR it opens the cache in DIR and, for MODE "open",
// writes one entry and keeps the cache open; for "lock", it holds an
// exclusive flock on the cache file itself (as a writer does while it
// commits, or an older esrkit did for its whole life). It says "ready" on
// standard output, then waits for LLMTEST_FOR.
func TestMain(m *testing.M) {
	if v := os.Getenv("LLMTEST_HOLD"); v != "" {
		mode, dir, _ := strings.Cut(v, ":")
		c, err := llm.OpenCache(dir)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		switch mode {
		case "open":
			if err := c.Put(strings.Repeat("0", 64), llm.Entry{Model: "m", Response: llm.Response{Content: "helper"}}); err != nil {
				fmt.Println(err)
				os.Exit(1)
			}
		case "lock":
			f, err := os.OpenFile(c.Path(), os.O_RDWR, 0)
			if err == nil {
				err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
			}
			if err != nil {
				fmt.Println(err)
				os.Exit(1)
			}
		}
		fmt.Println("ready")
		d, _ := time.ParseDuration(os.Getenv("LLMTEST_FOR"))
		time.Sleep(d)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helper starts the helper process and returns once it is ready.
func helper(t *testing.T, mode, dir string, d time.Duration) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LLMTEST_HOLD="+mode+":"+dir, "LLMTEST_FOR="+d.String())
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		t.Fatalf("helper: %q", line)
	}
	return cmd
}

// Finding 12: the cache is locked only while it is used. A process that
// keeps the cache open does not keep another from reading and writing it;
// a process that holds the file makes the other wait, with one message
// naming it, instead of failing.
func TestCacheSharedBetweenProcesses(t *testing.T) {
	dir := t.TempDir()
	helper(t, "open", dir, 5*time.Second)
	start := time.Now()
	c, err := llm.OpenCache(dir)
	if err != nil {
		t.Fatalf("a second process cannot open the cache: %v", err)
	}
	defer c.Close()
	if e, ok, err := c.Get(strings.Repeat("0", 64)); err != nil || !ok || e.Response.Content != "helper" {
		t.Fatalf("reading the other process's entry: %v %v %+v", err, ok, e)
	}
	if err := c.Put(strings.Repeat("1", 64), llm.Entry{Model: "m", Response: llm.Response{Content: "mine"}}); err != nil {
		t.Fatalf("writing beside the other process: %v", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("reading and writing beside an open cache took %s", el)
	}

	var notes []string
	defer func(f func(string)) { *llm.CacheNotice = f }(*llm.CacheNotice)
	*llm.CacheNotice = func(m string) { notes = append(notes, m) }
	holder := helper(t, "lock", dir, 800*time.Millisecond)
	e, ok, err := c.Get(strings.Repeat("1", 64))
	if err != nil || !ok || e.Response.Content != "mine" {
		t.Fatalf("after waiting: %v %v %+v", err, ok, e)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "waiting") || !strings.Contains(notes[0], "pid "+strconv.Itoa(holder.Process.Pid)) {
		t.Errorf("wait messages %q", notes)
	}
}

// emptyShapes are replies without text: a reasoning model out of
// max_tokens, a null content, no message, tool calls only.
var emptyShapes = map[string]string{
	"length":    `{"model":"m1","choices":[{"message":{"role":"assistant","content":""},"finish_reason":"length"}]}`,
	"null":      `{"model":"m1","choices":[{"message":{"role":"assistant","content":null},"finish_reason":"stop"}]}`,
	"nomessage": `{"model":"m1","choices":[{"index":0,"finish_reason":"stop"}]}`,
	"tools":     `{"model":"m1","choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
}

// Finding 2: an empty or cut reply is a failed attempt: retried, then a
// failed call, never cached; an empty entry already in a cache is asked
// again; a batch result without text is a failed line, not imported.
func TestEmptyRepliesAreFailures(t *testing.T) {
	for name, body := range emptyShapes {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(llmtest.Options{Fault: func(_ int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(body))
				return true
			}})
			defer srv.Close()
			c, _ := newClient(t, srv, nil)
			cache, err := llm.OpenCache(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer cache.Close()
			req := llm.Request{Model: "m1", Messages: []llm.Message{{Role: "user", Content: "hi"}}}
			_, _, err = llm.Cached(context.Background(), c, cache, "t", req)
			var le *llm.Error
			if !errors.As(err, &le) || le.Attempts != 4 {
				t.Fatalf("error %v, want a failed call after 4 attempts", err)
			}
			if cache.Len() != 0 {
				t.Errorf("an empty reply was cached")
			}
		})
	}
	// An empty entry stored by an older esrkit counts as missing.
	dir := t.TempDir()
	cache, err := llm.OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	key := llm.Key("m1", "t", []llm.Message{{Role: "user", Content: "hi"}}, llm.Params{N: 1})
	cache.Close()
	db, err := bolt.Open(filepath.Join(dir, llm.CacheFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error {
		v, _ := json.Marshal(llm.Entry{Model: "m1", Template: "t", Response: llm.Response{Content: "", FinishReason: "length"}})
		return tx.Bucket([]byte("responses")).Put([]byte(key), v)
	})
	db.Close()
	cache, _ = llm.OpenCache(dir)
	defer cache.Close()
	if _, ok, err := cache.Get(key); ok || err != nil {
		t.Errorf("an empty cached entry is served as an answer (%v)", err)
	}
	plan := llm.NewPlan()
	llm.Cached(llm.WithPlan(context.Background(), plan), nil, cache, "t", llm.Request{Model: "m1", Messages: []llm.Message{{Role: "user", Content: "hi"}}})
	if plan.ToSend() != 1 {
		t.Errorf("the dry run counts an empty entry as cached")
	}
}

// batchFiles writes a requests file for three requests of model m1 and
// returns its lines' custom ids and a results line maker.
func batchFiles(t *testing.T, dir string) (string, []string) {
	t.Helper()
	var reqs []llm.Planned
	for i := 0; i < 3; i++ {
		r := llm.Request{Model: "m1", Messages: []llm.Message{{Role: "user", Content: fmt.Sprintf("q%d", i)}}}
		reqs = append(reqs, llm.Planned{Key: llm.Key("m1", "t+1", r.Messages, llm.Params{N: 1}), Template: "t+1", Request: r})
	}
	path := filepath.Join(dir, "requests.jsonl")
	f, _ := os.Create(path)
	if err := llm.WriteBatch(f, reqs); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var ids []string
	for _, p := range reqs {
		ids = append(ids, llm.CustomID(p))
	}
	return path, ids
}

func resultLine(id, model, body string) string {
	b, _ := json.Marshal(map[string]any{"custom_id": id, "response": map[string]any{"status_code": 200,
		"body": json.RawMessage(`{"model":"` + model + `","choices":[{"message":{"role":"assistant","content":` + body + `},"finish_reason":"stop"}]}`)}})
	return string(b) + "\n"
}

// Finding 10: batch import checks every result against the requests it
// answers: an unknown custom id (a line from another export), a body for
// another model and two different answers to one request are invalid
// lines, a null content a failed one; none is imported. Keys are redacted
// longest first, leaving no tail of a longer key.
func TestBatchImportChecksResults(t *testing.T) {
	dir := t.TempDir()
	reqPath, ids := batchFiles(t, dir)
	other := llm.Request{Model: "m1", Messages: []llm.Message{{Role: "user", Content: "from another export"}}}
	otherID := llm.CustomID(llm.Planned{Key: llm.Key("m1", "t+1", other.Messages, llm.Params{N: 1}), Template: "t+1", Request: other})
	const short, long = "sk-secret", "sk-secret-A"
	results := resultLine(ids[0], "m1", `"answer with `+long+` inside"`) + // fine (redacted)
		resultLine(otherID, "m1", `"x"`) + // another export
		resultLine(ids[1], "m2", `"y"`) + // another model
		resultLine(ids[2], "m1", `"z"`) + resultLine(ids[2], "m1", `"z2"`) + // conflicting duplicate
		resultLine(ids[0], "m1-2024-08-06", `"answer with `+long+` inside"`) + // same answer again, dated model name
		resultLine(ids[1], "m1", `null`) // no text
	resPath := filepath.Join(dir, "results.jsonl")
	os.WriteFile(resPath, []byte(results), 0o644)
	cache, err := llm.OpenCache(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	rep, err := llm.ImportBatch(resPath, reqPath, cache, short, long)
	if err != nil {
		t.Fatal(err)
	}
	wantInvalid := []string{`results.jsonl:2: field "custom_id": not a request of`, `results.jsonl:3: field "response.body.model": "m2"`,
		`results.jsonl:5: field "custom_id": a second, different answer to the request of line 4`}
	if len(rep.Invalid) != len(wantInvalid) {
		t.Fatalf("invalid lines %q", rep.Invalid)
	}
	for i, w := range wantInvalid {
		if !strings.Contains(rep.Invalid[i], w) {
			t.Errorf("invalid[%d] = %q, want %q", i, rep.Invalid[i], w)
		}
	}
	if rep.Imported != 1 || rep.Duplicates != 1 || len(rep.Failed) != 1 || !strings.Contains(rep.Failed[0], "results.jsonl:7") {
		t.Errorf("report %+v", rep)
	}
	if cache.Len() != 1 {
		t.Errorf("%d entries imported, want only the valid one", cache.Len())
	}
	var got string
	cache.ForEach(func(_ string, e llm.Entry) error { got = e.Response.Content; return nil })
	if got != "answer with "+llm.Redacted+" inside" {
		t.Errorf("redacted answer %q (a key's tail is left)", got)
	}
}

// Finding 6: a fill stops sending to an endpoint that fails every request
// (the circuit breaker), naming why; another endpoint's model goes on.
func TestFillStopsAtDeadEndpoint(t *testing.T) {
	dead := llmtest.New(llmtest.Options{Fault: func(_ int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
		http.Error(w, `{"error":"down"}`, http.StatusBadGateway)
		return true
	}})
	defer dead.Close()
	alive := llmtest.New(llmtest.Options{Reply: func(llmtest.Request) string { return "ok" }})
	defer alive.Close()
	env := llm.Env{Getenv: func(k string) string {
		switch k {
		case llm.EnvModels:
			return "m-dead=" + dead.BaseURL() + ",m-alive=" + alive.BaseURL()
		case llm.EnvConcurrency:
			return "4"
		}
		return ""
	}}
	pool := llm.NewPool(env, llm.Config{BackoffBase: time.Millisecond, BackoffMax: 2 * time.Millisecond})
	var reqs []llm.Planned
	for _, m := range []string{"m-dead", "m-alive"} {
		for i := 0; i < 500; i++ {
			r := llm.Request{Model: m, Messages: []llm.Message{{Role: "user", Content: fmt.Sprintf("%s %d", m, i)}}}
			reqs = append(reqs, llm.Planned{Key: llm.Key(m, "t", r.Messages, llm.Params{N: 1}), Template: "t", Request: r})
		}
	}
	cache, err := llm.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	sum, err := llm.Fill(context.Background(), pool, cache, reqs, llm.FillOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, a := sum.Models[1], sum.Models[0] // sorted: m-alive, m-dead
	if !strings.Contains(d.Stopped, "is down") || d.NotSent < 400 || d.Attempts > 100 || dead.Hits() > 100 {
		t.Errorf("dead endpoint: %+v (%d hits)", d, dead.Hits())
	}
	if a.Stopped != "" || a.Done != 500 {
		t.Errorf("live endpoint: %+v", a)
	}
}
