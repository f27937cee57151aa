package upstream

import (
	"slices"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// Edge is one Graphiti EntityEdge (graphiti_core/edges.py): a fact between
// the key's entity node and its value node, with its validity window. The
// fact text is the text of the atom that created the edge.
type Edge struct {
	Atom      int      // atom that created the edge (fact text, valid_at)
	ValidAt   esr.Time // valid_at
	InvalidAt esr.Time // invalid_at; zero while the fact is "Present"
	ExpiredBy int      // atom whose arrival set invalid_at, -1
	Episodes  []string // episode (event) ids, the creating one first
}

func (e *Edge) addEpisode(id string) {
	if !slices.Contains(e.Episodes, id) {
		e.Episodes = append(e.Episodes, id)
	}
}

// GraphKey is one key's edges, in creation order.
type GraphKey struct {
	Key   esr.Key
	Edges []Edge
}

// IngestGraph is what Graphiti stores for a stream: its edges per key, in
// the order keys were first seen. Ingest follows resolve_extracted_edge in
// graphiti_core/utils/maintenance/edge_operations.py; esr/memory's graphiti
// classes render and read it out.
//
//   - Fast path: when an existing edge between the same two nodes has the
//     same fact text after exact normalisation (lower case, white space
//     folded; _normalize_string_exact), that edge is reused as it is: the
//     new episode is appended to its episodes, nothing is invalidated, and
//     its valid_at / invalid_at are left as they were, even when it had been
//     invalidated. An atom whose value returns after another held
//     (A → B → A) with A's old text therefore re-reaches A's old, closed
//     edge: A stays closed at B's valid_at and B stays "Present".
//   - Otherwise the LLM judges duplicates and contradictions. An atom
//     UNRELATED (by the relation source) to every live edge opens no edge
//     (as coarse-retain; an extractor would not state a hedge as a fact).
//     When dup says so, the LLM calls the fact a duplicate of an edge
//     between the same nodes (the key's first edge with the atom's value),
//     closed or not; that edge is then reused with its window as it was,
//     and the contradiction rules below run against it, which leave B
//     "Present" when the reused edge is A's closed one (the same failure as
//     the fast path: Graphiti issue #1865). Else a new edge opens.
//   - Edges the relation source says the atom REFINES, SUPERSEDES or
//     CONTRADICTS are the invalidation candidates (the LLM's
//     contradicted_facts). The resolved edge, when still open, is closed at
//     the earliest candidate valid after it; then resolve_edge_contradictions
//     closes each candidate that began before the resolved edge and whose
//     window overlaps it, at the resolved edge's valid_at.
//
// Atoms are ingested in order: texts[i] is atom i's fact text, rel the
// relation source's judgement of a pair, and dup(i) whether the LLM's
// duplicate judgement reuses an edge for atom i.
func IngestGraph(atoms []esr.Atom, texts []string, rel esr.PairFunc, dup func(i int) bool) []*GraphKey {
	g := &graph{atoms: atoms, texts: texts, dup: dup}
	byKey := map[esr.Key]*GraphKey{}
	for i := range atoms {
		k := atoms[i].Key()
		gk := byKey[k]
		if gk == nil {
			gk = &GraphKey{Key: k}
			byKey[k] = gk
			g.keys = append(g.keys, gk)
		}
		g.add(gk, i, rel)
	}
	return g.keys
}

// graph is IngestGraph's state while it ingests.
type graph struct {
	keys  []*GraphKey
	atoms []esr.Atom
	texts []string
	dup   func(i int) bool
}

// normalizeExact is Graphiti's exact-match normalisation of fact text.
func normalizeExact(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

func (g *graph) add(gk *GraphKey, i int, rel esr.PairFunc) {
	a := &g.atoms[i]
	fact := normalizeExact(g.texts[i])
	for k := range gk.Edges {
		if normalizeExact(g.texts[gk.Edges[k].Atom]) == fact {
			gk.Edges[k].addEpisode(a.EventID) // fast path: the edge unchanged
			return
		}
	}
	var candidates []int
	related, anyLive := false, false
	for k := range gk.Edges {
		e := &gk.Edges[k]
		if !e.InvalidAt.IsZero() {
			continue
		}
		anyLive = true
		r := rel(&g.atoms[e.Atom], a)
		if r != esr.Unrelated {
			related = true
		}
		if r.Invalidates() {
			candidates = append(candidates, k)
		}
	}
	if anyLive && !related {
		return
	}
	if d := g.duplicate(gk, i); d >= 0 {
		gk.Edges[d].addEpisode(a.EventID)
		g.resolve(gk, d, candidates, i)
		return
	}
	gk.Edges = append(gk.Edges, Edge{Atom: i, ValidAt: a.Timestamp, ExpiredBy: -1, Episodes: []string{a.EventID}})
	g.resolve(gk, len(gk.Edges)-1, candidates, i)
}

// duplicate is the edge the LLM duplicate judgement reuses for atom i: when
// dup(i), the key's first edge with the atom's value, closed or not; -1 when
// it judges none.
func (g *graph) duplicate(gk *GraphKey, i int) int {
	if !g.dup(i) {
		return -1
	}
	a := &g.atoms[i]
	for k := range gk.Edges {
		if g.atoms[gk.Edges[k].Atom].State() == a.State() {
			return k
		}
	}
	return -1
}

// resolve applies resolve_extracted_edge's closing rules for atom i to the
// resolved edge r and the invalidation candidates.
func (g *graph) resolve(gk *GraphKey, r int, candidates []int, i int) {
	sort.SliceStable(candidates, func(x, y int) bool {
		return gk.Edges[candidates[x]].ValidAt.Before(gk.Edges[candidates[y]].ValidAt.Time)
	})
	res := &gk.Edges[r]
	if res.InvalidAt.IsZero() { // a candidate valid after the resolved edge closes it
		for _, k := range candidates {
			if c := &gk.Edges[k]; k != r && c.ValidAt.After(res.ValidAt.Time) {
				res.InvalidAt, res.ExpiredBy = c.ValidAt, i
				break
			}
		}
	}
	for _, k := range candidates {
		c := &gk.Edges[k]
		switch {
		case k == r:
		case !c.InvalidAt.IsZero() && !c.InvalidAt.After(res.ValidAt.Time): // c ended before res began
		case !res.InvalidAt.IsZero() && !res.InvalidAt.After(c.ValidAt.Time): // res ended before c began
		case c.ValidAt.Before(res.ValidAt.Time):
			c.InvalidAt, c.ExpiredBy = res.ValidAt, i
		}
	}
}
