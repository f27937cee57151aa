package memory

import (
	"github.com/esrkit/esrkit/internal/layout"
	"github.com/esrkit/esrkit/internal/upstream"

	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// DefaultTopK is how many events rag-topk retrieves unless told otherwise.
const DefaultTopK = 5

// ragState is RAG-TOP-K: per question, the k events most relevant to it by
// BM25 (Robertson & Zaragoza 2009; k1 = 1.2, b = 0.75), read as text.
type ragState struct {
	name   string
	stream *esr.Stream
	atoms  []esr.Atom
	k      int
	index  *upstream.BM25
}

// buildRAG builds rag-topk over opt.TopK events.
func buildRAG(_ Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	return newRAGState(name, s, atoms, opt.TopK), nil
}

func newRAGState(name string, s *esr.Stream, atoms []esr.Atom, k int) *ragState {
	if k <= 0 {
		k = DefaultTopK
	}
	docs := make([]string, len(s.Events))
	for i := range s.Events {
		docs[i] = s.Events[i].Text
	}
	return &ragState{name: name, stream: s, atoms: atoms, k: k, index: upstream.NewBM25(docs)}
}

// retrieve is the text state over the top-k events for q: the question
// text plus the key's attribute words form the query, and the k events of
// highest BM25 score are kept. Ties go to the newer event (later in the
// stream's time order): updates of one key are worded alike and score
// alike, and the older-first order that a stable sort keeps dropped the
// newest of six or more updates from a top 5.
func (r *ragState) retrieve(q esr.Query) *textState {
	query := q.Question + " " + strings.ReplaceAll(q.Key.Attribute, "_", " ")
	score := r.index.Scores(query)
	top := make([]int, len(score))
	for i := range top {
		top[i] = i
	}
	sort.Slice(top, func(a, b int) bool {
		if score[top[a]] != score[top[b]] {
			return score[top[a]] > score[top[b]]
		}
		return top[a] > top[b]
	})
	top = top[:min(r.k, len(top))]
	sort.Ints(top)
	events := make([]esr.Event, len(top))
	for i, j := range top {
		events[i] = r.stream.Events[j]
	}
	return newTextState(r.name, r.stream, r.atoms, events)
}

func (r *ragState) Class() string                 { return r.name }
func (r *ragState) MayAbstain() bool              { return true }
func (r *ragState) Answer(q esr.Query) esr.Answer { return r.retrieve(q).Answer(q) }
func (r *ragState) Render(q esr.Query) string     { return r.retrieve(q).Render(q) }

// Rows describe what a snapshot question about each key would retrieve.
func (r *ragState) Rows() []Row {
	var rows []Row
	for _, k := range layout.KeysInOrder(r.atoms) {
		for _, row := range r.retrieve(esr.Query{Type: esr.Snapshot, Key: k}).Rows() {
			if row.Entity == k.Entity && row.Attribute == k.Attribute {
				rows = append(rows, row)
			}
		}
	}
	return rows
}
