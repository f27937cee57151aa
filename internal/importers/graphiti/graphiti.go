// Package graphiti converts a JSON list of Graphiti EntityEdge records
// (graphiti_core/edges.py: uuid, source_node_uuid, target_node_uuid, name,
// fact, episodes, created_at, expired_at, valid_at, invalid_at) into an ESR
// benchmark.
//
// Each source node becomes one stream; each (source node, edge name) is a
// key, and each edge one event and one atom asserting its fact, at its
// valid_at (created_at when valid_at is null). The edge's window and
// bookkeeping (invalid_at, expired_at, target, episodes, uuid) are kept in
// the event's meta. Gold relations follow the windows Graphiti recorded:
// equal facts (after Graphiti's exact normalisation) SAME_STATE; an edge
// whose invalid_at is at or before the later edge's valid_at is
// SUPERSEDED by it; otherwise UNRELATED (both valid at once). Snapshot
// QAs: the fact of the key's open edges (invalid_at and expired_at null)
// when they agree, ABSTAIN otherwise. Errors name the file, the line and
// the field.
package graphiti

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// Source is the stream and QA source label.
const Source = "graphiti"

// Edge is one EntityEdge record.
type Edge struct {
	UUID      string   `json:"uuid"`
	Source    string   `json:"source_node_uuid"`
	Target    string   `json:"target_node_uuid"`
	Name      string   `json:"name"`
	Fact      string   `json:"fact"`
	Episodes  []string `json:"episodes"`
	CreatedAt *string  `json:"created_at"`
	ExpiredAt *string  `json:"expired_at"`
	ValidAt   *string  `json:"valid_at"`
	InvalidAt *string  `json:"invalid_at"`
	line      int
	created   esr.Time
	expired   esr.Time
	valid     esr.Time
	invalid   esr.Time
}

// Report summarises an import.
type Report struct {
	Edges     int `json:"edges"`
	Streams   int `json:"streams"`
	Keys      int `json:"keys"`
	Atoms     int `json:"atoms"`
	Relations int `json:"relations"`
	QAs       int `json:"qas"`
}

// Read reads the edge list from path.
func Read(path string) ([]Edge, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	lineAt := func(off int64) int { return bytes.Count(data[:off], []byte("\n")) + 1 }
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, fmt.Errorf("%s:1: want a JSON list of EntityEdge records", name)
	}
	var out []Edge
	uuids := map[string]int{} // uuid → line
	for dec.More() {
		off := dec.InputOffset()
		// skip white space and commas to the record's first byte
		for off < int64(len(data)) && strings.ContainsRune(" \t\r\n,", rune(data[off])) {
			off++
		}
		line := lineAt(off)
		var e Edge
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		e.line = line
		at := func(field string) error { return fmt.Errorf("%s:%d: field %q", name, line, field) }
		for _, f := range [][2]string{{"uuid", e.UUID}, {"source_node_uuid", e.Source}, {"target_node_uuid", e.Target}, {"name", e.Name}, {"fact", e.Fact}} {
			if strings.TrimSpace(f[1]) == "" {
				return nil, fmt.Errorf("%w: missing or empty", at(f[0]))
			}
		}
		for _, f := range []struct {
			field string
			v     *string
			t     *esr.Time
		}{{"created_at", e.CreatedAt, &e.created}, {"expired_at", e.ExpiredAt, &e.expired}, {"valid_at", e.ValidAt, &e.valid}, {"invalid_at", e.InvalidAt, &e.invalid}} {
			if f.v == nil || *f.v == "" {
				continue
			}
			t, err := esr.ParseTime(*f.v)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", at(f.field), err)
			}
			*f.t = t
		}
		if e.created.IsZero() {
			return nil, fmt.Errorf("%w: missing (every EntityEdge has one)", at("created_at"))
		}
		if first, dup := uuids[e.UUID]; dup {
			return nil, fmt.Errorf("%w: %q is also the uuid of the edge at line %d", at("uuid"), e.UUID, first)
		}
		uuids[e.UUID] = line
		if !e.valid.IsZero() && !e.invalid.IsZero() && e.invalid.Before(e.valid.Time) {
			return nil, fmt.Errorf("%w: %s is before valid_at %s", at("invalid_at"), e.invalid, e.valid)
		}
		out = append(out, e)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return nil, fmt.Errorf("%s:%d: the list of EntityEdge records is not closed with ]", name, lineAt(dec.InputOffset()))
	}
	rest := data[dec.InputOffset():]
	if trimmed := bytes.TrimLeft(rest, " \t\r\n"); len(trimmed) > 0 {
		off := dec.InputOffset() + int64(len(rest)-len(trimmed))
		return nil, fmt.Errorf("%s:%d: unexpected data after the list of EntityEdge records: %q", name, lineAt(off), snippet(trimmed))
	}
	return out, nil
}

// snippet is the start of b for a message.
func snippet(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

func norm(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// when is an edge's valid-time position.
func (e *Edge) when() esr.Time {
	if !e.valid.IsZero() {
		return e.valid
	}
	return e.created
}

// Convert builds the benchmark (see the package doc).
func Convert(edges []Edge) (*bench.Bench, *Report) {
	rep := &Report{Edges: len(edges)}
	bySource := map[string][]Edge{}
	var sources []string
	for _, e := range edges {
		if bySource[e.Source] == nil {
			sources = append(sources, e.Source)
		}
		bySource[e.Source] = append(bySource[e.Source], e)
	}
	sort.Strings(sources)
	var streams []*esr.Stream
	atoms := map[string][]esr.Atom{}
	rels := map[string]map[esr.AtomPair]esr.Relation{}
	var qas []esr.QA
	for _, src := range sources {
		es := bySource[src]
		sort.SliceStable(es, func(i, j int) bool {
			a, b := es[i].when(), es[j].when()
			if !a.Equal(b.Time) {
				return a.Before(b.Time)
			}
			return es[i].line < es[j].line
		})
		sid := "graphiti-" + src
		s := &esr.Stream{ID: sid, Title: "Graphiti node " + src, Source: Source, CreatedAt: es[0].when()}
		var as []esr.Atom
		for i := range es {
			e := &es[i]
			meta := map[string]any{"uuid": e.UUID, "target_node_uuid": e.Target, "episodes": e.Episodes, "created_at": e.created.String()}
			if !e.invalid.IsZero() {
				meta["invalid_at"] = e.invalid.String()
			}
			if !e.expired.IsZero() {
				meta["expired_at"] = e.expired.String()
			}
			ev := esr.Event{ID: fmt.Sprintf("g%d", i+1), Kind: "edge", Timestamp: e.when(), Text: e.Fact, Role: "graphiti", Meta: meta}
			s.Events = append(s.Events, ev)
			as = append(as, esr.Atom{ID: fmt.Sprintf("%s-a%d", sid, i+1), StreamID: sid, EventID: ev.ID, EventIndex: i, EventKind: ev.Kind,
				Timestamp: ev.Timestamp, Role: ev.Role, Modality: esr.ModalityAssert, Entity: src, Attribute: e.Name, Value: e.Fact,
				Polarity: esr.Positive, Confidence: 1})
		}
		gold := map[esr.AtomPair]esr.Relation{}
		keys := map[esr.Key][]int{}
		var order []esr.Key
		for i := range as {
			k := as[i].Key()
			if keys[k] == nil {
				order = append(order, k)
			}
			keys[k] = append(keys[k], i)
		}
		for _, k := range order {
			idx := keys[k]
			for x := 0; x < len(idx); x++ {
				for y := x + 1; y < len(idx); y++ {
					a, b := &es[idx[x]], &es[idx[y]]
					r := esr.Unrelated
					switch {
					case norm(a.Fact) == norm(b.Fact):
						r = esr.SameState
					case !a.invalid.IsZero() && !a.invalid.After(b.when().Time):
						r = esr.Supersedes
					}
					gold[esr.AtomPair{A: as[idx[x]].ID, B: as[idx[y]].ID}] = r
				}
			}
			var open []string
			var sup []string
			for _, i := range idx {
				if es[i].invalid.IsZero() && es[i].expired.IsZero() {
					if !contains(open, norm(es[i].Fact)) {
						open = append(open, norm(es[i].Fact))
					}
					sup = append(sup, as[i].EventID)
				}
			}
			want := esr.AbstainText
			if len(open) == 1 {
				for _, i := range idx {
					if norm(es[i].Fact) == open[0] {
						want = es[i].Fact
					}
				}
			}
			qas = append(qas, esr.QA{QID: fmt.Sprintf("%s-%s-snap", sid, k.Attribute), StreamID: sid,
				Question: "What holds now for " + k.Attribute + " of node " + src + "?", GoldAnswer: want,
				GoldSupportingEventIDs: nonNil(sup), GoldDeprecatedEventIDs: []string{}, Phenomenon: esr.Monotonic,
				Confidence: 1, QueryType: esr.Snapshot, Source: Source, Entity: src, Attribute: k.Attribute})
			rep.Keys++
		}
		streams = append(streams, s)
		atoms[sid] = as
		rels[sid] = gold
		rep.Atoms += len(as)
		rep.Relations += len(gold)
	}
	rep.Streams, rep.QAs = len(streams), len(qas)
	b := bench.New(streams, atoms, qas)
	b.Relations = rels
	return b, rep
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Import reads the edge list at path and writes the benchmark into out.
func Import(path, out string) (*Report, error) {
	edges, err := Read(path)
	if err != nil {
		return nil, err
	}
	if len(edges) == 0 {
		return nil, fmt.Errorf("%s: no edges", filepath.Base(path))
	}
	b, rep := Convert(edges)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	return rep, b.Save(out)
}
