package bench

// StreamLengths maps each qid to its stream's event count.
func StreamLengths(b *Bench) map[string]int {
	out := make(map[string]int, len(b.QAs))
	for _, q := range b.QAs {
		if s := b.Stream(q.StreamID); s != nil {
			out[q.QID] = len(s.Events)
		}
	}
	return out
}
