package lab_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/dyknow"
)

func TestDyKnowRAGTable(t *testing.T) {
	outs, err := dyknow.LoadOutcomes("../../data/dyknow")
	if err != nil {
		t.Fatal("the bundled DyKnow outcomes:", err)
	}
	tab, err := lab.DyKnowRAGTable(outs, eval.StatOptions{B: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 {
		t.Fatalf("want one row per model, got %v", tab.Rows)
	}
	// Llama-2: 164/192 clean vs 160/192 noisy (the importer's counts).
	for _, r := range tab.Texts() {
		if strings.Contains(r[0], "Llama") && (r[1] != "192" || r[2] != "0.854" || r[3] != "0.833") {
			t.Errorf("Llama row %v", r)
		}
	}
}
