package memory_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

// valueRelator labels a co-keyed pair SUPERSEDES when the later atom holds
// another value, SAME_STATE when the same: a relation that depends on the
// pair alone, so a stream and its one-facet part get the same labels.
type valueRelator struct{}

func (valueRelator) Name() string { return "value" }
func (valueRelator) ForStream(*esr.Stream, []esr.Atom) esr.PairFunc {
	return func(a, b *esr.Atom) esr.Relation {
		if a.State() == b.State() {
			return esr.SameState
		}
		return esr.Supersedes
	}
}

// facetStream is a random stream on one key whose atoms carry one of
// facets, with values from a small set (so values return: reverted reverts
// within a facet and across facets).
func facetStream(r *rand.Rand, id string, facets []string) (*esr.Stream, []esr.Atom) {
	k := esr.Key{Entity: "pkg", Attribute: "version"}
	n := 3 + r.IntN(8)
	var evs []bench.Event
	for i := 0; i < n; i++ {
		v := fmt.Sprintf("1.%d", r.IntN(3))
		evs = append(evs, bench.Event{ID: fmt.Sprintf("e%d", i+1), Date: fmt.Sprintf("2024-%02d-%02d", 1+i/28, 1+i%28),
			Value: v, Text: "Upload " + v + "."})
	}
	s, atoms := bench.Build(id, k, evs)
	for i := range atoms {
		atoms[i].Facet = facets[r.IntN(len(facets))]
	}
	return s, atoms
}

// TestFacetedLedgerIsPerFacet: a faceted key reduces to single-valued keys,
// one per facet. On 300 random streams whose atoms carry one of three
// facets, every keyed class built over the whole stream answers a question
// about facet f (snapshot and provenance, structured read-out) exactly as
// the same class built over facet f's atoms alone, on a key without a
// facet; so P1/P2, stated for a single-valued key, hold per facet. The raw
// text classes keep no keys and are left out.
func TestFacetedLedgerIsPerFacet(t *testing.T) {
	facets := []string{"distribution=unstable", "distribution=experimental", "distribution=bookworm"}
	classes := []memory.Class{memory.FineLedger, memory.RenderOnly, memory.CoarseRetain, memory.CoarseDiscard, memory.GraphRAGAbstain,
		memory.GraphRAGLite, memory.LatestOnly}
	r := rand.New(rand.NewPCG(7, 32))
	opt := memory.Options{Relator: valueRelator{}}
	n := 0
	for i := 0; i < 300; i++ {
		s, atoms := facetStream(r, fmt.Sprintf("s%d", i), facets)
		for _, f := range facets {
			var part []esr.Atom
			for _, a := range atoms {
				if a.Facet == f {
					a.Facet = ""
					part = append(part, a)
				}
			}
			if len(part) == 0 {
				continue
			}
			for _, c := range classes {
				whole := memory.MustBuild(memory.SpecOf(c), s, append([]esr.Atom(nil), atoms...), opt)
				alone := memory.MustBuild(memory.SpecOf(c), s, part, opt)
				for _, qt := range []esr.QueryType{esr.Snapshot, esr.Provenance} {
					got := whole.Answer(esr.Query{Type: qt, Key: esr.Key{Entity: "pkg", Attribute: "version", Facet: f}})
					want := alone.Answer(esr.Query{Type: qt, Key: esr.Key{Entity: "pkg", Attribute: "version"}})
					n++
					if got != want {
						t.Fatalf("stream %d, %s, %s %s: %v over the whole stream, %v over the facet's atoms alone", i, c, qt, f, got, want)
					}
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d comparisons", n)
	}
}

// TestMergedFacetsAnswerTheLatestUpload: the single-valued baseline
// (Options.MergeFacets) answers a question about one suite with the latest
// upload to any suite, where the faceted key answers that suite's own.
func TestMergedFacetsAnswerTheLatestUpload(t *testing.T) {
	k := esr.Key{Entity: "pkg", Attribute: "version"}
	s, atoms := bench.Build("deb", k, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Value: "1.0", Text: "Upload 1.0."},
		{ID: "e2", Date: "2024-02-01", Value: "2.0~rc1", Text: "Upload 2.0~rc1."},
		{ID: "e3", Date: "2024-03-01", Value: "1.1", Text: "Upload 1.1."},
	})
	atoms[0].Facet, atoms[1].Facet, atoms[2].Facet = "distribution=unstable", "distribution=experimental", "distribution=unstable"
	q := esr.Query{Type: esr.Snapshot, Key: esr.Key{Entity: "pkg", Attribute: "version", Facet: "distribution=experimental"}}
	for _, c := range []memory.Class{memory.FineLedger, memory.CoarseRetain} {
		faceted := memory.MustBuild(memory.SpecOf(c), s, atoms, memory.Options{Relator: valueRelator{}})
		merged := memory.MustBuild(memory.SpecOf(c), s, atoms, memory.Options{Relator: valueRelator{}, MergeFacets: true})
		if got := faceted.Answer(q); got != esr.Says("2.0~rc1") {
			t.Errorf("%s, faceted: %v, want 2.0~rc1 (experimental's own upload)", c, got)
		}
		if got := merged.Answer(q); got != esr.Says("1.1") {
			t.Errorf("%s, merged facets: %v, want 1.1 (the latest upload, to unstable)", c, got)
		}
		if r := faceted.Render(q); !strings.Contains(r, "version [distribution=experimental]") || !strings.Contains(r, "version [distribution=unstable]") {
			t.Errorf("%s: the faceted render does not label each facet's key:\n%s", c, r)
		}
	}
}
