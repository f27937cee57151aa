package memory_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
)

// oneLongKey is a stream whose n atoms (one per event, a minute apart,
// values cycling through four) are all about one key.
func oneLongKey(n int) (*esr.Stream, []esr.Atom) {
	s := &esr.Stream{ID: "long"}
	atoms := make([]esr.Atom, n)
	t0 := esr.MustTime("2024-01-01T00:00:00Z")
	for i := range atoms {
		ts := esr.Time{Time: t0.Add(time.Duration(i) * time.Minute)}
		id := fmt.Sprintf("e%d", i)
		s.Events = append(s.Events, esr.Event{ID: id, Kind: "comment", Timestamp: ts, Text: "timeout set"})
		atoms[i] = esr.Atom{ID: fmt.Sprintf("a%d", i), StreamID: s.ID, EventID: id, EventIndex: i, Timestamp: ts,
			Entity: "svc", Attribute: "timeout", Value: fmt.Sprintf("%d s", 10*(i%4+1)), Polarity: esr.Positive, Confidence: 1}
	}
	return s, atoms
}

// BenchmarkRenderOnlyOneKey builds render-only on one key of 20k and 200k
// atoms and reads it once (render and snapshot): linear in the key's atoms,
// so the 200k case costs about ten times the 20k one.
func BenchmarkRenderOnlyOneKey(b *testing.B) {
	for _, n := range []int{20000, 200000} {
		s, atoms := oneLongKey(n)
		q := esr.Query{Type: esr.Snapshot, Key: esr.Key{Entity: "svc", Attribute: "timeout"}, Question: "What is the timeout?"}
		b.Run(fmt.Sprintf("atoms=%d", n), func(b *testing.B) {
			for b.Loop() {
				st, err := memory.Build(memory.SpecOf(memory.RenderOnly), s, atoms, memory.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if st.Render(q) == "" || st.Answer(q) != esr.Abstain {
					b.Fatal("render-only of disagreeing values must render and abstain")
				}
			}
		})
	}
}
