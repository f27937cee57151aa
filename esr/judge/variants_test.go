package judge

import (
	"context"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/llm"
)

func TestExactVariants(t *testing.T) {
	ctx := context.Background()
	qa := &esr.QA{GoldAnswer: "30 s"}
	named := &esr.QA{GoldAnswer: "Helga Nakamura", Aliases: []string{"Nakamura"}}
	for _, c := range []struct {
		qa                     *esr.QA
		answer                 string
		exact, lenient, strict bool
	}{
		{qa, "30 s", true, true, true},
		{qa, "thirty seconds", true, true, true},
		{qa, "The timeout is 30 s.", true, true, false},
		{qa, "probably 30 s", true, true, false},
		{qa, "was 60 s, now 30 s", false, true, false},
		{qa, "30 s (previously 60 s)", false, true, false},
		{qa, "30 s or 60 s", false, true, false},
		{qa, "not 30 s", false, false, false},
		{qa, "60 s", false, false, false},
		{qa, "INCORRECT", false, false, false},
		{qa, "ABSTAIN", false, false, false},
		{named, "not Helga Nakamura", false, false, false}, // the alias inside the denied gold denies too
		{named, "Nakamura", true, true, true},
		{&esr.QA{GoldAnswer: "replaces"}, "it refines and replaces", false, false, false}, // relation golds as in Exact
	} {
		a := esr.Says(c.answer)
		for _, j := range []struct {
			j    Judge
			want bool
		}{{Exact{}, c.exact}, {ExactLenient{}, c.lenient}, {ExactStrict{}, c.strict}} {
			v, _ := j.j.Judge(ctx, c.qa, a)
			if v.Correct != j.want {
				t.Errorf("%s on %q (gold %q): %v, want %v (rule %s)", j.j.Name(), c.answer, c.qa.GoldAnswer, v.Correct, j.want, v.Rule)
			}
		}
	}
}

// On DyKnow's real model answers the variants nest: whatever the strict
// judge accepts the exact judge accepts, and whatever the exact judge
// accepts the lenient one does.
func TestExactVariantsNest(t *testing.T) {
	items, err := readLabeled(dyknowSample)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	more := 0
	for _, it := range items {
		qa := &esr.QA{GoldAnswer: it.Gold, Aliases: it.Aliases}
		a := llm.ParseAnswer(it.Raw)
		s, _ := ExactStrict{}.Judge(ctx, qa, a)
		e, _ := Exact{}.Judge(ctx, qa, a)
		l, _ := ExactLenient{}.Judge(ctx, qa, a)
		if s.Correct && !e.Correct || e.Correct && !l.Correct {
			t.Errorf("%q vs %q: strict %v, exact %v, lenient %v", it.Raw, it.Gold, s.Correct, e.Correct, l.Correct)
		}
		if l.Correct && !e.Correct {
			more++
		}
	}
	t.Logf("%d of %d DyKnow answers accepted by exact-lenient only", more, len(items))
}
