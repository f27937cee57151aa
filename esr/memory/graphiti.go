package memory

import (
	"slices"

	"github.com/esrkit/esrkit/internal/layout"
	"github.com/esrkit/esrkit/internal/upstream"

	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// Classes that reproduce deployed memories with their own renders (see
// graphiti.go and mem0.go). They are built-in classes but not in Names, so
// "all" keeps meaning the paper's nine; list them by name.
const (
	// Graphiti is Graphiti as deployed: its edge resolution (the exact-fact
	// fast path, then the LLM's duplicate and contradiction judgement) and
	// the context string its search hands the model, with the full history
	// of facts (closed ones with their invalid_at). Parameters: paraphrase,
	// dup, seed (deployedParams).
	Graphiti = "graphiti"
	// GraphitiCurrent is Graphiti with the current-only filter (facts whose
	// invalid_at is null).
	GraphitiCurrent = "graphiti-current"
	// Mem0V3 is Mem0 v3's add-only pipeline: contradicting memories coexist
	// (d-blind), a text equal to one of the memories retrieved for the
	// episode is deduplicated by hash. Parameters (also Mem0Update's):
	// paraphrase, dedup-k, created-at, skip, seed (deployedParams).
	Mem0V3 = "mem0-v3"
	// Mem0Update is Mem0's earlier ADD/UPDATE/DELETE pipeline: an update
	// overwrites the memory in place (discarding).
	Mem0Update = "mem0-update"
)

// DeployedNames lists the deployed-system classes.
var DeployedNames = []Class{Graphiti, GraphitiCurrent, Mem0V3, Mem0Update}

// ControlSuffix is appended to a class name to name its render-matched
// control (the same build with Options.MechanismOff), for every class but
// fine-ledger, whose control is render-only.
const ControlSuffix = "~render-only"

// buildGraphiti builds graphiti or graphiti-current under sp's parameters
// (deployedParams).
func buildGraphiti(sp Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	dp := sp.Params.deployed()
	return newGraphitiState(name, s, atoms, opt.relator(), sp.Class == GraphitiCurrent, dp, dp.seed(opt)), nil
}

// known reports whether Build resolves sp's class: a built-in or
// registered class (or its control), an exec: adapter, or graphrag-abstain
// over a kept class.
func known(sp Spec) bool {
	c := sp.Class
	switch {
	case !sp.Params.Kept.IsZero():
		return sp.Class == GraphRAGAbstain
	case sp.Class.IsExec():
		return len(c) > len(ExecPrefix)
	}
	return lookup(c) != nil
}

// graphitiState is Graphiti as deployed (class graphiti) or with its
// current-only filter (graphiti-current), under the assumptions of
// deployedParams (paraphrase, dup, seed). Each atom's fact text is the
// template or, with probability paraphrase, a paraphrase (FactVerbs);
// valid_at is the episode's time, as extract_edges' prompt asks for an
// ongoing fact. The edges come from upstream.IngestGraph (which follows
// resolve_extracted_edge); this type renders and reads them out.
//
// The render is search_results_to_context_string
// (graphiti_core/search/search_helpers.py): FACTS with valid_at and
// invalid_at ("Present" when null), ENTITIES, EPISODES.
type graphitiState struct {
	rendered    renderOnce // Render ignores the query: built once
	name        string
	stream      *esr.Stream
	atoms       []esr.Atom
	texts       []string // each atom's fact text
	currentOnly bool
	keys        []*upstream.GraphKey
}

func newGraphitiState(name string, s *esr.Stream, atoms []esr.Atom, r esr.Relator, currentOnly bool, dp deployedParams, seed uint64) *graphitiState {
	texts := factTexts(s, atoms, dp.Paraphrase, seed)
	// The LLM duplicate judgement: yes with probability dup, drawn per (seed, stream, atom).
	dup := func(i int) bool { return drawUnit(seed, s.ID, atoms[i].ID, "dup") < dp.Dup }
	keys := upstream.IngestGraph(atoms, texts, r.ForStream(s, atoms), dup)
	return &graphitiState{name: name, stream: s, atoms: atoms, texts: texts, currentOnly: currentOnly, keys: keys}
}

// KeptAtomIDs lists the atoms whose fact the graph holds: the atoms that
// created an edge, in ingest order. An atom that reached an existing edge
// (fast path, LLM duplicate) or opened none (UNRELATED) is not kept: its
// episode may be listed, its value and date are not stored.
func (g *graphitiState) KeptAtomIDs() []string {
	var out []int
	for _, gk := range g.keys {
		for _, e := range gk.Edges {
			out = append(out, e.Atom)
		}
	}
	sort.Ints(out)
	ids := make([]string, len(out))
	for n, i := range out {
		ids[n] = g.atoms[i].ID
	}
	return ids
}

func (g *graphitiState) key(k esr.Key) *upstream.GraphKey {
	for _, gk := range g.keys {
		if gk.Key == k {
			return gk
		}
	}
	return nil
}

func (g *graphitiState) Class() string    { return g.name }
func (g *graphitiState) MayAbstain() bool { return true }

// liveValues are the distinct values of the key's "Present" edges, in edge
// order.
func (g *graphitiState) liveValues(gk *upstream.GraphKey) []string {
	var out []string
	for _, e := range gk.Edges {
		if e.InvalidAt.IsZero() && !slices.Contains(out, g.atoms[e.Atom].Display()) {
			out = append(out, g.atoms[e.Atom].Display())
		}
	}
	return out
}

// Answer reads the edges: snapshot is the value of the "Present" edges when
// they agree (ABSTAIN when they disagree: Graphiti calls every such fact
// valid and keeps no status to settle it); provenance (full history only) is
// the most recently invalidated edge with another value; relation type is
// "replaces" whenever such an edge exists (binary invalidation).
func (g *graphitiState) Answer(q esr.Query) esr.Answer {
	gk := g.key(q.Key)
	if gk == nil {
		return esr.Abstain
	}
	live := g.liveValues(gk)
	if q.Type == esr.Snapshot {
		if len(live) == 1 {
			return esr.Says(live[0])
		}
		return esr.Abstain
	}
	if g.currentOnly || len(live) != 1 {
		return esr.Abstain
	}
	best := -1
	for k, e := range gk.Edges {
		if e.InvalidAt.IsZero() || g.atoms[e.Atom].Display() == live[0] {
			continue
		}
		if best < 0 || !e.InvalidAt.Before(gk.Edges[best].InvalidAt.Time) {
			best = k
		}
	}
	if best < 0 {
		return esr.Abstain
	}
	if q.Type == esr.RelationType {
		return esr.Says(esr.AnswerReplaces)
	}
	return esr.Says(g.atoms[gk.Edges[best].Atom].Display())
}

// graphitiStamp writes a time as Python's str(datetime) of an aware UTC
// datetime: "2024-03-01 00:00:00+00:00" (layout.GraphitiTimeLayout); the zero
// time as str(None).
func graphitiStamp(t esr.Time) string {
	if t.IsZero() {
		return "None"
	}
	return t.UTC().Format(layout.GraphitiTimeLayout)
}

// shown lists the (key, edge) positions the render shows.
func (g *graphitiState) shown() (keys, edges []int) {
	for ki, gk := range g.keys {
		for ei, e := range gk.Edges {
			if g.currentOnly && !e.InvalidAt.IsZero() {
				continue
			}
			keys, edges = append(keys, ki), append(edges, ei)
		}
	}
	return keys, edges
}

// Render is Graphiti's context string (search_results_to_context_string):
// a short preamble (paraphrased), then FACTS (fact, valid_at, invalid_at
// with "Present" for null), ENTITIES (name, summary) and EPISODES
// (source_description, content) as JSON lists, one object per line. Facts
// and episodes come in an order that carries no time information (search
// ranks by relevance). Entity summaries here are value-free ("facts about:
// ATTRIBUTES"), not LLM-written. Communities are omitted (none are built).
func (g *graphitiState) Render(esr.Query) string { return g.rendered.get(g.render) }

// render builds Render's string (once per state).
func (g *graphitiState) render() string {
	var b strings.Builder
	b.WriteString("FACTS and ENTITIES are context for the conversation. Each fact holds from its " + layout.JSONValidAt + " to its " + layout.JSONInvalidAt + ";\n")
	b.WriteString("a fact whose " + layout.JSONInvalidAt + " is \"" + layout.GraphitiPresent + "\" is still valid.\n" + layout.GraphitiFactsOpen + "\n[\n")
	ks, es := g.shown()
	ids := make([]string, len(ks))
	for n := range ks {
		ids[n] = g.atoms[g.keys[ks[n]].Edges[es[n]].Atom].ID
	}
	episodes := map[string]bool{}
	for n, i := range layout.Unordered(ids) {
		e := &g.keys[ks[i]].Edges[es[i]]
		inv := layout.GraphitiPresent
		if !e.InvalidAt.IsZero() {
			inv = graphitiStamp(e.InvalidAt)
		}
		b.WriteString("  ")
		b.Write(graphitiFact{g.texts[e.Atom], graphitiStamp(e.ValidAt), inv}.json())
		if n < len(ks)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		for _, ep := range e.Episodes {
			episodes[ep] = true
		}
	}
	b.WriteString("]\n" + layout.GraphitiFactsClose + "\n" + layout.GraphitiEntitiesOpen + "\n[\n")
	var ents []string
	attrs := map[string][]string{}
	for _, gk := range g.keys {
		if attrs[gk.Key.Entity] == nil {
			ents = append(ents, gk.Key.Entity)
		}
		attrs[gk.Key.Entity] = append(attrs[gk.Key.Entity], gk.Key.AttributeLabel())
	}
	for n, ent := range ents {
		b.WriteString("  ")
		b.Write(layout.JSONObject(layout.Field{Key: layout.JSONEntityName, Value: ent}, layout.Field{Key: layout.JSONSummary, Value: "facts about: " + strings.Join(attrs[ent], ", ")}))
		if n < len(ents)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n" + layout.GraphitiEntitiesClose + "\n" + layout.GraphitiEpisodesOpen + "\n[\n")
	var eps []string
	for i := range g.stream.Events {
		if episodes[g.stream.Events[i].ID] {
			eps = append(eps, g.stream.Events[i].ID)
		}
	}
	for n, i := range layout.Unordered(eps) {
		ev := g.stream.Event(eps[i])
		b.WriteString("  ")
		b.Write(layout.JSONObject(layout.Field{Key: layout.JSONSourceDescription, Value: layout.EpisodeSource + ev.ID + " (" + ev.Kind + ")"},
			layout.Field{Key: layout.JSONContent, Value: strings.Join(strings.Fields(ev.Text), " ")}))
		if n < len(eps)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n" + layout.GraphitiEpisodesClose + "\n")
	return b.String()
}

func (g *graphitiState) Rows() []Row {
	rows := make([]Row, 0, len(g.keys))
	for _, gk := range g.keys {
		r := Row{StreamID: g.stream.ID, Entity: gk.Key.Entity, Attribute: gk.Key.Attribute, Facet: gk.Key.Facet, Status: esr.KeyStatusOK,
			Current: nonNil(g.liveValues(gk)), Support: []string{}, Deprecated: []string{}, History: []esr.HistoryEntry{}}
		for _, e := range gk.Edges {
			a := &g.atoms[e.Atom]
			if e.InvalidAt.IsZero() {
				r.Support = append(r.Support, a.ID)
				if r.ValidSince.IsZero() || e.ValidAt.After(r.ValidSince.Time) {
					r.ValidSince = e.ValidAt
				}
			} else if !g.currentOnly {
				r.Deprecated = append(r.Deprecated, a.ID)
			}
			if !g.currentOnly || e.InvalidAt.IsZero() {
				r.History = append(r.History, esr.HistoryEntry{Value: a.Display(), ValidAt: e.ValidAt, InvalidAt: e.InvalidAt})
			}
		}
		rows = append(rows, r)
	}
	return rows
}
