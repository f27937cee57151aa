package llm_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// These tests each cover one failure found by an attack on the kit;
// each failed before its fix.

// Item 16: a Retry-After beyond what a time.Duration holds (above about
// 9.2e9 s) overflowed to a negative wait, and the client retried at once. It
// is capped at MaxRetryAfter, and the retry line says so.
func TestRetryAfterOverflowIsCapped(t *testing.T) {
	for _, ra := range []string{"1e10", "99999999999999999999", "1e308"} {
		t.Run(ra, func(t *testing.T) {
			srv := llmtest.New(llmtest.Options{Reply: func(llmtest.Request) string { return "30 s" },
				Fault: func(hit int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
					if hit > 1 {
						return false
					}
					llmtest.Fail(w, 0, ra) // 429 with Retry-After
					return true
				}})
			defer srv.Close()
			const capAt = 300 * time.Millisecond
			c, logs := newClient(t, srv, func(cfg *llm.Config) { cfg.MaxRetryAfter = capAt })
			start := time.Now()
			if _, err := ask(c); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < capAt {
				t.Errorf("Retry-After %s: retried after %s, want at least the cap %s", ra, d, capAt)
			}
			if len(*logs) != 1 || !strings.Contains((*logs)[0], "capped") {
				t.Errorf("the retry line does not say the server's Retry-After was capped: %q", *logs)
			}
		})
	}
}

// rewritePack rewrites a pack's entry lines with edit, recomputing the
// manifest's content hash (as someone editing a pack would), and writes the
// result to path.
func rewritePack(t *testing.T, pack []byte, path string, edit func(lines [][]byte) [][]byte) {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(pack))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(raw, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	entries := edit(lines[1:])
	h := sha256.New()
	for _, l := range entries {
		h.Write(l)
	}
	var head map[string]map[string]any
	if err := json.Unmarshal(lines[0], &head); err != nil {
		t.Fatal(err)
	}
	head["manifest"]["content_sha256"] = hex.EncodeToString(h.Sum(nil))
	hj, _ := json.Marshal(head)
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(append(hj, '\n'))
	for _, l := range entries {
		zw.Write(l)
	}
	zw.Close()
	if err := os.WriteFile(path, zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Item 8: a pack's entries were not tied to their keys: two entries'
// replies swapped (the pack's hash recomputed) imported, and the answers
// swapped silently. Each entry carries its request's hash, and import
// recomputes the key from it.
func TestPackEntriesAreTiedToTheirKeys(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Reply: func(r llmtest.Request) string { return "answer to " + r.User() }})
	defer srv.Close()
	client, _ := newClient(t, srv, nil)
	c, err := llm.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := func(q string) llm.Request {
		return llm.Request{Model: "m1", Messages: []llm.Message{{Role: "user", Content: q}}}
	}
	for _, q := range []string{"first?", "second?"} {
		if _, _, err := llm.Cached(context.Background(), client, c, "t+1", req(q)); err != nil {
			t.Fatal(err)
		}
	}
	var pack bytes.Buffer
	if _, err := llm.ExportPack(&pack, c, nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The untouched pack imports, and answers each request with its reply.
	good := filepath.Join(dir, "good.gz")
	os.WriteFile(good, pack.Bytes(), 0o644)
	other, err := llm.OpenCache(filepath.Join(dir, "other"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if rep, err := llm.ImportPack(good, other); err != nil || rep.Imported != 2 {
		t.Fatalf("untouched pack: %+v %v", rep, err)
	}
	// Swap the two entries between the keys.
	swapped := filepath.Join(dir, "swapped.gz")
	rewritePack(t, pack.Bytes(), swapped, func(lines [][]byte) [][]byte {
		var a, b map[string]json.RawMessage
		json.Unmarshal(lines[0], &a)
		json.Unmarshal(lines[1], &b)
		a["entry"], b["entry"] = b["entry"], a["entry"]
		la, _ := json.Marshal(a)
		lb, _ := json.Marshal(b)
		return [][]byte{append(la, '\n'), append(lb, '\n')}
	})
	third, err := llm.OpenCache(filepath.Join(dir, "third"))
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	rep, err := llm.ImportPack(swapped, third)
	if err == nil {
		resp, _, _ := llm.Cached(context.Background(), nil, third, "t+1", req("first?"))
		t.Fatalf("a pack with two entries swapped imported (%+v); \"first?\" is now answered %q", rep, resp.Content)
	}
	if !strings.Contains(err.Error(), "swapped.gz:2:") || !strings.Contains(err.Error(), "key") {
		t.Errorf("the error does not name the line and the key: %v", err)
	}
	if third.Len() != 0 {
		t.Errorf("%d entries imported from a refused pack", third.Len())
	}
}

// Item 15 (pack half): a pack line over the importer's 64 MiB line limit
// exported, then could not be imported ("token too long"). What exports
// must import: export refuses such an entry, naming it and the limit. The
// entry comes in through a batch import (a batch result line may hold 64
// MiB; '<' is 1 byte there and 6, \u003c, in the cache's JSON).
func TestPackExportsOnlyWhatImports(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 66 MiB cache entry")
	}
	dir := t.TempDir()
	c, err := llm.OpenCache(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	plan := llm.NewPlan()
	req := llm.Request{Model: "m1", Messages: []llm.Message{{Role: "user", Content: "big?"}}}
	if _, _, err := llm.Cached(llm.WithPlan(context.Background(), plan), nil, c, "t+1", req); err != nil {
		t.Fatal(err)
	}
	var reqs bytes.Buffer
	if err := llm.WriteBatch(&reqs, plan.Pending()); err != nil {
		t.Fatal(err)
	}
	reqPath, resPath := filepath.Join(dir, "requests.jsonl"), filepath.Join(dir, "results.jsonl")
	os.WriteFile(reqPath, reqs.Bytes(), 0o644)
	var res bytes.Buffer
	enc := json.NewEncoder(&res)
	enc.SetEscapeHTML(false)
	enc.Encode(map[string]any{"custom_id": llm.CustomID(plan.Pending()[0]), "response": map[string]any{"status_code": 200,
		"body": map[string]any{"model": "m1", "choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": strings.Repeat("<", 11<<20)}}}}}})
	os.WriteFile(resPath, res.Bytes(), 0o644)
	if rep, err := llm.ImportBatch(resPath, reqPath, c); err != nil || rep.Imported != 1 {
		t.Fatalf("batch import: %+v %v", rep, err)
	}
	var pack bytes.Buffer
	_, exportErr := llm.ExportPack(&pack, c, nil)
	if exportErr != nil {
		if !strings.Contains(exportErr.Error(), "MiB") || !strings.Contains(exportErr.Error(), "m1") {
			t.Errorf("the refusal does not name the entry's model and the limit: %v", exportErr)
		}
		return
	}
	packPath := filepath.Join(dir, "pack.gz")
	os.WriteFile(packPath, pack.Bytes(), 0o644)
	other, err := llm.OpenCache(filepath.Join(dir, "other"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := llm.ImportPack(packPath, other); err != nil {
		t.Fatalf("a pack that exported does not import: %v", err)
	}
}
