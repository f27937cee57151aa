package coverage_test

import (
	"math"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/coverage"
	"github.com/esrkit/esrkit/internal/synth"
)

// handBench: two QAs. q1: supporting e3, deprecated e1,e2; e2 has no atom;
// e1 and e3 share a key → event recall 2/3, co-key 1/1. q2: supporting e4
// (key B), deprecated e1 (key A) → event recall 2/2, co-key 0/1.
func handBench() *bench.Bench {
	ev := func(id, date string) esr.Event {
		return esr.Event{ID: id, Kind: "comment", Timestamp: esr.MustTime(date)}
	}
	s := &esr.Stream{ID: "s", Source: "hand", Events: []esr.Event{ev("e1", "2024-01-01"), ev("e2", "2024-01-02"), ev("e3", "2024-01-03"), ev("e4", "2024-01-04")}}
	at := func(id, e, attr, v string) esr.Atom {
		return esr.Atom{ID: id, StreamID: "s", EventID: e, Entity: "x", Attribute: attr, Value: v, Polarity: esr.Positive}
	}
	atoms := map[string][]esr.Atom{"s": {at("a1", "e1", "A", "1"), at("a2", "e3", "A", "2"), at("a3", "e3", "C", "2"), at("a4", "e4", "B", "3")}}
	qas := []esr.QA{
		{QID: "q1", StreamID: "s", GoldAnswer: "2", Phenomenon: esr.Monotonic, GoldSupportingEventIDs: []string{"e3"}, GoldDeprecatedEventIDs: []string{"e1", "e2"}},
		{QID: "q2", StreamID: "s", GoldAnswer: "3", Phenomenon: esr.Monotonic, QueryType: esr.Provenance, GoldSupportingEventIDs: []string{"e4"}, GoldDeprecatedEventIDs: []string{"e1"}},
	}
	return bench.New([]*esr.Stream{s}, atoms, qas)
}

func TestMeasureHand(t *testing.T) {
	r := coverage.Measure(handBench(), nil)
	if r.EventRecall.Num != 4 || r.EventRecall.Den != 5 {
		t.Errorf("event recall %d/%d, want 4/5", r.EventRecall.Num, r.EventRecall.Den)
	}
	if r.CoKeyRecall.Num != 1 || r.CoKeyRecall.Den != 2 {
		t.Errorf("co-key recall %d/%d, want 1/2", r.CoKeyRecall.Num, r.CoKeyRecall.Den)
	}
	if r.AtomsPerEvent.Atoms != 4 || r.AtomsPerEvent.EventsWithAtoms != 3 || r.AtomsPerEvent.Events != 4 {
		t.Errorf("atoms per event %+v", r.AtomsPerEvent)
	}
	if r.KeysPerStream.Keys != 3 || r.KeysPerStream.Mean != 3 {
		t.Errorf("keys per stream %+v", r.KeysPerStream)
	}
	if s := r.ByQueryType["snapshot"]; s == nil || s.CoKeyRecall.Num != 1 || s.CoKeyRecall.Den != 1 || s.EventRecall.Den != 3 {
		t.Errorf("snapshot row %+v", s)
	}
	if s := r.BySource["hand"]; s == nil || s.QAs != 2 {
		t.Errorf("source row %+v", s)
	}
	only := coverage.Measure(handBench(), func(q *esr.QA) bool { return q.Type() == esr.Provenance })
	if only.QAs != 1 || only.CoKeyRecall.Num != 0 || only.CoKeyRecall.Den != 1 {
		t.Errorf("filtered %+v", only.Recalls)
	}
}

// TestSyntheticKnobs: on synthetic benches generated with an event recall of
// 0.86 and a co-key recall of 0.96 (the paper's Appendix F figures), the
// measured snapshot coverage matches the knobs within 3 binomial standard
// errors; without noise both are exactly 1.
func TestSyntheticKnobs(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		cfg := synth.DefaultConfig()
		cfg.Seed, cfg.EventRecall, cfg.CoKeyRecall = seed, 0.86, 0.96
		if testing.Short() {
			cfg.PerStratum = 30
		}
		b, err := synth.Generate(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := coverage.Measure(b, func(q *esr.QA) bool { return q.Type() == esr.Snapshot })
		for _, c := range []struct {
			name string
			got  coverage.Ratio
			want float64
		}{{"event recall", r.EventRecall, 0.86}, {"co-key recall", r.CoKeyRecall, 0.96}} {
			se := math.Sqrt(c.want * (1 - c.want) / float64(c.got.Den))
			if math.Abs(c.got.Value-c.want) > 3*se {
				t.Errorf("seed %d: %s %.4f (%d/%d), knob %.2f, |Δ| > 3 SE = %.4f", seed, c.name, c.got.Value, c.got.Num, c.got.Den, c.want, 3*se)
			}
			t.Logf("seed %d: %s %.4f (%d/%d), knob %.2f ± %.4f", seed, c.name, c.got.Value, c.got.Num, c.got.Den, c.want, 3*se)
		}
	}
	cfg := synth.DefaultConfig()
	cfg.PerStratum = 10
	b, _ := synth.Generate(cfg)
	if r := coverage.Measure(b, nil); r.EventRecall.Value != 1 || r.CoKeyRecall.Value != 1 {
		t.Errorf("noise-free bench: event recall %v, co-key %v", r.EventRecall, r.CoKeyRecall)
	}
}

func TestBinOf(t *testing.T) {
	for n, want := range map[int]int{1: -1, 2: 0, 5: 0, 6: 1, 7: 2, 10: 2, 11: 3, 20: 3, 21: 4, 70: 4, 71: 5} {
		if got := coverage.BinOf(n); got != want {
			t.Errorf("BinOf(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestDescribe(t *testing.T) {
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	c := coverage.Describe(b)
	sum := 0
	for _, m := range c.BySourceStratumQuery {
		for _, q := range m {
			for _, n := range q {
				sum += n
			}
		}
	}
	if sum != c.QAs || c.QAs != len(b.QAs) {
		t.Errorf("cells sum to %d, %d QAs", sum, c.QAs)
	}
	streams, qas := 0, 0
	for _, bc := range c.LengthBins {
		streams += bc.Streams
		qas += bc.QAs
		// The bundled bench spreads its questions over Table 12's bins as
		// the paper's quintiles of items (lab.GenPreset "paper"), so every
		// bin holds a good share of the questions (short streams hold
		// fewer questions each, so more of the streams).
		if bc.QAs < c.QAs/10 {
			t.Errorf("bin %s holds only %d of %d QAs", bc.Label, bc.QAs, c.QAs)
		}
	}
	if streams+c.ShortStreams+c.LongStreams != c.Streams || qas > c.QAs {
		t.Errorf("bins: %d streams (+%d +%d) of %d", streams, c.ShortStreams, c.LongStreams, c.Streams)
	}
	for _, ph := range esr.Phenomena {
		for _, qt := range esr.QueryTypes {
			n := 0
			for _, m := range c.BySourceStratumQuery {
				n += m[string(ph)][string(qt)]
			}
			defined := ph != esr.CrossSourceConflict || qt == esr.Snapshot
			if defined && n < 150 {
				t.Errorf("%s × %s: %d QAs, want ≥ 150", ph, qt, n)
			}
		}
	}
	if c.Text() == "" {
		t.Error("empty text")
	}
}

// A question about a key with no atom in its stream (a lossy extraction)
// is measured like any other and counted, overall and in its rows.
func TestMeasureCountsQuestionsWithoutAtoms(t *testing.T) {
	b := handBench()
	qas := append(b.QAs, esr.QA{QID: "q3", StreamID: "s", GoldAnswer: "9", Phenomenon: esr.Monotonic, Entity: "x", Attribute: "D",
		GoldSupportingEventIDs: []string{"e2"}})
	b = bench.New(b.Streams, b.Atoms, qas)
	r := coverage.Measure(b, nil)
	if r.QAs != 3 || r.Uncovered != 1 || r.ByQueryType["snapshot"].Uncovered != 1 || r.ByQueryType["provenance"].Uncovered != 0 || r.BySource["hand"].Uncovered != 1 {
		t.Errorf("uncovered: overall %+v, by type %+v %+v", r.Recalls, r.ByQueryType["snapshot"], r.ByQueryType["provenance"])
	}
	if r.EventRecall.Num != 4 || r.EventRecall.Den != 6 {
		t.Errorf("event recall %d/%d, want 4/6 (q3's one gold event has no atom)", r.EventRecall.Num, r.EventRecall.Den)
	}
}
