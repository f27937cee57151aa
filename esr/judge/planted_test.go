package judge

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/benchtest"
)

func TestParaphraseRules(t *testing.T) {
	for _, c := range []struct {
		gold    string
		aliases []string
		want    string
	}{
		{"90 s", nil, "ninety seconds"},
		{"45 s", nil, "forty-five seconds"},
		{"1 min", nil, "one minute"},
		{"128 MB", nil, "128 megabytes"},
		{"1.5 GB", nil, "1.5 gigabytes"},
		{"69,183 km2", nil, "69,183 square kilometres"},
		{"50%", nil, "fifty percent"},
		{"21.1 million", nil, "21,100,000"},
		{"$668 billion", nil, "$668,000,000,000"},
		{"7", nil, "seven"},
		{"2015-02-03", nil, "3 February 2015"},
		{"2015-02", nil, "February 2015"},
		{"Helga Nakamura", []string{"helga nakamura", "Nakamura"}, "Nakamura"}, // an alias that differs beyond case
		{"critical", nil, ""},
		{"UTC+8", nil, ""},
	} {
		got, how, ok := paraphraseOf(c.gold, c.aliases)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%q: %q (%s), want %q", c.gold, got, how, c.want)
		}
	}
}

func TestPlantAnswersBundled(t *testing.T) {
	b := benchtest.Data(t, "synthetic")
	panels := PlantAnswers(b)
	counts := map[Kind]int{}
	for _, p := range panels {
		qa := p.QA
		if qa.Type() != esr.Snapshot || qa.GoldAbstain() {
			t.Fatalf("%s: planted for a %s question with gold %q", p.QID, qa.Type(), qa.GoldAnswer)
		}
		byKind := map[Kind]string{}
		for _, a := range p.Answers {
			counts[a.Kind]++
			byKind[a.Kind] = a.Answer.Value
		}
		for _, k := range []Kind{KindGold, KindHedge, kindAbstain, KindIncorrect, kindNegated} {
			if _, ok := byKind[k]; !ok {
				t.Errorf("%s: no %s answer", p.QID, k)
			}
		}
		if old, ok := byKind[KindOutdated]; ok {
			if esr.StateOf(old, esr.Positive) == esr.StateOf(qa.GoldAnswer, esr.Positive) {
				t.Errorf("%s: outdated %q is the gold", p.QID, old)
			}
			if byKind[KindWasNow] != "was "+old+", now "+qa.GoldAnswer {
				t.Errorf("%s: was-now %q", p.QID, byKind[KindWasNow])
			}
		}
		if u, ok := byKind[KindUnrelated]; ok {
			for _, a := range b.Atoms[qa.StreamID] {
				if a.Entity == qa.Entity && a.Attribute == qa.Attribute && esr.StateOf(a.Value, a.Polarity) == esr.StateOf(u, esr.Positive) {
					t.Errorf("%s: unrelated %q is a value of the key", p.QID, u)
				}
			}
			if strings.Contains(strings.ToLower(u), strings.ToLower(qa.GoldAnswer)) {
				t.Errorf("%s: unrelated %q contains the gold", p.QID, u)
			}
		}
	}
	// One panel per snapshot QA with a value as gold; every reverted revert and monotonic revision
	// has a prior value.
	snapshots := 0
	for _, qa := range b.QAs {
		if qa.Type() == esr.Snapshot && !qa.GoldAbstain() {
			snapshots++
		}
	}
	if len(panels) != snapshots || counts[KindOutdated] < 1000 || counts[KindUnrelated] < 1800 || counts[KindParaphrase] < 700 {
		t.Errorf("%d panels, kinds %v", len(panels), counts)
	}
	// Deterministic: the same bench plants the same answers.
	again := PlantAnswers(b)
	for i := range panels {
		for k := range panels[i].Answers {
			if panels[i].Answers[k] != again[i].Answers[k] {
				t.Fatalf("%s: planted %v then %v", panels[i].QID, panels[i].Answers[k], again[i].Answers[k])
			}
		}
	}
}
