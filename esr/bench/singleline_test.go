package bench_test

import (
	"errors"
	"maps"
	"slices"
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
// control character other than a tab or a line break (an escape, NUL, DEL,
// NEL) is an error naming file, line and field, and so is a tab or a line
// break in an id.
func TestAtomTextWithControlCharacterIsRefused(t *testing.T) {
	cases := []struct{ field, value, want string }{
		{"value", `"1.0\u001b[31m"`, `field "atoms[0].value": holds control character U+001B`},
		{"value", `"v\u0000"`, `field "atoms[0].value": contains a NUL byte`},
		{"value", `"a\u0085b"`, `field "atoms[0].value": holds control character U+0085`},
		{"value", `"a\n\u000bb"`, `field "atoms[0].value": holds control character U+000B`},
		{"entity", `"x\u0007"`, `field "atoms[0].entity": holds control character U+0007`},
		{"atom_id", `"a\u007f"`, `field "atoms[0].atom_id": holds control character U+007F`},
		{"atom_id", `"a\n1"`, `field "atoms[0].atom_id": holds control character U+000A`},
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

// A real value with a line break or a tab (quoted from a multi-line
// comment) loads: each tab and each line break (CR LF, LF, CR) becomes one
// space, counted once per file with the first line and field, so a render
// can never show the value on two lines.
func TestValueWithLineBreakLoadsFoldedAndCounted(t *testing.T) {
	atoms := strings.Replace(atomLine("value", `"60 s\n2099-01-01 | e9 | 99 s | LIVE"`), `}]}`,
		`},{"atom_id":"a2","event_id":"e2","entity":"x","attribute":"y\tz","value":"a\r\nb\rc","polarity":"+","confidence":1}]}`, 1)
	atoms += "\n" + strings.Replace(strings.Replace(atomLine("value", `"w\tv"`), `"s1"`, `"s2"`, 1), `"a1"`, `"b1"`, 1)
	streams := goodStream + "\n" + strings.Replace(goodStream, `"s1"`, `"s2"`, 1)
	b, err := bench.Load(writeFiles(t, ptr(streams), ptr(atoms), ptr(xyQA)))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	got := map[string]string{}
	for _, sid := range []string{"s1", "s2"} {
		for _, a := range b.Atoms[sid] {
			got[a.ID] = a.Attribute + "=" + a.Value
		}
	}
	want := map[string]string{"a1": "y=60 s 2099-01-01 | e9 | 99 s | LIVE", "a2": "y z=a b c", "b1": "y=w v"}
	if !maps.Equal(got, want) {
		t.Errorf("atoms = %q, want %q", got, want)
	}
	wantFolds := []bench.Fold{{File: "atoms.jsonl", Fields: 4, Line: 1, Field: "atoms[0].value"}}
	if !slices.Equal(b.Folds, wantFolds) {
		t.Errorf("Folds = %+v, want %+v", b.Folds, wantFolds)
	}
	n := b.Notices()
	if len(n) != 1 || n[0] != `atoms.jsonl: 4 fields held a tab or a line break, folded to a space (first: line 1, field "atoms[0].value")` {
		t.Errorf("Notices = %q", n)
	}
	// A snapshot keeps the count.
	snaps := t.TempDir()
	dir := writeFiles(t, ptr(streams), ptr(atoms), ptr(xyQA))
	for range 2 {
		s, err := bench.LoadWith(dir, bench.LoadOptions{Snapshots: snaps})
		if err != nil || !slices.Equal(s.Folds, wantFolds) {
			t.Errorf("with snapshots: %v, Folds %+v", err, s.Folds)
		}
	}
}

// A qid is single-line text (rows join their identity with NUL): a NUL, a
// line break or any other control character in it is an error naming the
// QA's line and field.
func TestQIDWithControlCharacterIsRefused(t *testing.T) {
	for _, qid := range []string{`"q\u0000"`, `"q\n1"`, `"q\r"`, `"q\t1"`, `"\u001b[2Jq"`} {
		qa := strings.Replace(xyQA, `"qid":"q1"`, `"qid":`+qid, 1)
		_, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(atomLine("", "")), ptr(goodQA+"\n"+qa)))
		var le *bench.LineError
		if !errors.As(err, &le) || le.File != "qa.jsonl" || le.Line != 2 || le.Field != "qid" || !strings.Contains(err.Error(), "control character") {
			t.Errorf("qid %s: error %v, want qa.jsonl:2 field qid", qid, err)
		}
	}
}

// An atom's confidence is a probability: outside [0, 1] it is an error
// naming file, line and field; 0 and 1 load.
func TestAtomConfidenceOutsideUnitIntervalIsRefused(t *testing.T) {
	for _, c := range []string{"-5", "1.5", "-0.001"} {
		_, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(atomLine("confidence", c)), ptr(xyQA)))
		var le *bench.LineError
		if !errors.As(err, &le) || le.Field != "atoms[0].confidence" || !strings.Contains(err.Error(), "outside [0, 1]") {
			t.Errorf("confidence %s: error %v, want field atoms[0].confidence", c, err)
		}
	}
	for _, c := range []string{"0", "1", "0.5"} {
		if _, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(atomLine("confidence", c)), ptr(xyQA))); err != nil {
			t.Errorf("confidence %s: %v", c, err)
		}
	}
}

// modality has one vocabulary (esr.Modalities): the reference pipeline's
// "text", and "assert", "hedge", "recall"; absent is an assertion. Any
// other value is an error naming file, line and field.
func TestAtomModalityOutsideVocabularyIsRefused(t *testing.T) {
	for _, m := range []string{"text", "assert", "hedge", "recall"} {
		line := strings.Replace(atomLine("", ""), `"confidence":1`, `"confidence":1,"modality":"`+m+`"`, 1)
		if _, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(line), ptr(xyQA))); err != nil {
			t.Errorf("modality %q: %v", m, err)
		}
	}
	for _, m := range []string{"Text", "speculation", " assert"} {
		line := strings.Replace(atomLine("", ""), `"confidence":1`, `"confidence":1,"modality":"`+m+`"`, 1)
		_, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(line), ptr(xyQA)))
		var le *bench.LineError
		if !errors.As(err, &le) || le.Line != 1 || le.Field != "atoms[0].modality" || !strings.Contains(err.Error(), "text, assert, hedge, recall") {
			t.Errorf("modality %q: error %v, want atoms.jsonl:1 field atoms[0].modality naming the vocabulary", m, err)
		}
	}
}
