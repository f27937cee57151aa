package memory

import (
	"github.com/esrkit/esrkit/internal/layout"

	"github.com/esrkit/esrkit/esr"
)

// textState is raw-text memory: DIRECT CONTEXT keeps every event, RAG-TOP-K
// the retrieved ones. Its render is the events, newest first. Its structured
// read-out is what a careful reader of time-stamped text can do: the latest
// value among the kept events' asserting atoms for snapshot, the previous
// different value in time order for provenance, and no relation types. An
// atom that does not assert its value (esr.Atom.Asserts: a hedge, a stale
// value recalled) is not read, as the readers of raw text
// (reader.StatedValues) do not read it.
type textState struct {
	rendered renderOnce // Render ignores the query: built once
	name     string
	stream   *esr.Stream
	events   []esr.Event
	byKey    map[esr.Key][]*esr.Atom
	keys     []esr.Key
}

// buildDirect builds direct-context: the whole stream as text.
func buildDirect(_ Spec, name string, s *esr.Stream, atoms []esr.Atom, _ Options) (State, error) {
	return newTextState(name, s, atoms, s.Events), nil
}

func newTextState(name string, s *esr.Stream, atoms []esr.Atom, events []esr.Event) *textState {
	t := &textState{name: name, stream: s, events: events, byKey: map[esr.Key][]*esr.Atom{}}
	kept := make(map[string]bool, len(events))
	for i := range events {
		kept[events[i].ID] = true
	}
	for i := range atoms {
		a := &atoms[i]
		if !kept[a.EventID] || !a.Asserts() {
			continue
		}
		k := a.Key()
		if t.byKey[k] == nil {
			t.keys = append(t.keys, k)
		}
		t.byKey[k] = append(t.byKey[k], a)
	}
	return t
}

func (t *textState) Class() string    { return t.name }
func (t *textState) MayAbstain() bool { return true }

func (t *textState) Answer(q esr.Query) esr.Answer {
	atoms := t.byKey[q.Key]
	if len(atoms) == 0 {
		return esr.Abstain
	}
	last := atoms[len(atoms)-1]
	switch q.Type {
	case esr.Provenance:
		for i := len(atoms) - 2; i >= 0; i-- {
			if atoms[i].State() != last.State() {
				return esr.Says(atoms[i].Display())
			}
		}
		return esr.Abstain
	case esr.RelationType:
		return esr.Abstain
	}
	return esr.Says(last.Display())
}

func (t *textState) Render(esr.Query) string {
	return t.rendered.get(func() string { return layout.EventLines(t.events) })
}

func (t *textState) Rows() []Row {
	rows := make([]Row, 0, len(t.keys))
	for _, k := range t.keys {
		atoms := t.byKey[k]
		last := atoms[len(atoms)-1]
		rows = append(rows, Row{StreamID: t.stream.ID, Entity: k.Entity, Attribute: k.Attribute, Facet: k.Facet, Status: esr.KeyStatusOK,
			Current: []string{last.Display()}, ValidSince: last.Timestamp, Support: layout.AtomIDs(atoms),
			Deprecated: []string{}, History: []esr.HistoryEntry{}})
	}
	return rows
}
