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
