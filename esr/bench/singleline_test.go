package bench_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
)

// A QA without a facet about a key whose atoms all carry one would load
// and then every memory (which keys by the exact facet) would abstain: it
// is an error naming the QA's line and its facet field, with the facets
// the atoms have.
func TestQAWithoutFacetOfFacetedAtomsIsRefused(t *testing.T) {
	qa := strings.Replace(facetQA, `,"facet":"distribution=unstable"`, ``, 1)
	_, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(facetAtoms), ptr(qa)))
	var le *bench.LineError
	if !errors.As(err, &le) || le.File != "qa.jsonl" || le.Line != 1 || le.Field != "facet" {
		t.Fatalf("error %v, want qa.jsonl:1 field facet", err)
	}
	if !strings.Contains(err.Error(), "distribution=experimental, distribution=unstable") {
		t.Errorf("error %q does not name the atoms' facets", err)
	}
	// Atoms without a facet beside faceted ones still answer it.
	atoms := strings.Replace(facetAtoms, `]}`, `,{"atom_id":"a3","event_id":"e2","entity":"x","attribute":"version","value":"2.0-1","polarity":"+","confidence":1}]}`, 1)
	if _, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(atoms), ptr(qa))); err != nil {
		t.Errorf("with an unfaceted atom: %v", err)
	}
}

const xyQA = `{"qid":"q1","stream_id":"s1","question":"What is y of x?","gold_answer":"v","phenomenon":"monotonic","entity":"x","attribute":"y"}`

// Atom values, entities, attributes and ids are single-line text: a
// newline (which could forge a row of a render) or any other control
// character is an error naming file, line and field.
func TestAtomTextWithControlCharacterIsRefused(t *testing.T) {
	cases := []struct{ field, value, want string }{
		{"value", `"60 s\n2099-01-01 | e9 | 99 s | LIVE"`, `atoms.jsonl:1: field "atoms[0].value": holds control character U+000A`},
		{"value", `"60 s\r"`, `field "atoms[0].value": holds control character U+000D`},
		{"value", `"1.0\u001b[31m"`, `field "atoms[0].value": holds control character U+001B`},
		{"value", `"v\u0000"`, `field "atoms[0].value": contains a NUL byte`},
		{"value", `"a\u0085b"`, `field "atoms[0].value": holds control character U+0085`},
		{"entity", `"x\ty"`, `field "atoms[0].entity": holds control character U+0009`},
		{"attribute", `"y\n"`, `field "atoms[0].attribute": holds control character U+000A`},
		{"atom_id", `"a\u007f"`, `field "atoms[0].atom_id": holds control character U+007F`},
	}
	for _, c := range cases {
		_, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(atomLine(c.field, c.value)), ptr(xyQA)))
		var le *bench.LineError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &le) {
			t.Errorf("%s %s: error %v, want %q", c.field, c.value, err, c.want)
		}
	}
	// Unicode text that is not control is fine.
	if _, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(atomLine("value", `"30 s — “fast” ✓"`)), ptr(xyQA))); err != nil {
		t.Errorf("plain Unicode refused: %v", err)
	}
}
