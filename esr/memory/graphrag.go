package memory

import (
	"github.com/esrkit/esrkit/internal/layout"

	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// groupState is GraphRAG-style memory: the same extracted atoms grouped by
// key, with no deprecation marker and no status. graphrag-abstain (the
// d-blind control) shows each atom's date in a seeded order that is not
// time order, and its read-out abstains when a key's values disagree;
// graphrag-lite shows no dates, never abstains and takes the most frequent
// value.
type groupState struct {
	rendered renderOnce // Render ignores the query: built once
	name     string
	stream   *esr.Stream
	abstain  bool
	dateless bool   // graphrag-abstain's dateless variant (Options.FactFormat)
	seed     uint64 // Options.RenderSeed
	keys     []esr.Key
	atoms    map[esr.Key][]*esr.Atom
}

// buildGraphRAGLite builds graphrag-lite.
func buildGraphRAGLite(_ Spec, name string, s *esr.Stream, atoms []esr.Atom, _ Options) (State, error) {
	return newGroupState(name, s, atoms, false), nil
}

// buildGraphRAGAbstain builds graphrag-abstain in opt.FactFormat, its rows
// ordered by opt.RenderSeed.
func buildGraphRAGAbstain(_ Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	if opt.FactFormat != "" && opt.FactFormat != FactsDated && opt.FactFormat != FactsDateless {
		return nil, fmt.Errorf("unknown fact format %q (want one of %s)", opt.FactFormat, strings.Join(FactFormats, ", "))
	}
	g := newGroupState(name, s, atoms, true)
	g.dateless, g.seed = opt.FactFormat == FactsDateless, opt.RenderSeed
	return g, nil
}

func newGroupState(name string, s *esr.Stream, atoms []esr.Atom, abstain bool) *groupState {
	g := &groupState{name: name, stream: s, abstain: abstain, atoms: map[esr.Key][]*esr.Atom{}}
	g.keys = layout.KeysInOrder(atoms)
	for i := range atoms {
		k := atoms[i].Key()
		g.atoms[k] = append(g.atoms[k], &atoms[i])
	}
	return g
}

func (g *groupState) Class() string    { return g.name }
func (g *groupState) MayAbstain() bool { return g.abstain }

// valueCounts counts each distinct state of a key's atoms, returning the
// states in the key's unordered render order with a representative atom.
func valueCounts(atoms []*esr.Atom) (order []string, count map[string]int, rep map[string]*esr.Atom) {
	count, rep = map[string]int{}, map[string]*esr.Atom{}
	for _, i := range layout.Unordered(layout.AtomIDs(atoms)) {
		a := atoms[i]
		if count[a.State()] == 0 {
			order = append(order, a.State())
			rep[a.State()] = a
		}
		count[a.State()]++
	}
	return order, count, rep
}

// Answer uses only the unordered value multiset (a d-blind read-out: the
// rendered dates are for the reader, not for a built-in recency rule, as
// P2c's d-blind store requires).
//
// graphrag-abstain follows the one d-blind rule (readout.go): snapshot is
// the single value, ABSTAIN when the key's values disagree; provenance and
// relation type abstain, since a store without order or types holds no
// prior value it could name (a single value has no prior; several values
// have no order).
//
// graphrag-lite is a baseline defined by a rule, majority, and keeps it: it
// never abstains on snapshot (the most frequent value, ties to the first in
// render order), names the second most frequent value as the prior one for
// provenance, and says "replaces" for relation type.
func (g *groupState) Answer(q esr.Query) esr.Answer {
	atoms := g.atoms[q.Key]
	if len(atoms) == 0 {
		return esr.Abstain
	}
	if g.abstain {
		if q.Type != esr.Snapshot {
			return esr.Abstain
		}
		return liveValue(atoms)
	}
	order, count, rep := valueCounts(atoms)
	top, second := "", ""
	for _, s := range order {
		switch {
		case top == "" || count[s] > count[top]:
			top, second = s, top
		case second == "" || count[s] > count[second]:
			second = s
		}
	}
	switch q.Type {
	case esr.Provenance:
		if second != "" {
			return esr.Says(rep[second].Display())
		}
		return esr.Abstain
	case esr.RelationType:
		return esr.Says(esr.AnswerReplaces)
	}
	return esr.Says(rep[top].Display())
}

// Render is GraphRAG's fact table: "-----Facts-----", a header
// id|entity|attribute|value|time, and one row per atom with its date, the
// rows of each key in a seeded permutation (Options.RenderSeed) that carries
// no time information. The dateless variant drops the time column.
// graphrag-lite groups rows under a heading per key, with no dates.
func (g *groupState) Render(esr.Query) string { return g.rendered.get(g.render) }

// render builds Render's string (once per state).
func (g *groupState) render() string {
	var b strings.Builder
	if g.abstain {
		cols := []string{layout.ColID, layout.ColEntity, layout.ColAttribute, layout.ColValue}
		if !g.dateless {
			cols = append(cols, layout.ColTime)
		}
		b.WriteString(layout.FactsHeading + "\n" + strings.Join(cols, layout.CellSep) + "\n")
		for _, k := range g.keys {
			atoms := g.atoms[k]
			for _, i := range layout.SeededOrder(g.seed, g.stream.ID+"\x00"+k.String(), layout.AtomIDs(atoms)) {
				a := atoms[i]
				c := layout.Cell
				b.WriteString(c(a.ID) + layout.CellSep + c(a.Entity) + layout.CellSep + c(a.Key().AttributeLabel()) + layout.CellSep + c(a.Display()))
				if !g.dateless {
					b.WriteString(layout.CellSep + layout.Stamp(a.Timestamp))
				}
				b.WriteByte('\n')
			}
		}
		return b.String()
	}
	for _, k := range g.keys {
		b.WriteString(layout.GroupHeading + layout.Cell(k.String()) + "\n" + markdownRow(layout.ColID, layout.ColValue) + markdownRule)
		atoms := g.atoms[k]
		for _, i := range layout.Unordered(layout.AtomIDs(atoms)) {
			b.WriteString(markdownRow(atoms[i].ID, atoms[i].Display()))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// markdownRow writes the markdown table row "| a | b |" and a newline.
func markdownRow(a, b string) string {
	return layout.CellSep + " " + layout.Cell(a) + " " + layout.CellSep + " " + layout.Cell(b) + " " + layout.CellSep + "\n"
}

// markdownRule is the rule under a two-column markdown header.
const markdownRule = layout.CellSep + "---" + layout.CellSep + "---" + layout.CellSep + "\n"

func (g *groupState) Rows() []Row {
	rows := make([]Row, 0, len(g.keys))
	for _, k := range g.keys {
		atoms := g.atoms[k]
		order, _, rep := valueCounts(atoms)
		r := Row{StreamID: g.stream.ID, Entity: k.Entity, Attribute: k.Attribute, Facet: k.Facet, Status: esr.KeyStatusOK,
			Current: []string{}, Support: layout.AtomIDs(atoms), Deprecated: []string{}, History: []esr.HistoryEntry{}}
		if len(order) > 1 && g.abstain {
			r.Status = esr.KeyStatusUnresolved
		}
		ans := g.Answer(esr.Query{Type: esr.Snapshot, Key: k})
		if ans.Abstain {
			for _, s := range order {
				r.Current = append(r.Current, rep[s].Display())
			}
		} else {
			r.Current = []string{ans.Value}
		}
		rows = append(rows, r)
	}
	return rows
}
