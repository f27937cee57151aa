package llm_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

func TestCacheRoundTripAndReopen(t *testing.T) {
	dir := t.TempDir()
	c, err := llm.OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	msgs := []llm.Message{{Role: "user", Content: "q"}}
	k := llm.Key("m", "qa/v1+abcd", msgs, llm.Params{})
	if err := c.Put(k, llm.Entry{Model: "m", Template: "qa/v1+abcd", Response: llm.Response{Content: "30 s", PromptTokens: 7}}); err != nil {
		t.Fatal(err)
	}
	// A second open of the same folder shares the handle.
	c2, err := llm.OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c2 != c {
		t.Error("same folder opened twice")
	}
	c2.Close()
	c.Close()
	c, err = llm.OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	e, ok, err := c.Get(k)
	if err != nil || !ok || e.Response.Content != "30 s" || e.Response.PromptTokens != 7 {
		t.Fatalf("after reopen: %v %v %+v", err, ok, e)
	}
	if c.Len() != 1 {
		t.Errorf("len %d", c.Len())
	}
}

func TestCacheKeyParts(t *testing.T) {
	msgs := []llm.Message{{Role: "user", Content: "q"}}
	base := llm.Key("m", "t+1", msgs, llm.Params{})
	for name, k := range map[string]string{
		"model":    llm.Key("m2", "t+1", msgs, llm.Params{}),
		"template": llm.Key("m", "t+2", msgs, llm.Params{}),
		"prompt":   llm.Key("m", "t+1", []llm.Message{{Role: "user", Content: "q2"}}, llm.Params{}),
		"params":   llm.Key("m", "t+1", msgs, llm.Params{MaxTokens: 5}),
	} {
		if k == base {
			t.Errorf("%s is not part of the key", name)
		}
	}
	if llm.Key("m", "t+1", msgs, llm.Params{}) != base {
		t.Error("key not deterministic")
	}
}

// A fully cached rerun sends nothing; the key appears in no file written.
func TestCachedSkipsRequestsAndKeepsNoKey(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Reply: func(r llmtest.Request) string { return "v:" + r.User() }})
	defer srv.Close()
	dir := t.TempDir()
	c, err := llm.OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	client, _ := newClient(t, srv, nil)
	for round := 0; round < 2; round++ {
		for i := 0; i < 5; i++ {
			req := llm.Request{Model: "m", Messages: []llm.Message{{Role: "user", Content: strings.Repeat("x", i+1)}}}
			resp, hit, err := llm.Cached(context.Background(), client, c, "t+1", req)
			if err != nil || hit != (round == 1) || resp.Content != "v:"+strings.Repeat("x", i+1) {
				t.Fatalf("round %d item %d: %v hit=%v %+v", round, i, err, hit, resp)
			}
		}
	}
	if srv.Hits() != 5 {
		t.Errorf("hits %d, want 5", srv.Hits())
	}
	c.Close()
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), secret) {
			t.Errorf("%s contains the API key", p)
		}
		return nil
	})
}
