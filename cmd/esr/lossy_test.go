package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
)

// The generator's own lossy extraction (the paper's Appendix F recalls:
// event 0.86, co-key 0.96) leaves questions about a key with no atom. Every
// command runs on it: eval answers them with every memory (each has
// nothing to show), run all builds its tables, calibrate fits, coverage
// counts them, and each says once how many there are.
func TestLossyExtractionRunsInEveryCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every experiment (about 10 s)")
	}
	dir := filepath.Join(t.TempDir(), "lossy")
	if _, errOut, code := runCLI(t, "gen", "--per-stratum", "6", "--event-recall", "0.86", "--cokey-recall", "0.96", "--out", dir); code != 0 {
		t.Fatalf("esr gen: %s", errOut)
	}
	out, errOut, code := runCLI(t, "coverage", "--bench", dir)
	var cov struct {
		Uncovered int `json:"uncovered_qas"`
		QAs       int `json:"qas"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &cov) != nil || cov.Uncovered == 0 {
		t.Fatalf("esr coverage: exit %d, %d of %d uncovered: %s", code, cov.Uncovered, cov.QAs, errOut)
	}
	note := "questions are about a key with no atom in their stream"
	if cov.Uncovered == 1 {
		note = "questions is about a key with no atom in its stream"
	}
	rows := filepath.Join(t.TempDir(), "rows.jsonl")
	_, errOut, code = runCLI(t, "eval", "--bench", dir, "--memory", "all", "--reader", "default", "--out", rows)
	if code != 0 || strings.Count(errOut, note) != 1 {
		t.Fatalf("esr eval: exit %d, want one note %q: %s", code, note, errOut)
	}
	got, err := eval.ReadOutcomes(rows)
	if err != nil {
		t.Fatal(err)
	}
	qas := map[string]bool{}
	for _, o := range got {
		qas[o.QID] = true
	}
	if len(qas) != cov.QAs {
		t.Errorf("esr eval answered %d of %d questions", len(qas), cov.QAs)
	}
	_, errOut, code = runCLI(t, "run", "all", "--data", dir, "--out", filepath.Join(t.TempDir(), "results"))
	if code != 0 || strings.Count(errOut, note) != 1 || strings.Contains(errOut, "table not built") {
		t.Fatalf("esr run all: exit %d: %s", code, errOut)
	}
	_, errOut, code = runCLI(t, "calibrate", "--bench", dir, "--starts", "0", "--out", filepath.Join(t.TempDir(), "cal.json"))
	if code != 0 || strings.Count(errOut, note) != 1 {
		t.Fatalf("esr calibrate: exit %d: %s", code, errOut)
	}
}

// A value with a line break loads in every command that reads a benchmark
// (describe, ledger, eval), folded to a space, and each says so once.
func TestFoldedValueIsSaidOnceByEveryCommand(t *testing.T) {
	dir := figure1Dir(t)
	path := filepath.Join(dir, "atoms.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"value":"60 s"`), []byte(`"value":"60 s\n(raised)"`), 1)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	note := `atoms.jsonl: 1 field held a tab or a line break, folded to a space`
	for _, args := range [][]string{
		{"describe", "--bench", dir},
		{"ledger", "--atoms", path, "--streams", filepath.Join(dir, "streams.jsonl")},
		{"eval", "--bench", dir, "--out", filepath.Join(t.TempDir(), "rows.jsonl")},
	} {
		out, errOut, code := runCLI(t, args...)
		if code != 0 || strings.Count(errOut, note) != 1 {
			t.Errorf("esr %s: exit %d, want one note %q: %s", args[0], code, note, errOut)
		}
		if args[0] == "ledger" && !strings.Contains(out, `"60 s (raised)"`) {
			t.Errorf("esr ledger: the folded value is not in its output: %s", out)
		}
	}
}
