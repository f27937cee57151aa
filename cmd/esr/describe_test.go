package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDescribeCommand(t *testing.T) {
	dir := genSmall(t)
	stdout, errOut, code := dataRun(t, "describe", "--bench", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var c struct {
		QAs        int                                  `json:"qas"`
		Cells      map[string]map[string]map[string]int `json:"by_source_stratum_query"`
		LengthBins []struct{ Label, Paper string }      `json:"length_bins"`
	}
	if err := json.Unmarshal([]byte(stdout), &c); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if c.QAs == 0 || len(c.Cells) != 3 || len(c.LengthBins) != 5 || c.LengthBins[4].Label != "21–70" || c.LengthBins[4].Paper != "20–70" {
		t.Errorf("describe %+v", c)
	}
	text, _, code := dataRun(t, "describe", "--bench", dir, "--format", "text")
	if code != 0 || !strings.Contains(text, "reverted_revert") || !strings.Contains(text, "10–20") {
		t.Errorf("text output (exit %d): %s", code, text)
	}
	if _, _, code := dataRun(t, "describe", "--bench", dir, "--format", "xml"); code == 0 {
		t.Error("bad format accepted")
	}
}
