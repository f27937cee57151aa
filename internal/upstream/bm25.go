package upstream

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// BM25 is a small Okapi BM25 index over a handful of documents (Robertson &
// Zaragoza 2009; k1 = 1.2, b = 0.75): rag-topk's retrieval and Mem0's
// Phase 1.
type BM25 struct {
	docs  []map[string]int
	lens  []float64
	avg   float64
	df    map[string]int
	k1, b float64
}

// tokens are the lower-cased letter and digit runs of s.
func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// NewBM25 indexes docs.
func NewBM25(docs []string) *BM25 {
	x := &BM25{df: map[string]int{}, k1: 1.2, b: 0.75}
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

// Top returns the indices of the k highest-scoring documents (stable: equal
// scores keep document order).
func (x *BM25) Top(query string, k int) []int {
	score := x.Scores(query)
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

// Scores returns each document's BM25 score for query, in document order:
// Σ over the query's distinct terms t of idf(t)·f·(k1+1) / (f + k1·(1 − b
// + b·len/avglen)), with idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)) and f
// the term's count in the document.
func (x *BM25) Scores(query string) []float64 {
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
	return score
}
