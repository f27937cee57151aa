package main

import (
	"encoding/json"
	"testing"
)

func TestCoverageCommand(t *testing.T) {
	dir := genSmall(t, "--event-recall", "0.8")
	stdout, errOut, code := dataRun(t, "coverage", "--bench", dir, "--query", "snapshot")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		QAs         int `json:"qas"`
		EventRecall struct {
			Num, Den int
			Value    float64
		} `json:"event_recall"`
		ByQueryType map[string]any `json:"by_query_type"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if r.QAs == 0 || r.EventRecall.Den == 0 || r.EventRecall.Value >= 1 || len(r.ByQueryType) != 1 {
		t.Errorf("coverage %+v", r)
	}
	if _, _, code := dataRun(t, "coverage", "--bench", dir, "--query", "gossip"); code == 0 {
		t.Error("bad query type accepted")
	}
}
