package memory

import (
	"github.com/esrkit/esrkit/internal/layout"

	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/relate"
)

// Classes that reproduce deployed memories with their own renders (see
// graphiti.go and mem0.go). They are built-in classes but not in Names, so
// "all" keeps meaning the paper's nine; list them by name.
const (
	// Graphiti is Graphiti as deployed: its edge resolution (the exact-fact
	// fast path, then the LLM's duplicate and contradiction judgement) and
	// the context string its search hands the model, with the full history
	// of facts (closed ones with their invalid_at). Parameters: paraphrase,
	// dup, seed (DeployedParams).
	Graphiti = "graphiti"
	// GraphitiCurrent is Graphiti with the current-only filter (facts whose
	// invalid_at is null).
	GraphitiCurrent = "graphiti-current"
	// Mem0V3 is Mem0 v3's add-only pipeline: contradicting memories coexist
	// (d-blind), a text equal to one of the memories retrieved for the
	// episode is deduplicated by hash. Parameters (also Mem0Update's):
	// paraphrase, dedup-k, created-at, skip, seed (DeployedParams).
	Mem0V3 = "mem0-v3"
	// Mem0Update is Mem0's earlier ADD/UPDATE/DELETE pipeline: an update
	// overwrites the memory in place (discarding).
	Mem0Update = "mem0-update"
)

// DeployedNames lists the deployed-system classes.
var DeployedNames = []string{Graphiti, GraphitiCurrent, Mem0V3, Mem0Update}

// ControlSuffix is appended to a class name to name its render-matched
// control (the same build with Options.MechanismOff), for every class but
// fine-ledger, whose control is render-only.
const ControlSuffix = "~render-only"

// RenderMatched names the render-matched control of class name: render-only
// for fine-ledger, NAME~render-only otherwise (deployed classes, exec:
// adapters and registered classes; a registered class needs
// RegisterRenderMatched first).
func RenderMatched(name string) string {
	if name == FineLedger {
		return RenderOnly
	}
	return name + ControlSuffix
}

func init() {
	PaperName[Graphiti] = "Graphiti (deployed, full history)"
	PaperName[GraphitiCurrent] = "Graphiti (deployed, current only)"
	PaperName[Mem0V3] = "Mem0 v3 (add-only)"
	PaperName[Mem0Update] = "Mem0 (ADD/UPDATE/DELETE)"
}

// buildExtra builds the classes Build's switch does not name: the
// deployed-system classes (with their parameters, see DeployedParams), their
// NAME~render-only controls, the content-matched baseline
// graphrag-abstain@kept=NAME (ContentMatched) and exec: adapters (see
// exec.go). It returns nil, nil for any other name, and an error for a
// parameter a class does not take.
func buildExtra(name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	p := parseName(name)
	if p.err != nil {
		return nil, p.err
	}
	base, control := p.name.Base, p.name.Control
	if strings.HasPrefix(base, ExecPrefix) {
		if control {
			opt = mechanismOff(opt)
		}
		return buildExec(name, base, s, atoms, opt)
	}
	if kept, ok := p.name.Param(ParamKept); ok {
		return buildContentMatched(name, kept, s, atoms, opt)
	}
	if !isDeployed(base) {
		return nil, nil
	}
	if control {
		opt = mechanismOff(opt)
	}
	seed := p.dp.seed(opt)
	switch base {
	case Graphiti, GraphitiCurrent:
		return newGraphitiState(name, s, atoms, opt.relator(), base == GraphitiCurrent, p.dp, seed), nil
	case Mem0V3:
		return newMem0State(name, s, atoms, nil, opt.MechanismOff, p.dp, seed), nil
	default:
		return newMem0State(name, s, atoms, opt.relator(), opt.MechanismOff, p.dp, seed), nil
	}
}

// mechanismOff is opt with the mechanism switched off, as Build does.
func mechanismOff(opt Options) Options {
	opt.MechanismOff = true
	opt.Relator, opt.ForceStatus = sameState(), nil
	return opt
}

func sameState() esr.Relator { return relate.SameState{} }

func isDeployed(n string) bool {
	for _, d := range DeployedNames {
		if d == n {
			return true
		}
	}
	return false
}

// extraName reports whether Build resolves n through buildExtra.
func extraName(n string) bool {
	p := parseName(n)
	if p.err != nil {
		return false
	}
	if _, kept := p.name.Param(ParamKept); kept {
		return p.name.Base == GraphRAGAbstain
	}
	base := p.name.Base
	return isDeployed(base) || strings.HasPrefix(base, ExecPrefix) && len(base) > len(ExecPrefix)
}

// gEdge is one Graphiti EntityEdge (graphiti_core/edges.py): a fact between
// the key's entity node and its value node, with its validity window. The
// fact text is the text of the atom that created the edge.
type gEdge struct {
	atom      int      // atom that created the edge (fact text, valid_at)
	validAt   esr.Time // valid_at
	invalidAt esr.Time // invalid_at; zero while the fact is "Present"
	expiredBy int      // atom whose arrival set invalid_at, -1
	episodes  []string // episode (event) ids, the creating one first
}

func (e *gEdge) addEpisode(id string) {
	if !contains(e.episodes, id) {
		e.episodes = append(e.episodes, id)
	}
}

type gKey struct {
	key   esr.Key
	edges []gEdge
}

// graphitiState is Graphiti as deployed (class graphiti) or with its
// current-only filter (graphiti-current), under the assumptions of
// DeployedParams (paraphrase, dup, seed).
//
// Ingest follows resolve_extracted_edge in
// graphiti_core/utils/maintenance/edge_operations.py. Each atom's fact text
// is the template or, with probability paraphrase, a paraphrase
// (FactVerbs); valid_at is the episode's time, as extract_edges' prompt asks
// for an ongoing fact.
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
//     With probability dup the LLM calls the fact a duplicate of an edge
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
// The render is search_results_to_context_string
// (graphiti_core/search/search_helpers.py): FACTS with valid_at and
// invalid_at ("Present" when null), ENTITIES, EPISODES.
type graphitiState struct {
	name        string
	stream      *esr.Stream
	atoms       []esr.Atom
	texts       []string // each atom's fact text
	currentOnly bool
	dp          DeployedParams
	seed        uint64
	keys        []*gKey
}

// normalizeExact is Graphiti's exact-match normalisation of fact text.
func normalizeExact(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

func newGraphitiState(name string, s *esr.Stream, atoms []esr.Atom, r esr.Relator, currentOnly bool, dp DeployedParams, seed uint64) *graphitiState {
	rel := r.ForStream(s, atoms)
	g := &graphitiState{name: name, stream: s, atoms: atoms, currentOnly: currentOnly, dp: dp, seed: seed,
		texts: factTexts(s, atoms, dp.Paraphrase, seed)}
	byKey := map[esr.Key]*gKey{}
	for i := range atoms {
		k := atoms[i].Key()
		gk := byKey[k]
		if gk == nil {
			gk = &gKey{key: k}
			byKey[k] = gk
			g.keys = append(g.keys, gk)
		}
		g.add(gk, i, rel)
	}
	return g
}

func (g *graphitiState) add(gk *gKey, i int, rel esr.PairFunc) {
	a := &g.atoms[i]
	fact := normalizeExact(g.texts[i])
	for k := range gk.edges {
		if normalizeExact(g.texts[gk.edges[k].atom]) == fact {
			gk.edges[k].addEpisode(a.EventID) // fast path: the edge unchanged
			return
		}
	}
	var candidates []int
	related, anyLive := false, false
	for k := range gk.edges {
		e := &gk.edges[k]
		if !e.invalidAt.IsZero() {
			continue
		}
		anyLive = true
		r := rel(&g.atoms[e.atom], a)
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
		gk.edges[d].addEpisode(a.EventID)
		g.resolve(gk, d, candidates, i)
		return
	}
	gk.edges = append(gk.edges, gEdge{atom: i, validAt: a.Timestamp, expiredBy: -1, episodes: []string{a.EventID}})
	g.resolve(gk, len(gk.edges)-1, candidates, i)
}

// duplicate is the edge the LLM duplicate judgement reuses for atom i: with
// probability dp.Dup (drawn per (seed, stream, atom)) the key's first edge
// with the atom's value, closed or not; -1 when it judges none.
func (g *graphitiState) duplicate(gk *gKey, i int) int {
	a := &g.atoms[i]
	if drawUnit(g.seed, g.stream.ID, a.ID, "dup") >= g.dp.Dup {
		return -1
	}
	for k := range gk.edges {
		if g.atoms[gk.edges[k].atom].State() == a.State() {
			return k
		}
	}
	return -1
}

// resolve applies resolve_extracted_edge's closing rules for atom i to the
// resolved edge r and the invalidation candidates.
func (g *graphitiState) resolve(gk *gKey, r int, candidates []int, i int) {
	sort.SliceStable(candidates, func(x, y int) bool {
		return gk.edges[candidates[x]].validAt.Before(gk.edges[candidates[y]].validAt.Time)
	})
	res := &gk.edges[r]
	if res.invalidAt.IsZero() { // a candidate valid after the resolved edge closes it
		for _, k := range candidates {
			if c := &gk.edges[k]; k != r && c.validAt.After(res.validAt.Time) {
				res.invalidAt, res.expiredBy = c.validAt, i
				break
			}
		}
	}
	for _, k := range candidates {
		c := &gk.edges[k]
		switch {
		case k == r:
		case !c.invalidAt.IsZero() && !c.invalidAt.After(res.validAt.Time): // c ended before res began
		case !res.invalidAt.IsZero() && !res.invalidAt.After(c.validAt.Time): // res ended before c began
		case c.validAt.Before(res.validAt.Time):
			c.invalidAt, c.expiredBy = res.validAt, i
		}
	}
}

// KeptAtomIDs lists the atoms whose fact the graph holds: the atoms that
// created an edge, in ingest order. An atom that reached an existing edge
// (fast path, LLM duplicate) or opened none (UNRELATED) is not kept: its
// episode may be listed, its value and date are not stored.
func (g *graphitiState) KeptAtomIDs() []string {
	var out []int
	for _, gk := range g.keys {
		for _, e := range gk.edges {
			out = append(out, e.atom)
		}
	}
	sort.Ints(out)
	ids := make([]string, len(out))
	for n, i := range out {
		ids[n] = g.atoms[i].ID
	}
	return ids
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (g *graphitiState) key(k esr.Key) *gKey {
	for _, gk := range g.keys {
		if gk.key == k {
			return gk
		}
	}
	return nil
}

func (g *graphitiState) Class() string    { return g.name }
func (g *graphitiState) MayAbstain() bool { return true }

// liveValues are the distinct values of the key's "Present" edges, in edge
// order.
func (g *graphitiState) liveValues(gk *gKey) []string {
	var out []string
	for _, e := range gk.edges {
		if e.invalidAt.IsZero() && !contains(out, g.atoms[e.atom].Display()) {
			out = append(out, g.atoms[e.atom].Display())
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
	for k, e := range gk.edges {
		if e.invalidAt.IsZero() || g.atoms[e.atom].Display() == live[0] {
			continue
		}
		if best < 0 || !e.invalidAt.Before(gk.edges[best].invalidAt.Time) {
			best = k
		}
	}
	if best < 0 {
		return esr.Abstain
	}
	if q.Type == esr.RelationType {
		return esr.Says(esr.AnswerReplaces)
	}
	return esr.Says(g.atoms[gk.edges[best].atom].Display())
}

// graphitiStamp writes a time as Python's str(datetime) of an aware UTC
// datetime: "2024-03-01 00:00:00+00:00" (esr.GraphitiTimeLayout); the zero
// time as str(None).
func graphitiStamp(t esr.Time) string {
	if t.IsZero() {
		return "None"
	}
	return t.UTC().Format(esr.GraphitiTimeLayout)
}

// shown lists the (key, edge) positions the render shows.
func (g *graphitiState) shown() (keys, edges []int) {
	for ki, gk := range g.keys {
		for ei, e := range gk.edges {
			if g.currentOnly && !e.invalidAt.IsZero() {
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
func (g *graphitiState) Render(esr.Query) string {
	var b strings.Builder
	b.WriteString("FACTS and ENTITIES are context for the conversation. Each fact holds from its " + esr.JSONValidAt + " to its " + esr.JSONInvalidAt + ";\n")
	b.WriteString("a fact whose " + esr.JSONInvalidAt + " is \"" + esr.GraphitiPresent + "\" is still valid.\n" + esr.GraphitiFactsOpen + "\n[\n")
	ks, es := g.shown()
	ids := make([]string, len(ks))
	for n := range ks {
		ids[n] = g.atoms[g.keys[ks[n]].edges[es[n]].atom].ID
	}
	episodes := map[string]bool{}
	for n, i := range layout.Unordered(ids) {
		e := &g.keys[ks[i]].edges[es[i]]
		inv := esr.GraphitiPresent
		if !e.invalidAt.IsZero() {
			inv = graphitiStamp(e.invalidAt)
		}
		b.WriteString("  ")
		b.Write(graphitiFact{g.texts[e.atom], graphitiStamp(e.validAt), inv}.json())
		if n < len(ks)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		for _, ep := range e.episodes {
			episodes[ep] = true
		}
	}
	b.WriteString("]\n" + esr.GraphitiFactsClose + "\n" + esr.GraphitiEntitiesOpen + "\n[\n")
	var ents []string
	attrs := map[string][]string{}
	for _, gk := range g.keys {
		if attrs[gk.key.Entity] == nil {
			ents = append(ents, gk.key.Entity)
		}
		attrs[gk.key.Entity] = append(attrs[gk.key.Entity], gk.key.Attribute)
	}
	for n, ent := range ents {
		b.WriteString("  ")
		b.Write(layout.JSONObject(layout.Field{Key: esr.JSONEntityName, Value: ent}, layout.Field{Key: esr.JSONSummary, Value: "facts about: " + strings.Join(attrs[ent], ", ")}))
		if n < len(ents)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n" + esr.GraphitiEntitiesClose + "\n" + esr.GraphitiEpisodesOpen + "\n[\n")
	var eps []string
	for i := range g.stream.Events {
		if episodes[g.stream.Events[i].ID] {
			eps = append(eps, g.stream.Events[i].ID)
		}
	}
	for n, i := range layout.Unordered(eps) {
		ev := g.stream.Event(eps[i])
		b.WriteString("  ")
		b.Write(layout.JSONObject(layout.Field{Key: esr.JSONSourceDescription, Value: esr.EpisodeSource + ev.ID + " (" + ev.Kind + ")"},
			layout.Field{Key: esr.JSONContent, Value: strings.Join(strings.Fields(ev.Text), " ")}))
		if n < len(eps)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n" + esr.GraphitiEpisodesClose + "\n")
	return b.String()
}

func (g *graphitiState) Rows() []Row {
	rows := make([]Row, 0, len(g.keys))
	for _, gk := range g.keys {
		r := Row{StreamID: g.stream.ID, Entity: gk.key.Entity, Attribute: gk.key.Attribute, Status: esr.KeyStatusOK,
			Current: nonNil(g.liveValues(gk)), Support: []string{}, Deprecated: []string{}, History: []esr.HistoryEntry{}}
		for _, e := range gk.edges {
			a := &g.atoms[e.atom]
			if e.invalidAt.IsZero() {
				r.Support = append(r.Support, a.ID)
				if r.ValidSince.IsZero() || e.validAt.After(r.ValidSince.Time) {
					r.ValidSince = e.validAt
				}
			} else if !g.currentOnly {
				r.Deprecated = append(r.Deprecated, a.ID)
			}
			if !g.currentOnly || e.invalidAt.IsZero() {
				r.History = append(r.History, esr.HistoryEntry{Value: a.Display(), ValidAt: e.validAt, InvalidAt: e.invalidAt})
			}
		}
		rows = append(rows, r)
	}
	return rows
}
