package upstream

import (
	"crypto/sha1"
	"encoding/hex"

	"github.com/esrkit/esrkit/esr"
)

// Memory is one Mem0 memory (a vector-store record: id, text as "data",
// hash, created_at, updated_at) with its history rows.
type Memory struct {
	ID        string
	Key       esr.Key
	Atom      int // atom whose text the memory holds now
	CreatedAt esr.Time
	UpdatedAt esr.Time
	Deleted   bool
	History   []esr.HistoryEntry
}

// DedupAll is Mem0Config.DedupK for "every stored memory".
const DedupAll = -1

// Mem0Config are the choices that drive Mem0's ingest (esr/memory's
// DeployedParams and a clock).
type Mem0Config struct {
	// DedupK is how many retrieved memories hash dedup compares with
	// (Phase 1's top_k), or DedupAll.
	DedupK int
	// Skip(i) reports whether the extraction leaves out atom i when a
	// retrieved memory states its key and value.
	Skip func(i int) bool
	// Clock(i) is the created_at / updated_at stamp of atom i's episode.
	Clock func(i int) esr.Time
}

// IngestMem0 is what Mem0 stores for a stream, in one of its two
// pipelines: its memories in insertion order, deleted ones included.
//
// With rel nil it is the V3 phased batch pipeline of mem0/memory/main.py
// (Memory._add_to_vector_store): per episode, Phase 1 retrieves the top_k
// existing memories for the episode's text (here the DedupK best by BM25 of
// the episode text against the memory texts, ties in insertion order), one
// additive extraction follows, and every extracted memory is inserted except
// one whose hash (its text) equals a retrieved memory's or an earlier one of
// the same episode (Phase 5, hash dedup); when Skip says so the extraction
// itself leaves out a fact equivalent to a retrieved memory (same key and
// value). Nothing is ever updated or deleted, so contradicting memories
// coexist.
//
// With rel set it is the earlier pipeline, where an LLM compares each new
// fact with the retrieved memories and answers ADD, UPDATE, DELETE or NONE
// (DEFAULT_UPDATE_MEMORY_PROMPT in mem0/configs/prompts.py): rel stands in
// for that judgement. No memory for the key: ADD. SUPERSEDES or REFINES:
// UPDATE (same id, text replaced, updated_at set, created_at kept).
// CONTRADICTS: DELETE (the fact itself is not added). SAME_STATE and
// UNRELATED: NONE.
//
// The atoms of stream s are ingested episode by episode (consecutive atoms
// of one event): texts[i] is atom i's memory text.
func IngestMem0(s *esr.Stream, atoms []esr.Atom, texts []string, rel esr.PairFunc, cfg Mem0Config) []*Memory {
	m := &mem0{stream: s, atoms: atoms, texts: texts, cfg: cfg}
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
	return m.mems
}

// mem0 is IngestMem0's state while it ingests.
type mem0 struct {
	mems   []*Memory
	stream *esr.Stream
	atoms  []esr.Atom
	texts  []string
	cfg    Mem0Config
}

// addEpisode is one add() call of the add-only path for atoms[start:end]
// (one episode).
func (m *mem0) addEpisode(start, end int) {
	retrieved := m.retrieve(m.atoms[start].EventID)
	hashes := map[string]bool{}
	for _, x := range retrieved {
		hashes[m.texts[x.Atom]] = true
	}
	for i := start; i < end; i++ {
		a := &m.atoms[i]
		if hashes[m.texts[i]] {
			continue // hash duplicate of a retrieved memory or of this episode's
		}
		if m.cfg.Skip(i) && m.equivalent(retrieved, a) {
			continue // the extraction left it out
		}
		hashes[m.texts[i]] = true
		m.add(i)
	}
}

// equivalent reports whether a retrieved memory states a's key and value.
func (m *mem0) equivalent(retrieved []*Memory, a *esr.Atom) bool {
	for _, x := range retrieved {
		if x.Key == a.Key() && m.atoms[x.Atom].State() == a.State() {
			return true
		}
	}
	return false
}

// retrieve is Phase 1: the DedupK surviving memories most similar (BM25)
// to the episode's text, or all of them (DedupAll).
func (m *mem0) retrieve(eventID string) []*Memory {
	var live []*Memory
	for _, x := range m.mems {
		if !x.Deleted {
			live = append(live, x)
		}
	}
	k := m.cfg.DedupK
	if k == DedupAll || k >= len(live) {
		return live
	}
	docs := make([]string, len(live))
	for i, x := range live {
		docs[i] = m.texts[x.Atom]
	}
	query := ""
	if ev := m.stream.Event(eventID); ev != nil {
		query = ev.Text
	}
	var out []*Memory
	for _, i := range NewBM25(docs).Top(query, k) {
		out = append(out, live[i])
	}
	return out
}

// update is the update pipeline's step for atom i.
func (m *mem0) update(i int, rel esr.PairFunc) {
	a := &m.atoms[i]
	cur := m.find(func(x *Memory) bool { return !x.Deleted && x.Key == a.Key() })
	if cur == nil {
		m.add(i)
		return
	}
	switch rel(&m.atoms[cur.Atom], a) {
	case esr.Supersedes, esr.Refines:
		cur.History[len(cur.History)-1].InvalidAt = a.Timestamp
		cur.Atom, cur.UpdatedAt = i, m.cfg.Clock(i)
		cur.History = append(cur.History, esr.HistoryEntry{Value: a.Display(), ValidAt: a.Timestamp})
	case esr.Contradicts:
		cur.Deleted = true
		cur.History[len(cur.History)-1].InvalidAt = a.Timestamp
	}
}

// find returns the newest memory satisfying ok, or nil.
func (m *mem0) find(ok func(*Memory) bool) *Memory {
	for i := len(m.mems) - 1; i >= 0; i-- {
		if ok(m.mems[i]) {
			return m.mems[i]
		}
	}
	return nil
}

// add inserts atom i as a new memory, its id a UUID-shaped hash of
// (stream, atom).
func (m *mem0) add(i int) {
	a := &m.atoms[i]
	sum := sha1.Sum([]byte(m.stream.ID + "\x00" + a.ID))
	h := hex.EncodeToString(sum[:16])
	id := h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
	t := m.cfg.Clock(i)
	m.mems = append(m.mems, &Memory{ID: id, Key: a.Key(), Atom: i, CreatedAt: t, UpdatedAt: t,
		History: []esr.HistoryEntry{{Value: a.Display(), ValidAt: a.Timestamp}}})
}
