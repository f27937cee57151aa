package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
)

// longRequest is a build request for a stream of n events of long text
// with an atom each and a relation per pair of atoms, as a long real
// stream sends it.
func longRequest(n int) Request {
	s := &esr.Stream{ID: "s1", Title: "a <title> & \"quotes\"", Source: "github"}
	var atoms []esr.Atom
	var pairs []Pair
	for i := range n {
		id := fmt.Sprintf("e%d", i)
		s.Events = append(s.Events, esr.Event{ID: id, Kind: "comment", Text: strings.Repeat("Some text \u2028 with <tags> & é. ", 40)})
		atoms = append(atoms, esr.Atom{ID: fmt.Sprintf("a%d", i), EventID: id, Entity: "issue #1", Attribute: "severity", Value: fmt.Sprintf("v%d\x7f", i%3)})
		for j := range i {
			pairs = append(pairs, Pair{A: fmt.Sprintf("a%d", j), B: fmt.Sprintf("a%d", i), Relation: esr.Supersedes})
		}
	}
	return Request{Protocol: Protocol, Op: OpBuild, Stream: s, Atoms: atoms, Relations: pairs, Mechanism: true}
}

// TestFrozenRequestIsMarshal: a frozen request's line is json.Marshal of
// the request, byte for byte, for a build and for render requests made
// from it by changing the op, id and query, and with no atoms or
// relations.
func TestFrozenRequestIsMarshal(t *testing.T) {
	for _, n := range []int{0, 1, 12} {
		base := longRequest(n)
		if n == 0 {
			base.Atoms, base.Relations = []esr.Atom{}, []Pair{}
		}
		frozen := base
		if err := frozen.Freeze(); err != nil {
			t.Fatal(err)
		}
		for i, q := range []*Query{nil, {Type: esr.Snapshot, Entity: "issue #1", Attribute: "severity", Question: "What is <it> now?"}} {
			a, b := base, frozen
			a.ID, b.ID = 7+i, 7+i
			if q != nil {
				a.Op, b.Op, a.Query, b.Query = OpRender, OpRender, q, q
			}
			want, err := json.Marshal(&a)
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.encode()
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%d events, query %v: frozen line differs (%v):\n got %.300s\nwant %.300s", n, q, err, got, want)
			}
		}
	}
}

// BenchmarkRenderRequest: the line of a render request for a stream of 40
// long events, encoded whole (json.Marshal, as every request was before
// Freeze) and from the frozen state.
func BenchmarkRenderRequest(b *testing.B) {
	req := longRequest(40)
	req.Op, req.ID, req.Query = OpRender, 3, &Query{Type: esr.Snapshot, Entity: "issue #1", Attribute: "severity", Question: "Now?"}
	b.Run("marshal", func(b *testing.B) {
		for b.Loop() {
			json.Marshal(&req)
		}
	})
	frozen := req
	if err := frozen.Freeze(); err != nil {
		b.Fatal(err)
	}
	b.Run("frozen", func(b *testing.B) {
		for b.Loop() {
			frozen.encode()
		}
	})
}
