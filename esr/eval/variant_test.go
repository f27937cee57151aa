package eval_test

import (
	"encoding/json"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
)

func TestParseVariant(t *testing.T) {
	for s, want := range map[string]eval.Variant{
		"":                                    {},
		"format=verbose":                      eval.FormatVariant("verbose"),
		"wording=terse":                       eval.WordingVariant("terse"),
		"relation-noise p=0.3":                eval.NoiseVariant("relation-noise", 0.3),
		"atom-dropout p=1.0":                  eval.NoiseVariant("atom-dropout", 1),
		"state-only":                          eval.LabelVariant("state-only"),
		"format=":                             eval.LabelVariant("format="),
		"relation-noise p=0.30":               eval.LabelVariant("relation-noise p=0.30"), // not as String writes a level
		"two words p=0.3":                     eval.LabelVariant("two words p=0.3"),
		"format=json; relation-noise p=0.2":   {Format: "json", Noise: eval.Noise{Kind: "relation-noise", P: 0.2}},
		"wording=terse; relation-noise p=0.2": {Wording: "terse", Noise: eval.Noise{Kind: "relation-noise", P: 0.2}},
		"state-only; relation-noise p=0.2":    {Label: "state-only", Noise: eval.Noise{Kind: "relation-noise", P: 0.2}},
		"x p=0.1; relation-noise p=0.2":       eval.LabelVariant("x p=0.1; relation-noise p=0.2"), // two noise levels
		"; relation-noise p=0.2":              eval.LabelVariant("; relation-noise p=0.2"),
	} {
		got := eval.ParseVariant(s)
		if got != want || got.String() != s {
			t.Errorf("ParseVariant(%q) = %+v (%q), want %+v", s, got, got.String(), want)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("ParseVariant(%q): %v", s, err)
		}
	}
	// Noise levels compare at the decimal the string form keeps.
	if !eval.NoiseVariant("relation-noise", 0.1+0.2).Equal(eval.ParseVariant("relation-noise p=0.3")) {
		t.Error("0.1+0.2 and 0.3 are different noise levels")
	}
	if eval.NoiseVariant("relation-noise", 0.3).Equal(eval.NoiseVariant("atom-dropout", 0.3)) {
		t.Error("two noise kinds are equal")
	}
	if eval.LabelVariant("x").Validate() != nil || eval.LabelVariant("format=x").Validate() == nil ||
		(eval.Variant{Format: "a", Wording: "b"}).Validate() == nil || eval.LabelVariant("x; relation-noise p=0.2").Validate() == nil {
		t.Error("Validate")
	}
}

// A run's relation noise goes beside a suite's own condition: the row
// reads as both, matches neither alone, and a condition that already
// carries a noise level takes no second one.
func TestVariantBesideNoise(t *testing.T) {
	n := eval.Noise{Kind: "relation-noise", P: 0.2}
	for _, v := range []eval.Variant{{}, eval.FormatVariant("json"), eval.WordingVariant("terse"), eval.LabelVariant("state-only")} {
		b, err := v.Beside(n)
		if err != nil || b.Noise != n || !eval.ParseVariant(b.String()).Equal(b) || b.Equal(v) || b.Equal(eval.NoiseVariant(n.Kind, n.P)) != v.IsZero() {
			t.Errorf("%q beside %v = %q (%v)", v, n, b, err)
		}
	}
	if _, err := eval.NoiseVariant("atom-dropout", 0.1).Beside(n); err == nil {
		t.Error("a noise level beside a noise level")
	}
}

// A Variant field encodes as the condition string rows carry.
func TestVariantJSON(t *testing.T) {
	type row struct {
		C eval.Variant `json:"condition,omitempty"`
	}
	b, err := json.Marshal(row{eval.NoiseVariant("atom-dropout", 0.2)})
	if err != nil || string(b) != `{"condition":"atom-dropout p=0.2"}` {
		t.Fatalf("%s, %v", b, err)
	}
	var r row
	if err := json.Unmarshal(b, &r); err != nil || !r.C.Equal(eval.NoiseVariant("atom-dropout", 0.2)) {
		t.Fatalf("%+v, %v", r, err)
	}
}

func TestVariantsFilter(t *testing.T) {
	rows := []eval.Outcome{{QID: "a", Variant: eval.ParseVariant("relation-noise p=0.3")}, {QID: "b", Variant: eval.ParseVariant("format=json")}, {QID: "c"}}
	got := eval.Select(rows, eval.Variants(eval.NoiseVariant("relation-noise", 0.30000000000000004), eval.FormatVariant("json")))
	if len(got) != 2 || got[0].QID != "a" || got[1].QID != "b" {
		t.Errorf("Variants kept %+v", got)
	}
	if got := eval.Select(rows, eval.Variants(eval.Variant{})); len(got) != 1 || got[0].QID != "c" {
		t.Errorf("the main condition kept %+v", got)
	}
}

// FuzzParseVariant: every string reads as a variant whose String is that
// string; every valid variant's String reads back as it.
func FuzzParseVariant(f *testing.F) {
	for _, s := range []string{"", "format=json", "wording=verbose (main)", "relation-noise p=0.3", "x p=NaN", "x p=-0.0", "state-only",
		"format=json; relation-noise p=0.2", "a; b p=0.1; c p=0.2", "x p=0.1; y p=0.2"} {
		f.Add(s, 0.25)
	}
	f.Fuzz(func(t *testing.T, s string, p float64) {
		v := eval.ParseVariant(s)
		if v.String() != s {
			t.Fatalf("ParseVariant(%q).String() = %q", s, v.String())
		}
		if err := v.Validate(); err != nil {
			t.Fatalf("ParseVariant(%q) = %+v: %v", s, v, err)
		}
		for _, w := range []eval.Variant{eval.FormatVariant(s), eval.WordingVariant(s), eval.NoiseVariant(s, p), eval.LabelVariant(s)} {
			if w.Validate() != nil {
				continue
			}
			if got := eval.ParseVariant(w.String()); !got.Equal(w) {
				t.Fatalf("valid %+v writes %q, which reads as %+v", w, w.String(), got)
			}
		}
	})
}
