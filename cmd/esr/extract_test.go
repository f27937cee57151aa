package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/llmtest"
)

const extractKey = "sk-extract-secret-0042"

const extractStreams = `{"stream_id":"gh-1","title":"Crash on import","created_at":null,"closed_at":null,"events":[{"event_id":"c1","kind":"issue","timestamp":"2024-01-02T00:00:00Z","text":"Import crashes. Severity: high.","actor":"alice","role":"reporter"},{"event_id":"c2","kind":"comment","timestamp":"2024-01-03T00:00:00Z","text":"Fixed, closing.","actor":"bob","role":"maintainer"}]}
`

func TestExtractCommand(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Reply: func(r llmtest.Request) string {
		if strings.Contains(r.User(), "Import crashes") {
			return `[{"entity":"issue","attribute":"severity","value":"high"},{"entity":"issue","attribute":"mood","value":"sad"}]`
		}
		return "```json\n{\"entity\":\"issue\",\"attribute\":\"issue_status\",\"value\":\"closed\"}\n```"
	}})
	defer srv.Close()
	dir := t.TempDir()
	sp := filepath.Join(dir, bench.StreamsFile)
	os.WriteFile(sp, []byte(extractStreams), 0o644)
	out := filepath.Join(dir, bench.AtomsFile)
	cache := filepath.Join(dir, "cache")
	t.Setenv("ESR_LLM_BASE_URL", srv.BaseURL())
	t.Setenv("ESR_LLM_API_KEY", extractKey)
	t.Setenv("ESR_LLM_MODELS", "extractor")

	run := func(args ...string) (string, string, int) {
		var o, e bytes.Buffer
		code := runMain(append([]string{"extract"}, args...), &o, &e)
		return o.String(), e.String(), code
	}
	_, errs, code := run("--streams", sp, "--out", out, "--cache", cache)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "extracted 2 atoms from 2 events in 1 streams") ||
		!strings.Contains(errs, "dropped 1 atoms outside the attribute inventory (mood=1)") {
		t.Errorf("stderr: %s", errs)
	}
	b, err := bench.LoadFiles(out, sp) // atoms and streams, no QAs yet
	if err != nil {
		t.Fatal(err)
	}
	if atoms := b.Atoms["gh-1"]; len(atoms) != 2 || atoms[0].Attribute != "severity" || atoms[1].Value != "closed" {
		t.Errorf("atoms %+v", atoms)
	}
	// A rerun is served from the cache.
	hits := srv.Hits()
	if _, errs, code = run("--streams", sp, "--out", out, "--cache", cache); code != 0 || srv.Hits() != hits ||
		!strings.Contains(errs, "(2 events from the cache)") {
		t.Errorf("rerun: exit %d, %d requests, %s", code, srv.Hits()-hits, errs)
	}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if data, _ := os.ReadFile(p); bytes.Contains(data, []byte(extractKey)) {
				t.Errorf("%s contains the API key", p)
			}
		}
		return nil
	})
	if strings.Contains(errs, extractKey) {
		t.Error("stderr contains the API key")
	}

	// Errors: flags, inventory, endpoint.
	for _, tc := range []struct {
		env  string
		args []string
		want string
	}{
		{args: []string{"--out", out}, want: "--streams is required"},
		{args: []string{"--streams", filepath.Join(dir, "nope.jsonl"), "--out", out}, want: "no such file"},
		{args: []string{"--streams", sp, "--out", out, "--attributes", filepath.Join(dir, "none.txt")}, want: "no such file"},
		{env: "nobase", args: []string{"--streams", sp, "--out", out, "--cache", ""}, want: "ESR_LLM_BASE_URL"},
	} {
		if tc.env == "nobase" {
			t.Setenv("ESR_LLM_BASE_URL", "")
		}
		_, errs, code := run(tc.args...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
		if strings.Contains(errs, extractKey) {
			t.Error("stderr contains the API key")
		}
	}
}
