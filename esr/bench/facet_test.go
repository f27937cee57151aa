package bench_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
)

// facetAtoms is a stream's atoms row: one version atom per suite.
const facetAtoms = `{"stream_id":"s1","atoms":[` +
	`{"atom_id":"a1","event_id":"e1","entity":"x","attribute":"version","value":"1.0-1","polarity":"+","confidence":1,"facet":"distribution=unstable"},` +
	`{"atom_id":"a2","event_id":"e2","entity":"x","attribute":"version","value":"2.0-1","polarity":"+","confidence":1,"facet":"distribution=experimental"}]}`

const facetQA = `{"qid":"q1","stream_id":"s1","question":"What is the version of x in unstable?","gold_answer":"1.0-1","phenomenon":"monotonic","entity":"x","attribute":"version","facet":"distribution=unstable"}`

// Facets are optional: atoms and QAs that carry one load with it, and a
// malformed facet or a QA about a facet no atom has is an error naming the
// file, the line and the field.
func TestFacets(t *testing.T) {
	b, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(facetAtoms), ptr(facetQA)))
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Atoms["s1"][1].Facet; got != "distribution=experimental" {
		t.Errorf("atom facet %q", got)
	}
	if got := b.QAs[0].Facet; got != "distribution=unstable" {
		t.Errorf("QA facet %q", got)
	}
	cases := []struct {
		name, atoms, qa, want string
	}{
		{"atom facet without =", strings.Replace(facetAtoms, `"distribution=experimental"`, `"experimental"`, 1), facetQA,
			`atoms.jsonl:1: field "atoms[1].facet": facet "experimental" is not NAME=VALUE`},
		{"atom facet with an empty value", strings.Replace(facetAtoms, `"distribution=unstable"`, `"distribution="`, 1), facetQA,
			`atoms.jsonl:1: field "atoms[0].facet": facet "distribution=" has no value`},
		{"atom facet name in capitals", strings.Replace(facetAtoms, `"distribution=unstable"`, `"Suite=unstable"`, 1), facetQA,
			`atoms.jsonl:1: field "atoms[0].facet": facet "Suite=unstable": name "Suite" holds 'S'`},
		{"QA facet malformed", facetAtoms, strings.Replace(facetQA, `"distribution=unstable"`, `"=unstable"`, 1),
			`qa.jsonl:1: field "facet": facet "=unstable" has no name`},
		{"QA about a facet no atom has", facetAtoms, strings.Replace(facetQA, `"distribution=unstable"`, `"distribution=bookworm"`, 1),
			`qa.jsonl:1: field "facet": stream "s1" has no atom about the key (x / version) with facet "distribution=bookworm"`},
		{"facet not a string", strings.Replace(facetAtoms, `"distribution=unstable"`, `7`, 1), facetQA,
			`atoms.jsonl:1: field "atoms[0].facet": number is not a string`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(c.atoms), ptr(c.qa)))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			var le *bench.LineError
			if !errors.As(err, &le) {
				t.Errorf("not a *LineError: %T", err)
			}
		})
	}
}

// A bench without facets writes exactly the bytes it was read from: the
// optional member never appears when empty.
func TestNoFacetWritesUnchanged(t *testing.T) {
	dir := t.TempDir()
	b := bench.Figure1Bench()
	if err := b.Save(dir); err != nil {
		t.Fatal(err)
	}
	l, err := bench.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := l.Save(out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{bench.StreamsFile, bench.AtomsFile, bench.QAFile} {
		a, b := readString(t, dir, name), readString(t, out, name)
		if a != b {
			t.Errorf("%s changed on a load and save", name)
		}
		if strings.Contains(a, `"facet"`) {
			t.Errorf("%s carries an empty facet member", name)
		}
	}
}

func readString(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
