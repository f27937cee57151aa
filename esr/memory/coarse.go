package memory

import (
	"github.com/esrkit/esrkit/internal/layout"

	"strings"

	"github.com/esrkit/esrkit/esr"
)

// edge is one fact of a coarse store: an atom (by index into the stream's
// atoms) with its validity window, closed by another edge's atom. Indices
// rather than pointers keep edges free of pointers, which the garbage
// collector does not scan.
type edge struct {
	atom     int32 // index into coarseState.atoms
	closedBy int32 // atom index of the closing edge, -1 while live
}

// coarseKey holds one key's edges in transaction order.
type coarseKey struct {
	key   esr.Key
	edges []edge
}

// add applies Graphiti's invalidation rule under the binary alphabet (spec
// §3): SAME_STATE, REFINES, SUPERSEDES and CONTRADICTS collapse onto one
// decision, "closes the older edge" or not, and UNRELATED is dropped. Every
// live edge the new atom invalidates (REFINES, SUPERSEDES or CONTRADICTS)
// gets invalid_at = the new atom's valid time. An atom UNRELATED to every
// live edge (a hedge, a recollection of an old value, another facet) opens
// no edge and closes none, exactly as ⊕ sets it aside. There is no
// unresolved status. It reports whether the atom opened an edge.
func (c *coarseKey) add(atoms []esr.Atom, i int, rel esr.PairFunc) bool {
	a := &atoms[i]
	related, anyLive := false, false
	for k := range c.edges {
		e := &c.edges[k]
		if e.closedBy >= 0 {
			continue
		}
		anyLive = true
		r := rel(&atoms[e.atom], a)
		if r != esr.Unrelated {
			related = true
		}
		if r.Invalidates() {
			e.closedBy = int32(i)
		}
	}
	if anyLive && !related {
		return false
	}
	c.edges = append(c.edges, edge{atom: int32(i), closedBy: -1})
	return true
}

// live lists the atoms of the key's live edges in transaction order. Which
// edges are live is decided by invalidation alone, so the current value is
// not simply the newest atom: a set-aside atom opens no edge, and an older
// edge stays live until something relevant closes it.
func (c *coarseKey) live(atoms []esr.Atom) []*esr.Atom {
	var out []*esr.Atom
	for k := range c.edges {
		if c.edges[k].closedBy < 0 {
			out = append(out, &atoms[c.edges[k].atom])
		}
	}
	return out
}

// current is the position (in edges) of the newest live edge, or -1. Live
// edges disagree when the relation source calls two different values
// SAME_STATE (noise, or the mechanism switched off) or leaves one
// UNRELATED; the read-out then abstains (the one d-blind rule, readout.go),
// and current only names the edge whose surface form a single value takes.
func (c *coarseKey) current() int {
	for k := len(c.edges) - 1; k >= 0; k-- {
		if c.edges[k].closedBy < 0 {
			return k
		}
	}
	return -1
}

// prior is the position of the most recently closed edge whose state
// differs from the current value, or -1.
func (c *coarseKey) prior(atoms []esr.Atom) int {
	cur := c.current()
	if cur < 0 {
		return -1
	}
	curState := atoms[c.edges[cur].atom].State()
	best := -1
	for k := range c.edges {
		e := &c.edges[k]
		if e.closedBy < 0 || atoms[e.atom].State() == curState {
			continue
		}
		if best < 0 || e.closedBy > c.edges[best].closedBy || e.closedBy == c.edges[best].closedBy && k > best {
			best = k
		}
	}
	return best
}

// coarseState is coarse-retain (closed edges kept with their windows, as
// Graphiti/Zep does) or coarse-discard (closed edges dropped).
type coarseState struct {
	rendered renderOnce // Render ignores the query: built once
	name     string
	stream   *esr.Stream
	atoms    []esr.Atom
	retain   bool
	keys     []*coarseKey
}

// key returns the key's edges or nil (a linear scan: streams have few keys).
func (c *coarseState) key(k esr.Key) *coarseKey {
	for _, ck := range c.keys {
		if ck.key == k {
			return ck
		}
	}
	return nil
}

// buildCoarseDiscard builds coarse-discard.
func buildCoarseDiscard(_ Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	return newCoarseState(name, s, atoms, opt.relator(), false), nil
}

// buildCoarseRetain builds coarse-retain.
func buildCoarseRetain(_ Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	return newCoarseState(name, s, atoms, opt.relator(), true), nil
}

func newCoarseState(name string, s *esr.Stream, atoms []esr.Atom, r esr.Relator, retain bool) *coarseState {
	rel := r.ForStream(s, atoms)
	c := &coarseState{name: name, stream: s, atoms: atoms, retain: retain}
	// Give each key's edges a slice of one stream-wide arena, sized by a
	// first counting pass: a few allocations per stream, none per atom.
	keyOf := make([]int32, len(atoms))
	var counts []int
	for i := range atoms {
		k := atoms[i].Key()
		j := c.keyIndex(k)
		if j < 0 {
			c.keys = append(c.keys, &coarseKey{key: k})
			counts = append(counts, 0)
			j = len(c.keys) - 1
		}
		keyOf[i] = int32(j)
		counts[j]++
	}
	arena := make([]edge, len(atoms))
	off := 0
	for j, ck := range c.keys {
		ck.edges = arena[off : off : off+counts[j]]
		off += counts[j]
	}
	for i := range atoms {
		c.keys[keyOf[i]].add(atoms, i, rel)
	}
	return c
}

// keyIndex is the position of k in c.keys, or -1.
func (c *coarseState) keyIndex(k esr.Key) int {
	for j, ck := range c.keys {
		if ck.key == k {
			return j
		}
	}
	return -1
}

func (c *coarseState) Class() string    { return c.name }
func (c *coarseState) MayAbstain() bool { return true }

// Answer: snapshot is the value of the live edges when they agree, ABSTAIN
// when several distinct values are live (the one d-blind rule: a coarse store
// has no unresolved status, but its read-out never picks among live values
// by recency); provenance (retain only) is the most recently closed edge
// with another value, when the live edges agree; relation type is
// "replaces" whenever such a prior value was retained, because binary
// invalidation cannot tell a refinement from a replacement.
func (c *coarseState) Answer(q esr.Query) esr.Answer {
	ck := c.key(q.Key)
	if ck == nil {
		return esr.Abstain
	}
	live := ck.live(c.atoms)
	switch q.Type {
	case esr.Provenance, esr.RelationType:
		if !c.retain || !liveAgree(live) {
			return esr.Abstain
		}
		p := ck.prior(c.atoms)
		if p < 0 {
			return esr.Abstain
		}
		if q.Type == esr.RelationType {
			return esr.Says(esr.AnswerReplaces)
		}
		return esr.Says(c.atoms[ck.edges[p].atom].Display())
	}
	return liveValue(live)
}

// graphitiFact is one rendered fact in Graphiti's JSON shape.
type graphitiFact struct {
	Fact, ValidAt, InvalidAt string
}

// json writes f as {layout.JSONFact, layout.JSONValidAt, layout.JSONInvalidAt}.
func (f graphitiFact) json() []byte {
	return layout.JSONObject(layout.Field{Key: layout.JSONFact, Value: f.Fact}, layout.Field{Key: layout.JSONValidAt, Value: f.ValidAt}, layout.Field{Key: layout.JSONInvalidAt, Value: f.InvalidAt})
}

// Render lists the kept facts as Graphiti-style JSON objects
// {fact, valid_at, invalid_at or "present"}, one per line, in an order that
// carries no time information (see unordered).
func (c *coarseState) Render(esr.Query) string { return c.rendered.get(c.render) }

// render builds Render's string (once per state).
func (c *coarseState) render() string {
	var facts []graphitiFact
	var ids []string
	for _, ck := range c.keys {
		for _, e := range ck.edges {
			if e.closedBy >= 0 && !c.retain {
				continue
			}
			a := &c.atoms[e.atom]
			f := graphitiFact{
				Fact:      ck.key.Entity + " " + ck.key.AttributeLabel() + " is " + a.Display(),
				ValidAt:   layout.Stamp(a.Timestamp),
				InvalidAt: layout.OpenPresent,
			}
			if e.closedBy >= 0 {
				f.InvalidAt = layout.Stamp(c.atoms[e.closedBy].Timestamp)
			}
			facts = append(facts, f)
			ids = append(ids, a.ID)
		}
	}
	var b strings.Builder
	b.WriteString("[")
	for n, i := range layout.Unordered(ids) {
		if n > 0 {
			b.WriteString(",\n ")
		}
		b.Write(facts[i].json())
	}
	b.WriteString("]\n")
	return b.String()
}

func (c *coarseState) Rows() []Row {
	rows := make([]Row, 0, len(c.keys))
	for _, ck := range c.keys {
		r := Row{StreamID: c.stream.ID, Entity: ck.key.Entity, Attribute: ck.key.Attribute, Facet: ck.key.Facet,
			Status: esr.KeyStatusOK, Current: []string{}, Support: []string{}, Deprecated: []string{},
			History: []esr.HistoryEntry{}}
		seen := map[string]bool{}
		live := ck.live(c.atoms)
		for k := len(live) - 1; k >= 0; k-- { // newest first, as the ledger lists them
			if a := live[k]; !seen[a.State()] {
				seen[a.State()] = true
				r.Current = append(r.Current, a.Display())
			}
		}
		if len(live) > 0 {
			r.ValidSince = live[len(live)-1].Timestamp
		}
		if len(r.Current) > 1 {
			r.Status = esr.KeyStatusUnresolved
		}
		for _, e := range ck.edges {
			a := &c.atoms[e.atom]
			switch {
			case e.closedBy < 0:
				r.Support = append(r.Support, a.ID)
			case c.retain:
				r.Deprecated = append(r.Deprecated, a.ID)
			}
			if c.retain {
				h := esr.HistoryEntry{Value: a.Display(), ValidAt: a.Timestamp}
				if e.closedBy >= 0 {
					h.InvalidAt = c.atoms[e.closedBy].Timestamp
				}
				r.History = append(r.History, h)
			}
		}
		rows = append(rows, r)
	}
	return rows
}
