package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestImportCommand(t *testing.T) {
	if _, _, code := dataRun(t, "import", "csv", "--src", "x", "--out", "y"); code == 0 {
		t.Error("unknown importer accepted")
	}
	if _, _, code := dataRun(t, "import", "dyknow", "--out", t.TempDir()); code == 0 {
		t.Error("missing --src accepted")
	}
	// DyKnow's own files at the commit data/dyknow was imported from.
	src := filepath.Join("..", "..", "internal", "dyknow", "testdata", "upstream")
	if _, err := os.Stat(filepath.Join(src, "grc_generated.json")); err != nil {
		t.Fatalf("DyKnow's upstream files: %v", err)
	}
	out := t.TempDir()
	stdout, errOut, code := dataRun(t, "import", "dyknow", "--src", src, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, `"streams": 123`) {
		t.Errorf("report: %s", stdout)
	}
	for _, name := range []string{"streams.jsonl", "qa.jsonl", "rag_outcomes.jsonl", "LICENSE", "PROVENANCE.md", "exclusions.jsonl"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
}
