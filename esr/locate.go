package esr

import (
	"strings"
	"unicode"
)

// Locate finds the key a QA is about, from what a question asker knows and
// never from the QA's gold fields (spec §3: no memory and no reader reads a
// QA's gold supporting or deprecated events at answer time):
//   - its Entity/Attribute when given (the key the question names);
//   - otherwise the key whose entity and attribute words (attributes split
//     at underscores) overlap the question's words most;
//   - otherwise, with no overlap at all, the stream's key with the most atoms.
//
// Ties go to the key seen first in transaction order. ok is false when the
// stream has no atoms at all.
func (q *QA) Locate(atoms []Atom) (Key, bool) {
	if q.Entity != "" && q.Attribute != "" {
		return Key{q.Entity, q.Attribute, q.Facet}, true
	}
	if len(atoms) == 0 {
		return Key{}, false
	}
	words := map[string]bool{}
	for _, w := range wordsOf(q.Question) {
		words[w] = true
	}
	var keys []Key
	count := map[Key]int{}
	for i := range atoms {
		k := atoms[i].Key()
		if count[k] == 0 {
			keys = append(keys, k)
		}
		count[k]++
	}
	best, bestScore, bestN := keys[0], -1, -1
	for _, k := range keys {
		score := 0
		seen := map[string]bool{}
		for _, w := range wordsOf(k.Entity + " " + strings.ReplaceAll(k.Attribute, "_", " ")) {
			if words[w] && !seen[w] {
				seen[w] = true
				score++
			}
		}
		if score > bestScore || score == bestScore && count[k] > bestN {
			best, bestScore, bestN = k, score, count[k]
		}
	}
	return best, true
}

// wordsOf lower-cases s and splits it into letter-or-digit words.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Query is the memory query for this QA about key k.
func (q *QA) Query(k Key) Query {
	return Query{Type: q.Type(), Key: k, Question: q.Question}
}
