package esr

// Locate finds the key a QA is about: its Entity/Attribute when given;
// otherwise the key most atoms of the gold supporting events carry, then of
// the gold deprecated events; otherwise the stream's key with the most atoms.
// Ties go to the key that reached the top count first in transaction order.
// ok is false when the
// stream has no atoms at all.
func (q *QA) Locate(atoms []Atom) (Key, bool) {
	if q.Entity != "" && q.Attribute != "" {
		return Key{q.Entity, q.Attribute}, true
	}
	for _, ids := range [][]string{q.GoldSupportingEventIDs, q.GoldDeprecatedEventIDs, nil} {
		want := map[string]bool{}
		for _, id := range ids {
			want[id] = true
		}
		count := map[Key]int{}
		var best Key
		bestN := 0
		for i := range atoms {
			if ids != nil && !want[atoms[i].EventID] {
				continue
			}
			k := atoms[i].Key()
			count[k]++
			if count[k] > bestN {
				best, bestN = k, count[k]
			}
		}
		if bestN > 0 {
			return best, true
		}
	}
	return Key{}, false
}

// Query is the memory query for this QA about key k.
func (q *QA) Query(k Key) Query {
	return Query{Type: q.Type(), Key: k, Question: q.Question}
}
