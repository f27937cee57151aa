package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScrubCommand(t *testing.T) {
	src := genSmall(t)
	out := t.TempDir()
	stdout, errOut, code := dataRun(t, "scrub", "--bench", src, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Replaced map[string]int
		Residual map[string]int
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if rep.Replaced["actor_field"] == 0 || len(rep.Residual) != 0 {
		t.Errorf("report %+v", rep)
	}
	data, _ := os.ReadFile(filepath.Join(out, "streams.jsonl"))
	if strings.Contains(string(data), `"actor":"`) {
		t.Error("actor fields left in the output")
	}
	// Scrubbing the output again replaces nothing.
	again := t.TempDir()
	stdout, _, code = dataRun(t, "scrub", "--bench", out, "--out", again)
	json.Unmarshal([]byte(stdout), &rep)
	total := 0
	for _, n := range rep.Replaced {
		total += n
	}
	if code != 0 || total != 0 {
		t.Errorf("second scrub: exit %d, replaced %v", code, rep.Replaced)
	}
	if _, _, code := dataRun(t, "scrub", "--bench", src, "--out", src); code == 0 {
		t.Error("in-place scrub accepted")
	}
}
