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
	var shape struct {
		Shape struct {
			AtomsPerEvent float64 `json:"atoms_per_event"`
			KeysPerStream float64 `json:"keys_per_stream"`
			SnapshotQAs   int     `json:"snapshot_qas"`
		} `json:"shape"`
		Checks []struct {
			Name     string
			Measured float64
			Found    bool
		} `json:"shape_vs_paper"`
	}
	if err := json.Unmarshal([]byte(stdout), &shape); err != nil || shape.Shape.SnapshotQAs == 0 || shape.Shape.KeysPerStream < 1 || len(shape.Checks) < 14 || !shape.Checks[0].Found {
		t.Errorf("describe shape %+v (%v)", shape, err)
	}
	text, _, code := dataRun(t, "describe", "--bench", dir, "--format", "text")
	if code != 0 || !strings.Contains(text, "reverted_revert") || !strings.Contains(text, "10–20") || !strings.Contains(text, "distinct keys per stream") {
		t.Errorf("text output (exit %d): %s", code, text)
	}
	if _, _, code := dataRun(t, "describe", "--bench", dir, "--format", "xml"); code == 0 {
		t.Error("bad format accepted")
	}
}

// TestDescribeLossyBench: a bench whose extraction missed every atom of
// some questioned keys is described (its event recall below 1), not
// refused.
func TestDescribeLossyBench(t *testing.T) {
	dir := genSmall(t, "--event-recall", "0.5")
	stdout, errOut, code := dataRun(t, "describe", "--bench", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var c struct {
		Shape struct {
			EventRecall struct{ Value float64 } `json:"event_recall"`
		} `json:"shape"`
	}
	if err := json.Unmarshal([]byte(stdout), &c); err != nil || c.Shape.EventRecall.Value >= 0.9 || c.Shape.EventRecall.Value <= 0.1 {
		t.Errorf("event recall %+v (%v)", c.Shape.EventRecall, err)
	}
}
