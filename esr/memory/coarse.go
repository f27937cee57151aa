package memory

import (
	"encoding/json"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// edge is one fact of a coarse store: an atom with its validity window.
type edge struct {
	atom      *esr.Atom
	validAt   esr.Time
	invalidAt esr.Time // zero while live
	closedBy  int      // index of the closing edge, -1 while live
}

// coarseKey holds one key's edges in transaction order.
type coarseKey struct {
	key   esr.Key
	edges []edge
}

// add applies Graphiti's invalidation rule: every live edge that the new atom
// invalidates (SUPERSEDES, REFINES or CONTRADICTS under the relation source,
// collapsed to one binary decision) gets invalid_at = the new atom's valid
// time. The new edge is always added live. There is no unresolved status.
func (c *coarseKey) add(a *esr.Atom, rel esr.PairFunc) {
	idx := len(c.edges)
	for i := range c.edges {
		e := &c.edges[i]
		if e.closedBy < 0 && rel(e.atom, a).Invalidates() {
			e.invalidAt, e.closedBy = a.Timestamp, idx
		}
	}
	c.edges = append(c.edges, edge{atom: a, validAt: a.Timestamp, closedBy: -1})
}

// current is the newest live edge (coarse stores answer the newest value
// where live edges disagree), or -1.
func (c *coarseKey) current() int {
	for i := len(c.edges) - 1; i >= 0; i-- {
		if c.edges[i].closedBy < 0 {
			return i
		}
	}
	return -1
}

// prior is the most recently closed edge whose state differs from the
// current value, or -1.
func (c *coarseKey) prior() int {
	cur := c.current()
	if cur < 0 {
		return -1
	}
	best := -1
	for i := range c.edges {
		e := &c.edges[i]
		if e.closedBy < 0 || e.atom.State() == c.edges[cur].atom.State() {
			continue
		}
		if best < 0 || e.closedBy > c.edges[best].closedBy || e.closedBy == c.edges[best].closedBy && i > best {
			best = i
		}
	}
	return best
}

// coarseState is coarse-retain (closed edges kept with their windows, as
// Graphiti/Zep does) or coarse-discard (closed edges dropped).
type coarseState struct {
	name   string
	stream *esr.Stream
	retain bool
	keys   []*coarseKey
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

func newCoarseState(name string, s *esr.Stream, atoms []esr.Atom, r esr.Relator, retain bool) *coarseState {
	rel := r.ForStream(s, atoms)
	c := &coarseState{name: name, stream: s, retain: retain}
	for i := range atoms {
		a := &atoms[i]
		ck := c.key(a.Key())
		if ck == nil {
			ck = &coarseKey{key: a.Key(), edges: make([]edge, 0, len(atoms)-i)}
			c.keys = append(c.keys, ck)
		}
		ck.add(a, rel)
	}
	return c
}

func (c *coarseState) Class() string    { return c.name }
func (c *coarseState) MayAbstain() bool { return true }

// Answer: snapshot is the newest live edge; provenance (retain only) is the
// most recently closed edge with another value; relation type is
// "replaces" whenever a prior value was retained, because binary
// invalidation cannot tell a refinement from a replacement.
func (c *coarseState) Answer(q esr.Query) esr.Answer {
	ck := c.key(q.Key)
	if ck == nil {
		return esr.Abstain
	}
	switch q.Type {
	case esr.Provenance, esr.RelationType:
		if !c.retain {
			return esr.Abstain
		}
		p := ck.prior()
		if p < 0 {
			return esr.Abstain
		}
		if q.Type == esr.RelationType {
			return esr.Says(esr.AnswerReplaces)
		}
		return esr.Says(ck.edges[p].atom.Display())
	}
	if cur := ck.current(); cur >= 0 {
		return esr.Says(ck.edges[cur].atom.Display())
	}
	return esr.Abstain
}

// graphitiFact is one rendered fact in Graphiti's JSON shape.
type graphitiFact struct {
	Fact      string `json:"fact"`
	ValidAt   string `json:"valid_at"`
	InvalidAt string `json:"invalid_at"`
}

// Render lists the kept facts as Graphiti-style JSON objects
// {fact, valid_at, invalid_at or "present"}, one per line, in an order that
// carries no time information (see unordered).
func (c *coarseState) Render(esr.Query) string {
	var facts []graphitiFact
	var ids []string
	for _, ck := range c.keys {
		for _, e := range ck.edges {
			if e.closedBy >= 0 && !c.retain {
				continue
			}
			f := graphitiFact{
				Fact:      ck.key.Entity + " " + ck.key.Attribute + " is " + e.atom.Display(),
				ValidAt:   stamp(e.validAt),
				InvalidAt: "present",
			}
			if e.closedBy >= 0 {
				f.InvalidAt = stamp(e.invalidAt)
			}
			facts = append(facts, f)
			ids = append(ids, e.atom.ID)
		}
	}
	var b strings.Builder
	b.WriteString("[")
	for n, i := range unordered(ids) {
		if n > 0 {
			b.WriteString(",\n ")
		}
		js, _ := json.Marshal(facts[i])
		b.Write(js)
	}
	b.WriteString("]\n")
	return b.String()
}

func (c *coarseState) Rows() []Row {
	rows := make([]Row, 0, len(c.keys))
	for _, ck := range c.keys {
		r := Row{StreamID: c.stream.ID, Entity: ck.key.Entity, Attribute: ck.key.Attribute,
			Status: "ok", Current: []string{}, Support: []string{}, Deprecated: []string{},
			History: []esr.HistoryEntry{}}
		if cur := ck.current(); cur >= 0 {
			r.Current = []string{ck.edges[cur].atom.Display()}
			r.ValidSince = ck.edges[cur].validAt
		}
		for _, e := range ck.edges {
			switch {
			case e.closedBy < 0:
				r.Support = append(r.Support, e.atom.ID)
			case c.retain:
				r.Deprecated = append(r.Deprecated, e.atom.ID)
			}
			if c.retain {
				r.History = append(r.History, esr.HistoryEntry{Value: e.atom.Display(), ValidAt: e.validAt, InvalidAt: e.invalidAt})
			}
		}
		rows = append(rows, r)
	}
	return rows
}
