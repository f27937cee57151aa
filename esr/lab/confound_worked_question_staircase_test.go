package lab_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// The worked question reads one reverted revert through the staircase with
// every scripted reader; its arithmetic is the share of readers right on
// each memory, and the staircase on the same rows reproduces Table 2's
// pooled terms as differences of accuracies.
func TestWorkedQuestionAndStaircase(t *testing.T) {
	b, err := bench.Load(filepath.Join("..", "..", "data", "synthetic"))
	if err != nil {
		t.Fatal(err)
	}
	qa, err := lab.PickWorked(b, esr.RevertedRevert, esr.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := reader.ParseList(strings.Join(lab.ScriptedFamilies, ","), llm.Setup{}, sim.Readers)
	if err != nil {
		t.Fatal(err)
	}
	w, err := lab.Work(context.Background(), b, qa, nil, rs, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Renders) != 3 || !strings.Contains(w.Renders[0], "|time") || !strings.Contains(w.Renders[2], "status:") {
		t.Fatalf("renders: %q", w.Renders)
	}
	right := 0
	for ri := range w.Readers {
		if w.Answers[ri][0].Correct {
			right++
		}
		if w.Answers[ri][0].Reason == "" {
			t.Errorf("%s gives no reason", w.Readers[ri])
		}
	}
	if a := w.Arithmetic(); !strings.Contains(a, fmt.Sprintf("right are %d/%d on graphrag-abstain", right, len(rs))) || !strings.Contains(a, "Render step") {
		t.Errorf("arithmetic %q does not count %d/%d right on graphrag-abstain", a, right, len(rs))
	}
	if tab := lab.CapabilitiesTable(rs); len(tab.Rows) != len(rs) {
		t.Errorf("capabilities table has %d rows for %d readers", len(tab.Rows), len(rs))
	}

	rows, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: lab.Staircase, Readers: rs,
		QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}})
	if err != nil {
		t.Fatal(err)
	}
	acc := lab.StaircaseAccuracy(rows, nil)
	pooled := map[string]float64{}
	for _, a := range acc {
		if a.Group == reader.Pooled.String() {
			pooled[a.Memory.String()] = a.Acc
		}
	}
	cs, err := eval.CompareTerms(rows, []eval.Term{eval.TermRender, eval.TermFineMechanism}, nil, eval.StatOptions{B: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := pooled["render-only"] - pooled["graphrag-abstain"]; math.Abs(got-cs[0].Delta) > 1e-12 {
		t.Errorf("render step %v, Table 2 render %v", got, cs[0].Delta)
	}
	if got := pooled["fine-ledger"] - pooled["render-only"]; math.Abs(got-cs[1].Delta) > 1e-12 {
		t.Errorf("mechanism step %v, Table 2 mechanism %v", got, cs[1].Delta)
	}
	if s := lab.StaircaseSentence(acc); !strings.Contains(s, fmt.Sprintf("%+.3f", cs[1].Delta)) {
		t.Errorf("sentence %q lacks the mechanism step %+.3f", s, cs[1].Delta)
	}
	if p := lab.StaircasePlot(acc, "staircase"); p == nil {
		t.Error("no plot")
	}
}
