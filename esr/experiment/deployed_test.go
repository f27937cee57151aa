package experiment

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

func TestRevertedRevertTable(t *testing.T) {
	tb, err := RevertedRevertTable(context.Background(), DeployedClasses(""), []string{"status-reader"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range tb.Rows {
		got[r[0]] = strings.Join(r[1:], " ")
	}
	if got[memory.Graphiti] != "60 s 30 s 60 s" || got[memory.Mem0Update] != "30 s ABSTAIN 30 s" {
		t.Errorf("rows %v", got)
	}
}

func TestDeployedDecompositionSentences(t *testing.T) {
	b := bench.Figure1Bench()
	r, _ := reader.NewScripted("status-reader")
	classes := []string{memory.Graphiti, memory.Mem0Update}
	rows, err := DeployedEval(context.Background(), b, classes, []reader.Reader{r, reader.Oracle{}})
	if err != nil {
		t.Fatal(err)
	}
	tb, sentences, err := DeployedDecomposition(rows, "figure1", classes, StatOptions{B: 200, Seed: 1})
	if err != nil || len(tb.Rows) == 0 || len(sentences) != len(tb.Rows) {
		t.Fatalf("%v %v %v", tb, sentences, err)
	}
	if !strings.Contains(sentences[0], "graphiti against graphrag-abstain") {
		t.Errorf("sentence %q", sentences[0])
	}
}

func TestDriftTable(t *testing.T) {
	old, err := bench.Load("../../data/dyknow")
	if err != nil {
		t.Skip(err)
	}
	nw, err := bench.Load("../../data/vdyknow")
	if err != nil {
		t.Fatal(err)
	}
	a, b := DriftTable(old, nw, "DyKnow", "V-DyKnow"), DriftTable(old, nw, "DyKnow", "V-DyKnow")
	if a.Markdown() != b.Markdown() || len(a.Rows) == 0 {
		t.Fatalf("drift table empty or not deterministic")
	}
	if !strings.Contains(a.Markdown(), "| United States of America | President of the United States | Joe Biden | Donald Trump | returned to a value DyKnow already had |") {
		t.Errorf("drift table lacks the US presidency:\n%s", a.Markdown())
	}
}
