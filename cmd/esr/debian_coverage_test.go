package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// TestDebianExtractorCoverage runs the extractor-coverage commands notebook
// D-debian documents (esr extract on the changelog entries with
// data/debian's attribute inventory, then esr coverage) on the vendored
// sample, with a stub standing in for the LLM: it returns the uploader of
// an entry whose urgency is medium and nothing for any other entry. The
// event recall esr coverage reports must be the share of gold-relevant
// events whose text says urgency=medium, counted here from the files.
func TestDebianExtractorCoverage(t *testing.T) {
	const sample = "../../internal/debian/testdata"
	data := t.TempDir()
	if _, errOut, code := dataRun(t, "import", "debian", "--src", sample+"/raw", "--packages", sample+"/packages.txt", "--out", data); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	trailer := regexp.MustCompile(`\n -- (.+?) <`)
	srv := llmtest.New(llmtest.Options{Reply: func(r llmtest.Request) string {
		u := r.User()
		m := trailer.FindStringSubmatch(u)
		if m == nil || !strings.Contains(u, "urgency=medium") {
			return "[]"
		}
		v, _ := json.Marshal(m[1])
		return `[{"entity":"pkg","attribute":"uploader","value":` + string(v) + `}]`
	}})
	defer srv.Close()
	t.Setenv("ESR_LLM_BASE_URL", srv.BaseURL())
	t.Setenv("ESR_LLM_API_KEY", "sk-test-coverage")
	t.Setenv("ESR_LLM_MODELS", "extractor")

	llmDir := t.TempDir()
	for _, f := range []string{bench.StreamsFile, bench.QAFile} {
		b, err := os.ReadFile(filepath.Join(data, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(llmDir, f), b, 0o644)
	}
	if _, errOut, code := dataRun(t, "extract", "--streams", filepath.Join(llmDir, bench.StreamsFile), "--attributes", filepath.Join(data, "attributes.txt"),
		"--out", filepath.Join(llmDir, bench.AtomsFile), "--cache", t.TempDir()); code != 0 {
		t.Fatalf("extract: exit %d: %s", code, errOut)
	}
	out, errOut, code := dataRun(t, "coverage", "--bench", llmDir)
	if code != 0 {
		t.Fatalf("coverage: exit %d: %s", code, errOut)
	}
	var got struct {
		EventRecall struct{ Num, Den int } `json:"event_recall"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("coverage output: %v\n%s", err, out)
	}

	// The expected recall, from the files: events by id, then every QA's
	// gold-relevant events (supporting ∪ deprecated).
	full, err := bench.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	num, den := 0, 0
	for _, q := range full.QAs {
		texts := map[string]string{}
		for _, e := range full.Stream(q.StreamID).Events {
			texts[e.ID] = e.Text
		}
		seen := map[string]bool{}
		for _, id := range append(append([]string{}, q.GoldSupportingEventIDs...), q.GoldDeprecatedEventIDs...) {
			if seen[id] {
				continue
			}
			seen[id] = true
			den++
			if strings.Contains(texts[id], "urgency=medium") {
				num++
			}
		}
	}
	if den == 0 || num == 0 || num == den {
		t.Fatalf("the sample does not exercise a partial extraction: %d of %d gold-relevant events", num, den)
	}
	if got.EventRecall.Num != num || got.EventRecall.Den != den {
		t.Errorf("event recall %d/%d, want %d/%d", got.EventRecall.Num, got.EventRecall.Den, num, den)
	}
	t.Logf("stub extraction: event recall %d/%d", num, den)
}
