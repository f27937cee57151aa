package memory_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// benchCorpus makes nStreams streams of 10 events, one atom per event over
// two keys, with GitHub-like texts (some carrying update cues) and three
// actors, so the rule scorer walks all its branches.
func benchCorpus(nStreams int) ([]*esr.Stream, [][]esr.Atom) {
	rng := rand.New(rand.NewPCG(42, 0))
	texts := []string{
		"I can reproduce this on linux with the default config.",
		"Update: use %s instead, the old setting breaks under load.",
		"Maybe %s would help? Not sure.",
		"We reverted to %s after the regression in the last release.",
		"Setting it to %s fixed it for me.",
	}
	actors := []string{"alice", "bob", "maintainer"}
	streams := make([]*esr.Stream, nStreams)
	atoms := make([][]esr.Atom, nStreams)
	for s := range streams {
		st := &esr.Stream{ID: fmt.Sprintf("s%d", s)}
		as := make([]esr.Atom, 0, 10)
		for e := 0; e < 10; e++ {
			v := fmt.Sprintf("%d s", 10*(1+rng.IntN(6)))
			actor := actors[rng.IntN(len(actors))]
			ts := esr.Time{Time: esr.MustTime("2024-01-01").AddDate(0, 0, e)}
			text := texts[rng.IntN(len(texts))]
			if rng.IntN(2) == 0 {
				text = fmt.Sprintf(text, v)
			}
			st.Events = append(st.Events, esr.Event{ID: fmt.Sprintf("e%d", e), Timestamp: ts, Text: text, Actor: &actor})
			as = append(as, esr.Atom{ID: fmt.Sprintf("s%d-a%d", s, e), StreamID: st.ID, EventID: fmt.Sprintf("e%d", e),
				EventIndex: e, Timestamp: ts, Actor: &actor, Entity: "service",
				Attribute: []string{"request_timeout", "retry_delay"}[rng.IntN(2)], Value: v, Polarity: esr.Positive})
		}
		streams[s], atoms[s] = st, as
	}
	return streams, atoms
}

// BenchmarkIngest measures each memory class building its state over one
// million atoms in 100,000 streams with the rule scorer (one op = the whole
// corpus). Report: atoms/s and allocs/atom; compare classes as ratios.
func BenchmarkIngest(b *testing.B) {
	streams, atoms := benchCorpus(100_000)
	total := 0
	for _, a := range atoms {
		total += len(a)
	}
	work := make([]esr.Atom, 10)
	for _, class := range memory.Names {
		b.Run(string(class), func(b *testing.B) {
			opt := memory.Options{Relator: relate.Rule{}}
			b.ReportAllocs()
			for b.Loop() {
				for i, s := range streams {
					work = append(work[:0], atoms[i]...) // fresh atoms: normalisation is part of ingest
					memory.MustBuild(memory.SpecOf(class), s, work, opt)
				}
			}
			b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "atoms/s")
		})
	}
}
