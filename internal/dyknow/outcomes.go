package dyknow

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
)

// Conditions of DyKnow's retrieval-augmented runs: RAG/results (gold
// passages) and RAG/noisy_results (gold passages mixed with distractors).
const (
	Clean = "clean"
	Noisy = "noisy"
)

// Models are the answer models whose outputs DyKnow ships.
var Models = []string{"Llama-2-7b-chat-hf", "Mistral-7B-Instruct-v0.1"}

// OutcomesFile is the compact outcome file the importer writes.
const OutcomesFile = "rag_outcomes.jsonl"

// Outcome is one real model answer to one DyKnow question variant, with
// DyKnow's own label. QID is "<stream id>/<variant>" (variant: generic,
// contextualized, rephrased_1, ...), so the clean and noisy runs of one
// model pair by QID, and StreamID joins the converted benchmark (InBench is
// false for slots the conversion excluded).
type Outcome struct {
	QID       string `json:"qid"`
	StreamID  string `json:"stream_id"`
	Family    string `json:"family"`
	Condition string `json:"condition"`
	Variant   string `json:"variant"`
	Answer    string `json:"answer"`
	// Correct is DyKnow's label == "correct".
	Correct bool `json:"correct"`
	// Label is DyKnow's label: correct, outdated, irrelevant or ambiguous.
	Label   string `json:"label"`
	InBench bool   `json:"in_bench"`
}

type analysisItem struct {
	Prediction string  `json:"prediction"`
	Element    string  `json:"element"`
	Attribute  *string `json:"attribute"`
}

// ReadRAGResults reads every RAG/{results,noisy_results}/<model>/<category>_analysis.json
// of a DyKnow checkout into outcomes, sorted by (family, condition, qid).
// inBench says which stream ids the converted benchmark kept (nil: all).
func ReadRAGResults(src string, inBench map[string]bool) ([]Outcome, error) {
	var out []Outcome
	for _, cond := range []struct{ name, dir string }{{Clean, "results"}, {Noisy, "noisy_results"}} {
		for _, model := range Models {
			for _, cat := range Categories {
				path := filepath.Join(src, "RAG", cond.dir, model, cat+"_analysis.json")
				data, err := os.ReadFile(path)
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				if err != nil {
					return nil, err
				}
				var an map[string]map[string][]analysisItem
				if err := json.Unmarshal(data, &an); err != nil {
					return nil, fmt.Errorf("%s: %v", path, err)
				}
				seen := map[string]bool{}
				for _, variant := range slices.Sorted(maps.Keys(an)) {
					for _, label := range slices.Sorted(maps.Keys(an[variant])) {
						for _, it := range an[variant][label] {
							attr := ""
							if it.Attribute != nil {
								attr = *it.Attribute
							}
							sid := streamID(cat, it.Element, attr)
							o := Outcome{QID: sid + "/" + variant, StreamID: sid, Family: model, Condition: cond.name,
								Variant: variant, Answer: strings.TrimSpace(it.Prediction), Label: label,
								Correct: label == "correct", InBench: inBench == nil || inBench[sid]}
							if seen[o.QID] {
								return nil, fmt.Errorf("%s: question %s labelled twice", path, o.QID)
							}
							seen[o.QID] = true
							out = append(out, o)
						}
					}
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Family != b.Family {
			return a.Family < b.Family
		}
		if a.Condition != b.Condition {
			return a.Condition < b.Condition
		}
		return a.QID < b.QID
	})
	return out, nil
}

// ReadAnswerSheets reads DyKnow's clean-run answer sheets
// (RAG/results/<model>/<category>_answer_sheet.json) as labels by family and
// QID, to cross-check the analysis files.
func ReadAnswerSheets(src string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, model := range Models {
		out[model] = map[string]string{}
		for _, cat := range Categories {
			path := filepath.Join(src, "RAG", "results", model, cat+"_answer_sheet.json")
			data, err := os.ReadFile(path)
			if isNotExist(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			// {entity: {variant: label}} or {entity: {attribute: {variant: label}}}
			var top map[string]map[string]json.RawMessage
			if err := json.Unmarshal(data, &top); err != nil {
				return nil, fmt.Errorf("%s: %v", path, err)
			}
			for ent, m := range top {
				for k, raw := range m {
					var label string
					if json.Unmarshal(raw, &label) == nil {
						out[model][streamID(cat, ent, "")+"/"+k] = label
						continue
					}
					var byVariant map[string]string
					if err := json.Unmarshal(raw, &byVariant); err != nil {
						return nil, fmt.Errorf("%s: %s/%s: %v", path, ent, k, err)
					}
					for variant, label := range byVariant {
						out[model][streamID(cat, ent, k)+"/"+variant] = label
					}
				}
			}
		}
	}
	return out, nil
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// WriteOutcomes writes outcomes as JSONL.
func WriteOutcomes(path string, outs []Outcome) error { return bench.WriteJSONL(path, outs) }

// ReadOutcomes reads an outcome JSONL file (as WriteOutcomes writes it).
func ReadOutcomes(path string) ([]Outcome, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Outcome
	for n, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var o Outcome
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", filepath.Base(path), n+1, err)
		}
		out = append(out, o)
	}
	return out, nil
}

// LoadOutcomes reads the bundled outcomes from a converted folder (such as
// data/dyknow).
func LoadOutcomes(dir string) ([]Outcome, error) {
	return ReadOutcomes(filepath.Join(dir, OutcomesFile))
}

// Paired holds one model's clean and noisy 0/1 correctness vectors, aligned
// by question: Clean[i] and Noisy[i] answer QIDs[i].
type Paired struct {
	Family string
	QIDs   []string
	Clean  []int
	Noisy  []int
}

// PairedByModel pairs each model's clean and noisy outcomes by QID (only
// questions present in both conditions), sorted by QID. With onlyInBench,
// questions on excluded slots are left out.
func PairedByModel(outs []Outcome, onlyInBench bool) map[string]*Paired {
	type pair struct{ clean, noisy *Outcome }
	by := map[string]map[string]*pair{}
	for i := range outs {
		o := &outs[i]
		if onlyInBench && !o.InBench {
			continue
		}
		m := by[o.Family]
		if m == nil {
			m = map[string]*pair{}
			by[o.Family] = m
		}
		p := m[o.QID]
		if p == nil {
			p = &pair{}
			m[o.QID] = p
		}
		switch o.Condition {
		case Clean:
			p.clean = o
		case Noisy:
			p.noisy = o
		}
	}
	res := map[string]*Paired{}
	for fam, m := range by {
		pd := &Paired{Family: fam}
		for _, qid := range slices.Sorted(maps.Keys(m)) {
			p := m[qid]
			if p.clean == nil || p.noisy == nil {
				continue
			}
			pd.QIDs = append(pd.QIDs, qid)
			pd.Clean = append(pd.Clean, b2i(p.clean.Correct))
			pd.Noisy = append(pd.Noisy, b2i(p.noisy.Correct))
		}
		res[fam] = pd
	}
	return res
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
