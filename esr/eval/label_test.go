package eval

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// fixed answers every question with one value.
type fixed struct{ answer esr.Answer }

func (f fixed) Spec() reader.Spec {
	return reader.Spec{Kind: reader.KindScripted, Name: "fixed-" + f.answer.String()}
}
func (f fixed) Family() reader.Family { return reader.Family(f.Spec()) }
func (f fixed) Read(context.Context, reader.Input) (reader.Output, error) {
	return reader.Output{Answer: f.answer, Raw: f.answer.String()}, nil
}

// Every row carries the four-way label: on Figure 1 (30 s → 60 s → 30 s)
// "60 s" is outdated on the snapshot question; provenance questions have
// no prior values (their gold is one), so a rejected answer there is
// abstained or wrong.
func TestRunLabelsAnswers(t *testing.T) {
	b := bench.Figure1Bench()
	var rs []reader.Reader
	for _, a := range []esr.Answer{esr.Says("30 s"), esr.Says("60 s"), esr.Abstain, esr.Says("90 s"), esr.Says("was 60 s, now 30 s")} {
		rs = append(rs, fixed{a})
	}
	var sink SliceSink
	if err := Run(context.Background(), b, Config{Memories: memory.Specs("fine-ledger"), Readers: rs}, &sink); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"figure1-snapshot/30 s": "correct", "figure1-snapshot/60 s": "outdated", "figure1-snapshot/ABSTAIN": "abstained",
		"figure1-snapshot/90 s": "wrong", "figure1-snapshot/was 60 s, now 30 s": "wrong",
		"figure1-provenance/60 s": "correct", "figure1-provenance/30 s": "wrong", "figure1-provenance/ABSTAIN": "abstained",
		"figure1-provenance/90 s": "wrong", "figure1-provenance/was 60 s, now 30 s": "wrong",
	}
	for _, o := range sink.Rows {
		k := o.QID + "/" + o.Answer
		if string(o.Label) != want[k] {
			t.Errorf("%s: label %q, want %q", k, o.Label, want[k])
		}
		if (o.Label == judge.LabelCorrect) != o.Correct {
			t.Errorf("%s: label %s with correct=%v", k, o.Label, o.Correct)
		}
	}
	if len(sink.Rows) != len(want) {
		t.Errorf("%d rows", len(sink.Rows))
	}
}

// Rows written before labels existed still read; a row without a label or
// a rescoring judge writes neither key.
func TestOutcomeLabelCompatible(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.jsonl")
	old := `{"qid":"q","stream_id":"s","source":"x","phenomenon":"monotonic","query_type":"snapshot","memory":"m","reader":"scripted:r","family":"scripted:r","answer":"a","raw_answer":"a","gold":"a","correct":true,"abstained":false,"gold_abstain":false,"context_tokens":3}` + "\n"
	os.WriteFile(path, []byte(old), 0o644)
	rows, err := ReadOutcomes(path)
	if err != nil || len(rows) != 1 || rows[0].Label != "" || !rows[0].Correct {
		t.Fatalf("old row: %+v %v", rows, err)
	}
	b, _ := json.Marshal(rows[0])
	if strings.Contains(string(b), `"label"`) || strings.Contains(string(b), `"judge"`) || string(b)+"\n" != old {
		t.Errorf("old row re-encoded as %s", b)
	}
}
