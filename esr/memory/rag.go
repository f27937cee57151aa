package memory

import (
	"github.com/esrkit/esrkit/internal/layout"

	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/esrkit/esrkit/esr"
)

// DefaultTopK is how many events rag-topk retrieves unless told otherwise.
const DefaultTopK = 5

// ragState is RAG-TOP-K: per question, the k events most relevant to it by
// BM25 (Robertson & Zaragoza 2009; k1 = 1.2, b = 0.75), read as text.
type ragState struct {
	stream *esr.Stream
	atoms  []esr.Atom
	k      int
	index  *bm25
}

func newRAGState(s *esr.Stream, atoms []esr.Atom, k int) *ragState {
	if k <= 0 {
		k = DefaultTopK
	}
	docs := make([]string, len(s.Events))
	for i := range s.Events {
		docs[i] = s.Events[i].Text
	}
	return &ragState{stream: s, atoms: atoms, k: k, index: newBM25(docs)}
}

// retrieve is the text state over the top-k events for q (ties keep stream
// order; the question text plus the key's attribute words form the query).
func (r *ragState) retrieve(q esr.Query) *textState {
	query := q.Question + " " + strings.ReplaceAll(q.Key.Attribute, "_", " ")
	top := r.index.top(query, r.k)
	sort.Ints(top)
	events := make([]esr.Event, len(top))
	for i, j := range top {
		events[i] = r.stream.Events[j]
	}
	return newTextState(RAGTopK, r.stream, r.atoms, events)
}

func (r *ragState) Class() string                 { return RAGTopK }
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

// bm25 is a small Okapi BM25 index over a handful of documents.
type bm25 struct {
	docs  []map[string]int
	lens  []float64
	avg   float64
	df    map[string]int
	k1, b float64
}

func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func newBM25(docs []string) *bm25 {
	x := &bm25{df: map[string]int{}, k1: 1.2, b: 0.75}
	total := 0.0
	for _, d := range docs {
		tf := map[string]int{}
		toks := tokens(d)
		for _, t := range toks {
			tf[t]++
		}
		for t := range tf {
			x.df[t]++
		}
		x.docs = append(x.docs, tf)
		x.lens = append(x.lens, float64(len(toks)))
		total += float64(len(toks))
	}
	if len(docs) > 0 {
		x.avg = total / float64(len(docs))
	}
	return x
}

// top returns the indices of the k highest-scoring documents (stable: equal
// scores keep document order).
func (x *bm25) top(query string, k int) []int {
	n := float64(len(x.docs))
	score := make([]float64, len(x.docs))
	seen := map[string]bool{}
	for _, t := range tokens(query) {
		if seen[t] {
			continue
		}
		seen[t] = true
		df := float64(x.df[t])
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for i, tf := range x.docs {
			f := float64(tf[t])
			if f == 0 {
				continue
			}
			norm := 1 - x.b
			if x.avg > 0 {
				norm += x.b * x.lens[i] / x.avg
			}
			score[i] += idf * f * (x.k1 + 1) / (f + x.k1*norm)
		}
	}
	idx := make([]int, len(x.docs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
	if k < len(idx) {
		idx = idx[:k]
	}
	return idx
}
