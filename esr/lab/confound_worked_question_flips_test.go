package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// Flips lists exactly the readers whose verdict differs between the two
// memories, and each flip's sentence carries both answers and what the
// reader says decided each (reader.Output.Decision), not a typed cause.
func TestFlipsAndTheirCauses(t *testing.T) {
	rs, err := lab.DefaultReaders(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, err := lab.Work(context.Background(), bench.Figure1Bench(), bench.Figure1QA(), nil, rs, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range [][2]int{{0, 1}, {1, 2}, {0, 2}} {
		fs := w.Flips(step[0], step[1])
		n := 0
		for ri := range w.Readers {
			if w.Answers[ri][step[0]].Correct != w.Answers[ri][step[1]].Correct {
				n++
			}
		}
		if len(fs) != n {
			t.Errorf("Flips%v: %d flips, %d readers change their verdict", step, len(fs), n)
		}
		for _, f := range fs {
			s := lab.FlipSentence(f)
			if f.Before.Decision == "" || f.After.Decision == "" {
				t.Errorf("%s: a sim reader's answer without its decision: %+v", f.Reader, f)
			}
			for _, want := range []string{lab.FlipReaderWords(f.Reader), f.From.String(), f.To.String(), f.Before.Answer, f.After.Answer, f.Before.Decision, f.After.Decision} {
				if !strings.Contains(s, want) {
					t.Errorf("FlipSentence %q lacks %q", s, want)
				}
			}
			// A calibrated reader's flip is the model's, named as such.
			if strings.HasPrefix(f.Reader, "sim:fit-") && !strings.Contains(s, "the simulated reader fit-") {
				t.Errorf("FlipSentence %q names a calibrated reader as the LLM", s)
			}
			if got := strings.Contains(s, "turns right"); got != f.TurnsRight() {
				t.Errorf("FlipSentence %q: turns right = %v, want %v", s, got, f.TurnsRight())
			}
		}
	}
	// The oracle says nothing of how it decided: its flips fall back to
	// the answers alone.
	f := lab.Flip{Reader: "oracle", From: memory.SpecOf("a"), To: memory.SpecOf("b"), Before: lab.WorkedAnswer{Answer: "x"}, After: lab.WorkedAnswer{Answer: "y", Correct: true}}
	if got, want := lab.FlipSentence(f), "oracle turns right from a to b: x on a, y on b"; got != want {
		t.Errorf("FlipSentence = %q, want %q", got, want)
	}
}

// PickRenderFlip returns a question on which some reader's verdict changes
// at the render step and whose fine ledger's state answers it (the oracle
// reading the ledger is right, so the question's last step shows the
// ledger doing its job: readers right on it), and says so when no question
// has a flip (a reader that reads every render the same way never flips).
func TestPickRenderFlip(t *testing.T) {
	ctx := context.Background()
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := lab.DefaultReaders(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	qa, err := lab.PickRenderFlip(ctx, b, esr.RevertedRevert, esr.Snapshot, rs, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := lab.Work(ctx, b, qa, nil, rs, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Flips(0, 1)) == 0 {
		t.Errorf("PickRenderFlip chose %s, on which no reader flips at the render step", qa.QID)
	}
	o, err := lab.Work(ctx, b, qa, []memory.Spec{memory.SpecOf(memory.FineLedger)}, []reader.Reader{reader.Oracle{}}, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Answers[0][0].Correct {
		t.Errorf("PickRenderFlip chose %s, whose fine ledger answers %q (gold %q)", qa.QID, o.Answers[0][0].Answer, qa.GoldAnswer)
	}
	if acc := w.Accuracies(); acc[2].Acc == 0 {
		t.Errorf("PickRenderFlip chose %s, on which no reader is right on the fine ledger: %+v", qa.QID, acc[2])
	}
	// The oracle reads structured state, so on graphrag-abstain and
	// render-only (both d-blind) it answers alike: no flip anywhere.
	if _, err := lab.PickRenderFlip(ctx, b, esr.RevertedRevert, esr.Snapshot, []reader.Reader{reader.Oracle{}}, memory.Options{}); err == nil {
		t.Error("PickRenderFlip found a render flip for the oracle")
	}
}
