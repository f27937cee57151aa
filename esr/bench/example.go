// Package example builds the small streams the paper uses to explain ESR, so
// tests, notebooks and the command line share one copy of each.
package bench

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
)

// Event is a compact event description for Build.
type Event struct {
	ID, Date, Text, Actor string
	// Value is the atom the event carries for the example's key ("" for none).
	Value    string
	Polarity esr.Polarity
}

// Build makes a stream and its atoms (one per event with a Value, all on the
// key k) from compact descriptions.
func Build(streamID string, k esr.Key, events []Event) (*esr.Stream, []esr.Atom) {
	s := &esr.Stream{ID: streamID, Title: k.String()}
	var atoms []esr.Atom
	for i, e := range events {
		var actor *string
		if e.Actor != "" {
			a := e.Actor
			actor = &a
		}
		s.Events = append(s.Events, esr.Event{ID: e.ID, Kind: "comment", Timestamp: esr.MustTime(e.Date),
			Text: e.Text, Actor: actor, Role: "participant"})
		if e.Value == "" {
			continue
		}
		p := e.Polarity
		if p == "" {
			p = esr.Positive
		}
		atoms = append(atoms, esr.Atom{ID: fmt.Sprintf("a%d", len(atoms)+1), StreamID: streamID,
			EventID: e.ID, EventIndex: i, Timestamp: esr.MustTime(e.Date), Actor: actor,
			Entity: k.Entity, Attribute: k.Attribute, Value: e.Value, Polarity: p, Confidence: 1})
	}
	s.SortEvents()
	esr.SortAtoms(atoms)
	return s, atoms
}

// TimeoutKey is the key of the paper's Figure 1 stream.
var TimeoutKey = esr.Key{Entity: "service", Attribute: "request_timeout"}

// Figure1 is the paper's Figure 1 stream: a reverted revert of a request
// timeout, 30 s → 60 s → 30 s, all from one maintainer.
func Figure1() (*esr.Stream, []esr.Atom) {
	return Build("figure1", TimeoutKey, []Event{
		{ID: "e1", Date: "2024-01-01", Actor: "maintainer", Value: "30 s",
			Text: "Set timeout = 30 s. Initial configuration for the request timeout."},
		{ID: "e2", Date: "2024-02-01", Actor: "maintainer", Value: "60 s",
			Text: "Update: use 60 s instead. The timeout was increased to improve reliability under load."},
		{ID: "e3", Date: "2024-03-01", Actor: "maintainer", Value: "30 s",
			Text: "Correction: revert to 30 s. This change restores the previous setting due to observed issues."},
	})
}

// Figure1Question is the paper's question about the Figure 1 stream.
const Figure1Question = "What request_timeout is currently in force for service?"

// Figure1QA is the snapshot QA of the Figure 1 stream (gold 30 s).
func Figure1QA() esr.QA {
	return esr.QA{QID: "figure1-snapshot", StreamID: "figure1", Question: Figure1Question,
		GoldAnswer: "30 s", GoldSupportingEventIDs: []string{"e3"}, GoldDeprecatedEventIDs: []string{"e2"},
		Phenomenon: esr.RevertedRevert, QueryType: esr.Snapshot, Source: "example",
		Entity: TimeoutKey.Entity, Attribute: TimeoutKey.Attribute}
}

// Figure1Bench is the Figure 1 stream as a one-stream benchmark with its
// snapshot and provenance questions.
func Figure1Bench() *Bench {
	s, atoms := Figure1()
	snap := Figure1QA()
	prov := snap
	prov.QID, prov.QueryType, prov.GoldAnswer = "figure1-provenance", esr.Provenance, "60 s"
	prov.Question = "What request_timeout was in force for service immediately before the current one?"
	prov.GoldSupportingEventIDs = []string{"e2"}
	return New([]*esr.Stream{s}, map[string][]esr.Atom{s.ID: atoms}, []esr.QA{snap, prov})
}

// P1Surface builds the two instances of the paper's Proposition 1 over one
// surface e1: φ@t1, e2: ¬φ@t2, e3: φ@t3. In instance (I) one maintainer
// writes all three and e3 reverts e2; in instance (II) e2 comes from another
// source and nothing resolves the conflict. The value strings and times are
// identical; only the relations differ, which the returned gold relations
// record (for relate.Oracle).
func P1Surface() (one, two *esr.Stream, atomsOne, atomsTwo []esr.Atom, gold map[string]map[esr.AtomPair]esr.Relation) {
	k := esr.Key{Entity: "parse_config", Attribute: "thread_safety"}
	mk := func(id, actor2 string) (*esr.Stream, []esr.Atom) {
		return Build(id, k, []Event{
			{ID: "e1", Date: "2024-01-01", Actor: "alice", Value: "thread-safe", Text: "parse_config is thread-safe."},
			{ID: "e2", Date: "2024-02-01", Actor: actor2, Value: "thread-safe", Polarity: esr.Negative, Text: "parse_config is not thread-safe."},
			{ID: "e3", Date: "2024-03-01", Actor: "alice", Value: "thread-safe", Text: "parse_config is thread-safe."},
		})
	}
	one, atomsOne = mk("p1-I", "alice")
	two, atomsTwo = mk("p1-II", "bob")
	gold = map[string]map[esr.AtomPair]esr.Relation{
		// (I): e2 supersedes e1, e3 supersedes (reverts) e2 and restates e1.
		"p1-I": {{A: "a1", B: "a2"}: esr.Supersedes, {A: "a2", B: "a3"}: esr.Supersedes, {A: "a1", B: "a3"}: esr.SameState},
		// (II): e2 contradicts e1 and e3 from another source; e3 restates e1.
		"p1-II": {{A: "a1", B: "a2"}: esr.Contradicts, {A: "a2", B: "a3"}: esr.Contradicts, {A: "a1", B: "a3"}: esr.SameState},
	}
	return
}
