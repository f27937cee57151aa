package judge

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/stats"
)

// LabeledAnswer is a real model answer with an external correctness label,
// for checking a judge against another annotation (e.g. DyKnow's own
// correct / outdated / irrelevant / ambiguous labels; see testdata/dyknow).
type LabeledAnswer struct {
	Model     string   `json:"model"`
	Source    string   `json:"source,omitempty"`
	Item      string   `json:"item"`
	Question  string   `json:"question,omitempty"`
	Raw       string   `json:"prediction"`
	Gold      string   `json:"gold"`
	Aliases   []string `json:"aliases,omitempty"`
	Label     string   `json:"label"`
	MatchType []string `json:"match_type,omitempty"`
}

// readLabeled reads a JSONL file of LabeledAnswer rows.
func readLabeled(path string) ([]LabeledAnswer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []LabeledAnswer
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var a LabeledAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", filepath.Base(path), n, err)
		}
		out = append(out, a)
	}
	return out, sc.Err()
}

// Disagreement is one item where the judge and the label differ.
type Disagreement struct {
	LabeledAnswer
	Answer string `json:"answer"`
	Judge  bool   `json:"judge_correct"`
	Rule   string `json:"rule"`
}

// Agreement compares a judge's correct/incorrect with a label's.
type Agreement struct {
	N int
	// Counts: judge × label (both correct, judge only, label only, neither).
	Both, JudgeOnly, LabelOnly, Neither int
	Kappa                               stats.Kappa
	Disagreements                       []Disagreement
}

// checkAgreement judges every item's raw answer (read as an LLM reader
// reads it, llm.ParseAnswer) against its gold and aliases with j, and
// compares with positive(label) by Cohen's κ (95% interval).
func checkAgreement(ctx context.Context, j Judge, items []LabeledAnswer, positive func(label string) bool) (Agreement, error) {
	var ag Agreement
	for _, it := range items {
		a := llm.ParseAnswer(it.Raw)
		qa := &esr.QA{QID: it.Item, Question: it.Question, GoldAnswer: it.Gold, Aliases: it.Aliases}
		v, err := j.Judge(ctx, qa, a)
		if err != nil {
			return ag, err
		}
		lab := positive(it.Label)
		ag.N++
		switch {
		case v.Correct && lab:
			ag.Both++
		case v.Correct:
			ag.JudgeOnly++
		case lab:
			ag.LabelOnly++
		default:
			ag.Neither++
		}
		if v.Correct != lab {
			ag.Disagreements = append(ag.Disagreements, Disagreement{LabeledAnswer: it, Answer: a.String(), Judge: v.Correct, Rule: v.Rule})
		}
	}
	table := [][]float64{{float64(ag.Both), float64(ag.JudgeOnly)}, {float64(ag.LabelOnly), float64(ag.Neither)}}
	k, err := stats.CohenKappaTable(table, 0.95)
	ag.Kappa = k
	return ag, err
}
