package memory

import (
	"github.com/esrkit/esrkit/internal/layout"

	"strings"

	"github.com/esrkit/esrkit/esr"
)

// latestState is LATEST-ONLY: the latest atom per key by valid time (the last
// in transaction order), nothing else.
type latestState struct {
	rendered renderOnce // Render ignores the query: built once
	name     string
	stream   *esr.Stream
	keys     []esr.Key
	latest   map[esr.Key]*esr.Atom
}

// buildLatest builds latest-only.
func buildLatest(_ Spec, name string, s *esr.Stream, atoms []esr.Atom, _ Options) (State, error) {
	return newLatestState(name, s, atoms), nil
}

func newLatestState(name string, s *esr.Stream, atoms []esr.Atom) *latestState {
	l := &latestState{name: name, stream: s, keys: layout.KeysInOrder(atoms), latest: map[esr.Key]*esr.Atom{}}
	for i := range atoms {
		l.latest[atoms[i].Key()] = &atoms[i]
	}
	return l
}

func (l *latestState) Class() string    { return l.name }
func (l *latestState) MayAbstain() bool { return true }

// Answer gives the latest value for snapshot; it keeps no prior value and no
// type, so provenance and relation type abstain.
func (l *latestState) Answer(q esr.Query) esr.Answer {
	a := l.latest[q.Key]
	if a == nil || q.Type != esr.Snapshot {
		return esr.Abstain
	}
	return esr.Says(a.Display())
}

// Render is one line per key: "entity / attribute: value (as of date)"
// (layout.LatestSep, layout.LatestAsOf, layout.LatestEnd).
func (l *latestState) Render(esr.Query) string { return l.rendered.get(l.render) }

// render builds Render's string (once per state).
func (l *latestState) render() string {
	var b strings.Builder
	for _, k := range l.keys {
		a := l.latest[k]
		b.WriteString(layout.Cell(k.String()) + layout.LatestSep + layout.Cell(a.Display()) + layout.LatestAsOf + layout.Stamp(a.Timestamp) + layout.LatestEnd + "\n")
	}
	return b.String()
}

func (l *latestState) Rows() []Row {
	rows := make([]Row, 0, len(l.keys))
	for _, k := range l.keys {
		a := l.latest[k]
		rows = append(rows, Row{StreamID: l.stream.ID, Entity: k.Entity, Attribute: k.Attribute, Facet: k.Facet, Status: esr.KeyStatusOK,
			Current: []string{a.Display()}, ValidSince: a.Timestamp, Support: []string{a.ID},
			Deprecated: []string{}, History: []esr.HistoryEntry{}})
	}
	return rows
}
