package memory

import (
	"crypto/md5"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

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

// mem0State is Mem0 as deployed, in one of its two pipelines.
//
// mem0-v3 (rel == nil) is the V3 phased batch pipeline of
// mem0/memory/main.py (Memory._add_to_vector_store): one additive
// extraction, then every extracted memory is inserted, except one whose MD5
// hash equals an existing memory's (Phase 5, hash dedup). Nothing is ever
// updated or deleted, so contradicting memories coexist: the store is
// d-blind, and it uses no relations at all (its render-matched control is
// the same build). A value that returns (A → B → A) is dropped as a hash
// duplicate of A's memory, which keeps A's old created_at.
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
// the mechanism off there is no update step: each fact is added unless its
// text is already stored, which is the add-only store.
//
// Both render the memory list as Mem0's search returns it:
// {"results": [{"id", "memory", "hash", "metadata", "created_at",
// "updated_at", "user_id"}]}, one memory per line.
type mem0State struct {
	name   string
	stream *esr.Stream
	atoms  []esr.Atom
	mems   []*m0Memory
	keys   []esr.Key
}

func newMem0State(name string, s *esr.Stream, atoms []esr.Atom, r esr.Relator, mechanismOff bool) *mem0State {
	m := &mem0State{name: name, stream: s, atoms: atoms, keys: keysInOrder(atoms)}
	var rel esr.PairFunc
	if r != nil && !mechanismOff {
		rel = r.ForStream(s, atoms)
	}
	for i := range atoms {
		a := &atoms[i]
		text := factText(a)
		if rel == nil {
			if m.find(func(x *m0Memory) bool { return !x.deleted && factText(&atoms[x.atom]) == text }) != nil {
				continue // hash duplicate (v3), or NONE (update pipeline, mechanism off)
			}
			m.add(i)
			continue
		}
		cur := m.find(func(x *m0Memory) bool { return !x.deleted && x.key == a.Key() })
		if cur == nil {
			m.add(i)
			continue
		}
		switch rel(&atoms[cur.atom], a) {
		case esr.Supersedes, esr.Refines:
			cur.history[len(cur.history)-1].InvalidAt = a.Timestamp
			cur.atom, cur.updatedAt = i, a.Timestamp
			cur.history = append(cur.history, esr.HistoryEntry{Value: a.Display(), ValidAt: a.Timestamp})
		case esr.Contradicts:
			cur.deleted = true
			cur.history[len(cur.history)-1].InvalidAt = a.Timestamp
		}
	}
	return m
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
	m.mems = append(m.mems, &m0Memory{id: id, key: a.Key(), atom: i, createdAt: a.Timestamp, updatedAt: a.Timestamp,
		history: []esr.HistoryEntry{{Value: a.Display(), ValidAt: a.Timestamp}}})
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

// mem0Stamp writes a time as Python's isoformat() of an aware UTC datetime.
func mem0Stamp(t esr.Time) string { return t.Format("2006-01-02T15:04:05") + "+00:00" }

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
	b.WriteString("{\"results\": [\n")
	for n, i := range unordered(ids) {
		x := live[i]
		text := factText(&m.atoms[x.atom])
		js, _ := json.Marshal(struct {
			ID        string  `json:"id"`
			Memory    string  `json:"memory"`
			Hash      string  `json:"hash"`
			Metadata  *string `json:"metadata"`
			CreatedAt string  `json:"created_at"`
			UpdatedAt string  `json:"updated_at"`
			UserID    string  `json:"user_id"`
		}{x.id, text, fmt.Sprintf("%x", md5.Sum([]byte(text))), nil, mem0Stamp(x.createdAt), mem0Stamp(x.updatedAt), m.stream.ID})
		b.WriteString("  ")
		b.Write(js)
		if n < len(live)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
	return b.String()
}

func (m *mem0State) Rows() []Row {
	rows := make([]Row, 0, len(m.keys))
	for _, k := range m.keys {
		r := Row{StreamID: m.stream.ID, Entity: k.Entity, Attribute: k.Attribute, Status: "ok",
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
