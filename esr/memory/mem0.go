package memory

import (
	"github.com/esrkit/esrkit/internal/layout"

	"crypto/md5"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/esrkit/esrkit/esr"
)

// m0Memory is one Mem0 memory (a vector-store record: id, text as "data",
// hash, created_at, updated_at) with its history rows.
type m0Memory struct {
	id        string
	key       esr.Key
	atom      int // atom whose text the memory holds now
	createdAt esr.Time
	updatedAt esr.Time
	deleted   bool
	history   []esr.HistoryEntry
}

// IngestionEpoch is the replay clock's start for created-at=ingestion: the
// kit back-fills a stream into Mem0 at evaluation time, so episode n (the
// event's index in the stream) is ingested IngestionEpoch + n seconds. The
// order of the episodes survives in created_at; their dates do not.
var IngestionEpoch = esr.Time{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}

// mem0State is Mem0 as deployed, in one of its two pipelines, under the
// assumptions of DeployedParams (paraphrase, dedup-k, created-at, skip,
// seed). Each atom's memory text is the template "ENTITY ATTRIBUTE is VALUE"
// or, with probability paraphrase, a paraphrase (FactVerbs); each event is
// one add() call.
//
// mem0-v3 (rel == nil) is the V3 phased batch pipeline of
// mem0/memory/main.py (Memory._add_to_vector_store): per episode, Phase 1
// retrieves the top_k=10 existing memories for the episode's text (here the
// dedup-k best by BM25 of the episode text against the memory texts, ties in
// insertion order), one additive extraction follows, and every extracted
// memory is inserted except one whose MD5 hash equals a retrieved memory's
// or an earlier one of the same episode (Phase 5, hash dedup); with
// probability skip the extraction itself leaves out a fact equivalent to a
// retrieved memory (same key and value). Nothing is ever updated or
// deleted, so contradicting memories coexist: the store is d-blind, and it
// uses no relations at all (its render-matched control is the same build).
// A value that returns (A → B → A) with A's old text, while A's memory is
// retrieved, is dropped as a hash duplicate, which keeps A's old created_at.
//
// mem0-update (rel != nil) is the earlier pipeline, where an LLM compares
// each new fact with the retrieved memories and answers ADD, UPDATE, DELETE
// or NONE (DEFAULT_UPDATE_MEMORY_PROMPT in mem0/configs/prompts.py): the
// relation source stands in for that judgement. No memory for the key:
// ADD. SUPERSEDES or REFINES: UPDATE (same id, text replaced, updated_at
// set, created_at kept). CONTRADICTS: DELETE (the prompt deletes a memory
// the new fact contradicts; the fact itself is not added). SAME_STATE and
// UNRELATED: NONE. Search returns only the surviving memories: the history
// table keeps the rest, but the render does not show it (discarding). With
// the mechanism off there is no update step: each episode goes through the
// add-only path above, which is the add-only store.
//
// created_at (and an UPDATE's updated_at) is the episode's time
// (created-at=event) or the replay clock (created-at=ingestion,
// IngestionEpoch).
//
// Both render the memory list as Mem0's search returns it:
// {"results": [{"id", "memory", "hash", "metadata", "created_at",
// "updated_at", "user_id"}]}, one memory per line.
type mem0State struct {
	name   string
	stream *esr.Stream
	atoms  []esr.Atom
	texts  []string // each atom's memory text
	dp     DeployedParams
	seed   uint64
	mems   []*m0Memory
	keys   []esr.Key
}

func newMem0State(name string, s *esr.Stream, atoms []esr.Atom, r esr.Relator, mechanismOff bool, dp DeployedParams, seed uint64) *mem0State {
	m := &mem0State{name: name, stream: s, atoms: atoms, keys: layout.KeysInOrder(atoms), dp: dp, seed: seed,
		texts: factTexts(s, atoms, dp.Paraphrase, seed)}
	var rel esr.PairFunc
	if r != nil && !mechanismOff {
		rel = r.ForStream(s, atoms)
	}
	for start := 0; start < len(atoms); {
		end := start + 1
		for end < len(atoms) && atoms[end].EventID == atoms[start].EventID {
			end++
		}
		if rel == nil {
			m.addEpisode(start, end)
		} else {
			for i := start; i < end; i++ {
				m.update(i, rel)
			}
		}
		start = end
	}
	return m
}

// addEpisode is one add() call of the add-only path for atoms[start:end]
// (one episode).
func (m *mem0State) addEpisode(start, end int) {
	retrieved := m.retrieve(m.atoms[start].EventID)
	hashes := map[string]bool{}
	for _, x := range retrieved {
		hashes[m.texts[x.atom]] = true
	}
	for i := start; i < end; i++ {
		a := &m.atoms[i]
		skip := drawUnit(m.seed, m.stream.ID, a.ID, "skip") < m.dp.Skip
		if hashes[m.texts[i]] {
			continue // hash duplicate of a retrieved memory or of this episode's
		}
		if skip && m.equivalent(retrieved, a) {
			continue // the extraction left it out
		}
		hashes[m.texts[i]] = true
		m.add(i)
	}
}

// equivalent reports whether a retrieved memory states a's key and value.
func (m *mem0State) equivalent(retrieved []*m0Memory, a *esr.Atom) bool {
	for _, x := range retrieved {
		if x.key == a.Key() && m.atoms[x.atom].State() == a.State() {
			return true
		}
	}
	return false
}

// retrieve is Phase 1: the dedup-k surviving memories most similar (BM25)
// to the episode's text, or all of them (DedupAll).
func (m *mem0State) retrieve(eventID string) []*m0Memory {
	var live []*m0Memory
	for _, x := range m.mems {
		if !x.deleted {
			live = append(live, x)
		}
	}
	k := m.dp.DedupK
	if k == DedupAll || k >= len(live) {
		return live
	}
	docs := make([]string, len(live))
	for i, x := range live {
		docs[i] = m.texts[x.atom]
	}
	query := ""
	if ev := m.stream.Event(eventID); ev != nil {
		query = ev.Text
	}
	var out []*m0Memory
	for _, i := range newBM25(docs).top(query, k) {
		out = append(out, live[i])
	}
	return out
}

// update is the update pipeline's step for atom i.
func (m *mem0State) update(i int, rel esr.PairFunc) {
	a := &m.atoms[i]
	cur := m.find(func(x *m0Memory) bool { return !x.deleted && x.key == a.Key() })
	if cur == nil {
		m.add(i)
		return
	}
	switch rel(&m.atoms[cur.atom], a) {
	case esr.Supersedes, esr.Refines:
		cur.history[len(cur.history)-1].InvalidAt = a.Timestamp
		cur.atom, cur.updatedAt = i, m.clock(i)
		cur.history = append(cur.history, esr.HistoryEntry{Value: a.Display(), ValidAt: a.Timestamp})
	case esr.Contradicts:
		cur.deleted = true
		cur.history[len(cur.history)-1].InvalidAt = a.Timestamp
	}
}

// clock is the created_at / updated_at stamp of atom i's episode.
func (m *mem0State) clock(i int) esr.Time {
	a := &m.atoms[i]
	if m.dp.CreatedAt == CreatedAtEvent {
		return a.Timestamp
	}
	return esr.Time{Time: IngestionEpoch.Add(time.Duration(a.EventIndex) * time.Second)}
}

// find returns the newest memory satisfying ok, or nil.
func (m *mem0State) find(ok func(*m0Memory) bool) *m0Memory {
	for i := len(m.mems) - 1; i >= 0; i-- {
		if ok(m.mems[i]) {
			return m.mems[i]
		}
	}
	return nil
}

func (m *mem0State) add(i int) {
	a := &m.atoms[i]
	sum := sha1.Sum([]byte(m.stream.ID + "\x00" + a.ID))
	h := hex.EncodeToString(sum[:16])
	id := h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
	t := m.clock(i)
	m.mems = append(m.mems, &m0Memory{id: id, key: a.Key(), atom: i, createdAt: t, updatedAt: t,
		history: []esr.HistoryEntry{{Value: a.Display(), ValidAt: a.Timestamp}}})
}

// KeptAtomIDs lists the atoms whose text a surviving memory holds, in
// ingest order. An atom dropped as a hash duplicate or skipped, replaced by
// an UPDATE or deleted is not kept.
func (m *mem0State) KeptAtomIDs() []string {
	var out []int
	for _, x := range m.mems {
		if !x.deleted {
			out = append(out, x.atom)
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
		if !x.deleted && x.key == k && !contains(out, m.atoms[x.atom].Display()) {
			out = append(out, m.atoms[x.atom].Display())
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
// (esr.Mem0TimeLayout).
func mem0Stamp(t esr.Time) string { return t.UTC().Format(esr.Mem0TimeLayout) }

// Render is the search result: {"results": [...]}, one memory per line,
// in an order that carries no time information (search ranks by score).
func (m *mem0State) Render(esr.Query) string {
	var live []*m0Memory
	var ids []string
	for _, x := range m.mems {
		if !x.deleted {
			live = append(live, x)
			ids = append(ids, x.id)
		}
	}
	var b strings.Builder
	b.WriteString(esr.Mem0Open + "\n")
	for n, i := range layout.Unordered(ids) {
		x := live[i]
		text := m.texts[x.atom]
		b.WriteString("  ")
		b.Write(layout.JSONObject(layout.Field{Key: esr.JSONID, Value: x.id}, layout.Field{Key: esr.JSONMemory, Value: text}, layout.Field{Key: esr.JSONHash, Value: fmt.Sprintf("%x", md5.Sum([]byte(text)))},
			layout.Field{Key: esr.JSONMetadata, Value: nil}, layout.Field{Key: esr.JSONCreatedAt, Value: mem0Stamp(x.createdAt)}, layout.Field{Key: esr.JSONUpdatedAt, Value: mem0Stamp(x.updatedAt)},
			layout.Field{Key: esr.JSONUserID, Value: m.stream.ID}))
		if n < len(live)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(esr.Mem0Close + "\n")
	return b.String()
}

func (m *mem0State) Rows() []Row {
	rows := make([]Row, 0, len(m.keys))
	for _, k := range m.keys {
		r := Row{StreamID: m.stream.ID, Entity: k.Entity, Attribute: k.Attribute, Status: esr.KeyStatusOK,
			Current: nonNil(m.liveValues(k)), Support: []string{}, Deprecated: []string{}, History: []esr.HistoryEntry{}}
		for _, x := range m.mems {
			if x.key != k {
				continue
			}
			if x.deleted {
				r.Deprecated = append(r.Deprecated, m.atoms[x.atom].ID)
			} else {
				r.Support = append(r.Support, m.atoms[x.atom].ID)
				if x.updatedAt.After(r.ValidSince.Time) {
					r.ValidSince = x.updatedAt
				}
			}
			r.History = append(r.History, x.history...)
		}
		rows = append(rows, r)
	}
	return rows
}
