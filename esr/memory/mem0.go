package memory

import (
	"slices"

	"github.com/esrkit/esrkit/internal/layout"
	"github.com/esrkit/esrkit/internal/upstream"

	"crypto/md5"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/esrkit/esrkit/esr"
)

// IngestionEpoch is the replay clock's start for created-at=ingestion: the
// kit back-fills a stream into Mem0 at evaluation time, so episode n (the
// event's index in the stream) is ingested IngestionEpoch + n seconds. The
// order of the episodes survives in created_at; their dates do not.
var IngestionEpoch = esr.Time{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}

// mem0State is Mem0 as deployed, in one of its two pipelines, under the
// assumptions of deployedParams (paraphrase, dedup-k, created-at, skip,
// seed). Each atom's memory text is the template "ENTITY ATTRIBUTE is VALUE"
// or, with probability paraphrase, a paraphrase (FactVerbs); each event is
// one add() call. The memories come from upstream.IngestMem0; this type
// renders and reads them out.
//
// mem0-v3 (no relations) is the V3 add-only pipeline with hash dedup:
// contradicting memories coexist, so the store is d-blind and its
// render-matched control is the same build. A value that returns
// (A → B → A) with A's old text, while A's memory is retrieved, is dropped
// as a hash duplicate, which keeps A's old created_at. mem0-update is the
// earlier ADD/UPDATE/DELETE/NONE pipeline, with the relation source standing
// in for the LLM's judgement; search returns only the surviving memories (the
// history table keeps the rest, the render does not show it: discarding).
// With the mechanism off there is no update step: each episode goes through
// the add-only path.
//
// created_at (and an UPDATE's updated_at) is the episode's time
// (created-at=event) or the replay clock (created-at=ingestion,
// IngestionEpoch).
//
// Both render the memory list as Mem0's search returns it:
// {"results": [{"id", "memory", "hash", "metadata", "created_at",
// "updated_at", "user_id"}]}, one memory per line.
type mem0State struct {
	rendered renderOnce // Render ignores the query: built once
	name     string
	stream   *esr.Stream
	atoms    []esr.Atom
	texts    []string           // each atom's memory text
	mems     []*upstream.Memory // upstream.IngestMem0's store, deleted memories included
	keys     []esr.Key
}

// buildMem0 builds mem0-v3 or mem0-update under sp's parameters
// (deployedParams). mem0-v3 is add-only: it reads no relations.
func buildMem0(sp Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	dp := sp.Params.deployed()
	var r esr.Relator
	if sp.Class == Mem0Update {
		r = opt.relator()
	}
	return newMem0State(name, s, atoms, r, opt.MechanismOff, dp, dp.seed(opt)), nil
}

func newMem0State(name string, s *esr.Stream, atoms []esr.Atom, r esr.Relator, mechanismOff bool, dp deployedParams, seed uint64) *mem0State {
	texts := factTexts(s, atoms, dp.Paraphrase, seed)
	var rel esr.PairFunc
	if r != nil && !mechanismOff {
		rel = r.ForStream(s, atoms)
	}
	mems := upstream.IngestMem0(s, atoms, texts, rel, upstream.Mem0Config{
		DedupK: dp.DedupK,
		// The extraction skips an equivalent fact with probability skip, drawn per (seed, stream, atom).
		Skip: func(i int) bool { return drawUnit(seed, s.ID, atoms[i].ID, "skip") < dp.Skip },
		Clock: func(i int) esr.Time {
			if dp.CreatedAt == CreatedAtEvent {
				return atoms[i].Timestamp
			}
			return esr.Time{Time: IngestionEpoch.Add(time.Duration(atoms[i].EventIndex) * time.Second)}
		},
	})
	return &mem0State{name: name, stream: s, atoms: atoms, keys: layout.KeysInOrder(atoms), texts: texts, mems: mems}
}

// KeptAtomIDs lists the atoms whose text a surviving memory holds, in
// ingest order. An atom dropped as a hash duplicate or skipped, replaced by
// an UPDATE or deleted is not kept.
func (m *mem0State) KeptAtomIDs() []string {
	var out []int
	for _, x := range m.mems {
		if !x.Deleted {
			out = append(out, x.Atom)
		}
	}
	sort.Ints(out)
	ids := make([]string, len(out))
	for n, i := range out {
		ids[n] = m.atoms[i].ID
	}
	return ids
}

func (m *mem0State) Class() string    { return m.name }
func (m *mem0State) MayAbstain() bool { return true }

// liveValues are the distinct values of the key's surviving memories.
func (m *mem0State) liveValues(k esr.Key) []string {
	var out []string
	for _, x := range m.mems {
		if !x.Deleted && x.Key == k && !slices.Contains(out, m.atoms[x.Atom].Display()) {
			out = append(out, m.atoms[x.Atom].Display())
		}
	}
	return out
}

// Answer: snapshot is the key's memory when the surviving memories agree,
// ABSTAIN otherwise (a d-blind read-out: created_at is for the reader, not
// for a recency rule); search returns no history, so provenance and
// relation type abstain.
func (m *mem0State) Answer(q esr.Query) esr.Answer {
	if q.Type != esr.Snapshot {
		return esr.Abstain
	}
	if v := m.liveValues(q.Key); len(v) == 1 {
		return esr.Says(v[0])
	}
	return esr.Abstain
}

// mem0Stamp writes a time as Python's isoformat() of an aware UTC datetime
// (layout.Mem0TimeLayout).
func mem0Stamp(t esr.Time) string { return t.UTC().Format(layout.Mem0TimeLayout) }

// Render is the search result: {"results": [...]}, one memory per line,
// in an order that carries no time information (search ranks by score).
func (m *mem0State) Render(esr.Query) string { return m.rendered.get(m.render) }

// render builds Render's string (once per state).
func (m *mem0State) render() string {
	var live []*upstream.Memory
	var ids []string
	for _, x := range m.mems {
		if !x.Deleted {
			live = append(live, x)
			ids = append(ids, x.ID)
		}
	}
	var b strings.Builder
	b.WriteString(layout.Mem0Open + "\n")
	for n, i := range layout.Unordered(ids) {
		x := live[i]
		text := m.texts[x.Atom]
		b.WriteString("  ")
		b.Write(layout.JSONObject(layout.Field{Key: layout.JSONID, Value: x.ID}, layout.Field{Key: layout.JSONMemory, Value: text}, layout.Field{Key: layout.JSONHash, Value: fmt.Sprintf("%x", md5.Sum([]byte(text)))},
			layout.Field{Key: layout.JSONMetadata, Value: nil}, layout.Field{Key: layout.JSONCreatedAt, Value: mem0Stamp(x.CreatedAt)}, layout.Field{Key: layout.JSONUpdatedAt, Value: mem0Stamp(x.UpdatedAt)},
			layout.Field{Key: layout.JSONUserID, Value: m.stream.ID}))
		if n < len(live)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(layout.Mem0Close + "\n")
	return b.String()
}

func (m *mem0State) Rows() []Row {
	rows := make([]Row, 0, len(m.keys))
	for _, k := range m.keys {
		r := Row{StreamID: m.stream.ID, Entity: k.Entity, Attribute: k.Attribute, Facet: k.Facet, Status: esr.KeyStatusOK,
			Current: nonNil(m.liveValues(k)), Support: []string{}, Deprecated: []string{}, History: []esr.HistoryEntry{}}
		for _, x := range m.mems {
			if x.Key != k {
				continue
			}
			if x.Deleted {
				r.Deprecated = append(r.Deprecated, m.atoms[x.Atom].ID)
			} else {
				r.Support = append(r.Support, m.atoms[x.Atom].ID)
				if x.UpdatedAt.After(r.ValidSince.Time) {
					r.ValidSince = x.UpdatedAt
				}
			}
			r.History = append(r.History, x.History...)
		}
		rows = append(rows, r)
	}
	return rows
}
