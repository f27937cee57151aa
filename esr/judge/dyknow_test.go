package judge

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const dyknowSample = "testdata/dyknow/answers.jsonl"

// TestRegenerateDyKnowSample rebuilds testdata/dyknow/answers.jsonl from a
// DyKnow checkout (RAG/results/<model>/*_analysis.json, commit
// 1182dd89b981d32b41eecc473c9ebebc75366e69). It runs only when
// ESR_DYKNOW_DIR points at the checkout.
func TestRegenerateDyKnowSample(t *testing.T) {
	root := os.Getenv("ESR_DYKNOW_DIR")
	if root == "" {
		t.Skip("ESR_DYKNOW_DIR not set")
	}
	type row struct {
		Prediction    string     `json:"prediction"`
		MatchType     []string   `json:"match_type"`
		CorrectAnswer string     `json:"correct_answer"`
		Element       string     `json:"element"`
		Attribute     *string    `json:"attribute"`
		Matched       [][]string `json:"matched_answers"`
	}
	var out []labeledAnswer
	for _, model := range []string{"Llama-2-7b-chat-hf", "Mistral-7B-Instruct-v0.1"} {
		files, _ := filepath.Glob(filepath.Join(root, "RAG", "results", model, "*_analysis.json"))
		sort.Strings(files)
		for _, f := range files {
			cat := strings.TrimSuffix(filepath.Base(f), "_analysis.json")
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var byVariant map[string]map[string][]row
			if err := json.Unmarshal(b, &byVariant); err != nil {
				t.Fatal(err)
			}
			variants := make([]string, 0, len(byVariant))
			for v := range byVariant {
				variants = append(variants, v)
			}
			sort.Strings(variants)
			for _, v := range variants {
				for _, label := range []string{"correct", "outdated", "irrelevant", "ambiguous"} {
					for _, r := range byVariant[v][label] {
						item := cat + "/" + r.Element
						if r.Attribute != nil {
							item += "/" + *r.Attribute
						}
						out = append(out, labeledAnswer{Model: model, Source: "dyknow/RAG/results", Item: item + "/" + v,
							Raw: r.Prediction, Gold: r.CorrectAnswer, Label: label, MatchType: r.MatchType})
					}
				}
			}
		}
	}
	f, err := os.Create(dyknowSample)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, r := range out {
		enc.Encode(r)
	}
	f.Close()
	t.Logf("wrote %d rows", len(out))
}

// The exact judge against DyKnow's own labels on real Llama-2-7B and
// Mistral-7B answers: Cohen's κ between our correct/incorrect and DyKnow's
// "correct".
func TestDyKnowAgreement(t *testing.T) {
	items, err := readLabeled(dyknowSample)
	if err != nil {
		t.Fatal(err)
	}
	byModel := map[string][]labeledAnswer{}
	for _, it := range items {
		byModel[it.Model] = append(byModel[it.Model], it)
	}
	want := map[string]struct {
		n        int
		minKappa float64
	}{
		"Llama-2-7b-chat-hf":       {192, 0.35},
		"Mistral-7B-Instruct-v0.1": {164, 0.10},
	}
	for model, w := range want {
		ag, err := checkAgreement(context.Background(), Exact{}, byModel[model], func(l string) bool { return l == "correct" })
		if err != nil {
			t.Fatal(err)
		}
		if ag.N != w.n {
			t.Errorf("%s: %d items, want %d", model, ag.N, w.n)
		}
		t.Logf("%s: n=%d κ=%.3f [%.3f, %.3f]  both=%d judge-only=%d dyknow-only=%d neither=%d",
			model, ag.N, ag.Kappa.Kappa, ag.Kappa.Lo, ag.Kappa.Hi, ag.Both, ag.JudgeOnly, ag.LabelOnly, ag.Neither)
		patterns := map[string]int{}
		for _, d := range ag.Disagreements {
			patterns[strings.Join(d.MatchType, "+")+" / dyknow="+d.Label+" / rule="+d.Rule]++
		}
		for p, n := range patterns {
			t.Logf("  %3d  %s", n, p)
		}
		if testing.Verbose() {
			for _, d := range ag.Disagreements {
				t.Logf("    %-9s ours=%-5v %q vs gold %q", d.Label, d.Judge, d.Answer, d.Gold)
			}
		}
		if ag.Kappa.Kappa < w.minKappa {
			t.Errorf("%s: κ %.3f below %.2f", model, ag.Kappa.Kappa, w.minKappa)
		}
		if ag.JudgeOnly != 0 {
			t.Errorf("%s: the exact judge accepted %d answers DyKnow rejects", model, ag.JudgeOnly)
		}
		// Without DyKnow's fuzzy matches (simplified names, surname-only
		// "head" matches) the two agree on every item.
		var strict []labeledAnswer
		for _, it := range byModel[model] {
			if mt := strings.Join(it.MatchType, "+"); mt != "simplified" && mt != "head" {
				strict = append(strict, it)
			}
		}
		sg, err := checkAgreement(context.Background(), Exact{}, strict, func(l string) bool { return l == "correct" })
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s without fuzzy matches: n=%d κ=%.3f, %d disagreements", model, sg.N, sg.Kappa.Kappa, len(sg.Disagreements))
		if len(sg.Disagreements) != 0 {
			t.Errorf("%s: %d disagreements outside fuzzy matches: %+v", model, len(sg.Disagreements), sg.Disagreements)
		}
	}
}
