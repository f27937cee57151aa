package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// dataRun drives the CLI in-process for the data commands' tests.
func dataRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runMain(args, &out, &errb)
	return out.String(), errb.String(), code
}

// genSmall writes a small synthetic bench and returns its folder.
func genSmall(t *testing.T, extra ...string) string {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"gen", "--seed", "7", "--per-stratum", "4", "--out", dir}, extra...)
	if _, errOut, code := dataRun(t, args...); code != 0 {
		t.Fatalf("esr gen: exit %d: %s", code, errOut)
	}
	return dir
}

func TestGenCommand(t *testing.T) {
	a := genSmall(t)
	b := genSmall(t)
	for _, name := range []string{"streams.jsonl", "atoms.jsonl", "qa.jsonl", "relations.jsonl", "MANIFEST.json"} {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, _ := os.ReadFile(filepath.Join(b, name))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between runs with the same seed", name)
		}
	}
	var m struct {
		Benchmark string
		Config    struct {
			Sources     []string
			EventRecall float64 `json:"event_recall"`
		}
		SHA256 map[string]string
	}
	data, _ := os.ReadFile(filepath.Join(a, "MANIFEST.json"))
	if err := json.Unmarshal(data, &m); err != nil || m.Benchmark != "synthetic" || len(m.SHA256) != 4 || len(m.Config.Sources) != 3 {
		t.Errorf("manifest %+v (%v)", m, err)
	}
	c := genSmall(t, "--sources", "wiki", "--event-recall", "0.5", "--clutter", "0.8")
	data, _ = os.ReadFile(filepath.Join(c, "MANIFEST.json"))
	json.Unmarshal(data, &m)
	if len(m.Config.Sources) != 1 || m.Config.EventRecall != 0.5 {
		t.Errorf("knobs not recorded: %+v", m.Config)
	}
	for _, bad := range [][]string{{"gen"}, {"gen", "--out", t.TempDir(), "--sources", "reddit"},
		{"gen", "--out", t.TempDir(), "--cokey-recall", "2"}, {"gen", "--out", t.TempDir(), "--per-stratum", "0"}} {
		if _, _, code := dataRun(t, bad...); code == 0 {
			t.Errorf("%v succeeded", bad)
		}
	}
}

// TestGenLikePresets: --like clean writes what plain esr gen writes;
// --like paper records the paper's knobs, and a flag given beside a preset
// overrides it; an unknown preset or a malformed knob is refused.
func TestGenLikePresets(t *testing.T) {
	plain := genSmall(t)
	clean := genSmall(t, "--like", "clean")
	for _, name := range []string{"streams.jsonl", "atoms.jsonl", "qa.jsonl", "relations.jsonl", "MANIFEST.json"} {
		x, _ := os.ReadFile(filepath.Join(plain, name))
		y, _ := os.ReadFile(filepath.Join(clean, name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: --like clean differs from the default", name)
		}
	}
	dir := t.TempDir()
	if _, errOut, code := dataRun(t, "gen", "--like", "paper", "--streams", "github/monotonic=6,github/reverted_revert=2,wiki/refines=2",
		"--cokey-recall", "1", "--out", dir); code != 0 {
		t.Fatalf("esr gen --like paper: exit %d: %s", code, errOut)
	}
	var m struct {
		Config struct {
			PerStratum    int                       `json:"per_stratum"`
			Streams       map[string]map[string]int `json:"streams"`
			AtomsPerEvent float64                   `json:"atoms_per_event"`
			AtomsOver     string                    `json:"atoms_over"`
			KeysPerStream float64                   `json:"keys_per_stream"`
			EventRecall   float64                   `json:"event_recall"`
			CoKeyRecall   float64                   `json:"cokey_recall"`
			EventTokens   int                       `json:"event_tokens"`
			LengthWeights []float64                 `json:"length_weights"`
		}
		Counts struct{ Streams int }
	}
	data, _ := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	c := m.Config
	if m.Counts.Streams != 10 || c.Streams["wiki"]["refines"] != 2 || c.AtomsPerEvent != 2.6 || c.AtomsOver != "events-with-atoms" ||
		c.KeysPerStream != 3.95 || c.EventRecall != 0.86 || c.CoKeyRecall != 1 || c.EventTokens == 0 || len(c.LengthWeights) != 5 {
		t.Errorf("paper preset with overrides: %+v, %d streams", c, m.Counts.Streams)
	}
	for _, bad := range [][]string{{"--like", "tidy"}, {"--like", "paper", "--streams", "github/monotonic"},
		{"--like", "paper", "--register", "poetry=1"}, {"--like", "paper", "--length-weights", "1,2"},
		{"--atoms-per-event", "2.6", "--atoms-over", "tokens"}} {
		args := append([]string{"gen", "--out", t.TempDir()}, bad...)
		if _, _, code := dataRun(t, args...); code == 0 {
			t.Errorf("%v succeeded", bad)
		}
	}
}
