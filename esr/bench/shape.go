package bench

import (
	"math"
	"sort"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/layout"
)

// Ratio is a proportion with its parts and binomial standard error
// sqrt(p(1−p)/Den). Value and SE are 0 when Den is 0.
type Ratio struct {
	Num   int     `json:"num"`
	Den   int     `json:"den"`
	Value float64 `json:"value"`
	SE    float64 `json:"se"`
}

// NewRatio is Num/Den with its binomial standard error.
func NewRatio(num, den int) Ratio {
	r := Ratio{Num: num, Den: den}
	if den > 0 {
		r.Value = float64(num) / float64(den)
		r.SE = math.Sqrt(r.Value * (1 - r.Value) / float64(den))
	}
	return r
}

// EventKeys maps each event id of a stream's atoms to the keys of its atoms
// (an event with no atom is absent).
func EventKeys(atoms []esr.Atom) map[string]map[esr.Key]bool {
	m := map[string]map[esr.Key]bool{}
	for i := range atoms {
		a := &atoms[i]
		if m[a.EventID] == nil {
			m[a.EventID] = map[esr.Key]bool{}
		}
		m[a.EventID][a.Key()] = true
	}
	return m
}

// EvidenceCoverage is one QA's part in the paper's extraction coverage
// (App. F, spec §6), given its stream's EventKeys:
//   - Relevant: its gold-relevant events, supporting ∪ deprecated;
//     Extracted: how many of them carry at least one atom (event recall
//     sums both over QAs);
//   - CoKeyEligible: some supporting and some deprecated event carry an
//     atom; CoKeyShared: and some key has atoms in both (co-key recall is
//     shared over eligible QAs).
type EvidenceCoverage struct {
	Relevant, Extracted        int
	CoKeyEligible, CoKeyShared bool
}

// CoverageOf is q's EvidenceCoverage under ev (EventKeys of q's stream).
func CoverageOf(ev map[string]map[esr.Key]bool, q *esr.QA) EvidenceCoverage {
	var c EvidenceCoverage
	relevant := map[string]bool{}
	for _, id := range q.GoldSupportingEventIDs {
		relevant[id] = true
	}
	for _, id := range q.GoldDeprecatedEventIDs {
		relevant[id] = true
	}
	c.Relevant = len(relevant)
	for id := range relevant {
		if len(ev[id]) > 0 {
			c.Extracted++
		}
	}
	sup, dep := keysOfEvents(ev, q.GoldSupportingEventIDs), keysOfEvents(ev, q.GoldDeprecatedEventIDs)
	c.CoKeyEligible = sup != nil && dep != nil
	for k := range sup {
		if dep[k] {
			c.CoKeyShared = true
			break
		}
	}
	return c
}

// keysOfEvents is the union of the listed events' keys, nil when none of
// them carries an atom.
func keysOfEvents(ev map[string]map[esr.Key]bool, ids []string) map[esr.Key]bool {
	var out map[esr.Key]bool
	for _, id := range ids {
		for k := range ev[id] {
			if out == nil {
				out = map[esr.Key]bool{}
			}
			out[k] = true
		}
	}
	return out
}

// Shape is a benchmark's composition in the terms the paper reports
// ESR-Bench's (App. F "Extractor coverage", §3 and Table 1, Table 12),
// computed from the loaded files alone: streams, atoms and QAs, nothing a
// generator recorded about them.
//
//   - AtomsPerEvent = atoms / events; AtomsPerEventWithAtoms = atoms /
//     events carrying at least one atom (App. F's "Mean 2.6 atoms/event"
//     does not say which).
//   - KeysPerStream = Σ distinct (entity, attribute) keys / streams with at
//     least one atom (App. F: "3.7–4.2 distinct keys/stream").
//   - EventRecall and CoKeyRecall over snapshot QAs, as spec §6 defines them
//     (App. F: 0.86 = 1770/2055 and 0.96 = 585/609 on GitHub).
//   - MonotonicShare = monotonic snapshot QAs / snapshot QAs (§3: 2,631 of
//     2,907). RareStreams counts the streams with a snapshot QA of another
//     stratum, and RareStreamQAs / RareStreamMonotonic their snapshot QAs and
//     the monotonic ones among them (a rare stream's side keys are
//     monotonic): what a bench that oversamples the rare strata by stream
//     needs to weigh its streams back.
//   - StreamTokens: quantiles over streams of Σ layout.CountTokens(event
//     text), the kit's cl100k_base approximation.
//   - LengthBins: streams and snapshot QAs per Table 12 bin, with the QA
//     share (Table 12's bins are quintiles of its items).
//   - Sources: snapshot QAs per source.
//
// The paper's QAs are current-value questions; the kit's provenance and
// relation-type QAs are left out of every QA-based row.
type Shape struct {
	Streams                int     `json:"streams"`
	Events                 int     `json:"events"`
	Atoms                  int     `json:"atoms"`
	EventsWithAtoms        int     `json:"events_with_atoms"`
	AtomsPerEvent          float64 `json:"atoms_per_event"`
	AtomsPerEventWithAtoms float64 `json:"atoms_per_event_with_atoms"`
	Keys                   int     `json:"keys"`
	StreamsWithAtoms       int     `json:"streams_with_atoms"`
	KeysPerStream          float64 `json:"keys_per_stream"`
	SnapshotQAs            int     `json:"snapshot_qas"`
	EventRecall            Ratio   `json:"event_recall"`
	CoKeyRecall            Ratio   `json:"cokey_recall"`
	MonotonicShare         Ratio   `json:"monotonic_share"`
	RareStreams            int     `json:"rare_streams"`
	RareStreamQAs          int     `json:"rare_stream_snapshot_qas"`
	RareStreamMonotonic    int     `json:"rare_stream_monotonic_qas"`
	StreamTokens           struct {
		P10    int `json:"p10"`
		Median int `json:"median"`
		P90    int `json:"p90"`
		Max    int `json:"max"`
	} `json:"stream_tokens"`
	LengthBins []ShapeBin     `json:"length_bins"`
	Sources    map[string]int `json:"snapshot_qas_by_source"`
}

// ShapeBin is one Table 12 bin in a Shape: its streams, its snapshot QAs
// and their share of all snapshot QAs (streams outside the bins count in
// no bin).
type ShapeBin struct {
	LengthBin
	Streams     int     `json:"streams"`
	SnapshotQAs int     `json:"snapshot_qas"`
	QAShare     float64 `json:"qa_share"`
}

// MeasureShape computes b's Shape.
func MeasureShape(b *Bench) *Shape {
	s := &Shape{Streams: len(b.Streams), Sources: map[string]int{}}
	evKeys := map[string]map[string]map[esr.Key]bool{}
	bins := map[string]int{}
	var tokens []int
	for _, st := range b.Streams {
		atoms := b.Atoms[st.ID]
		ev := EventKeys(atoms)
		evKeys[st.ID] = ev
		s.Events += len(st.Events)
		s.Atoms += len(atoms)
		s.EventsWithAtoms += len(ev)
		keys := map[esr.Key]bool{}
		for i := range atoms {
			keys[atoms[i].Key()] = true
		}
		if len(keys) > 0 {
			s.StreamsWithAtoms++
			s.Keys += len(keys)
		}
		n := 0
		for i := range st.Events {
			n += layout.CountTokens(st.Events[i].Text)
		}
		tokens = append(tokens, n)
		bins[st.ID] = LengthBinOf(len(st.Events))
	}
	s.AtomsPerEvent = div(s.Atoms, s.Events)
	s.AtomsPerEventWithAtoms = div(s.Atoms, s.EventsWithAtoms)
	s.KeysPerStream = div(s.Keys, s.StreamsWithAtoms)
	if len(tokens) > 0 {
		sort.Ints(tokens)
		q := func(p float64) int { return tokens[int(p*float64(len(tokens)-1)+0.5)] }
		s.StreamTokens.P10, s.StreamTokens.Median, s.StreamTokens.P90, s.StreamTokens.Max = q(0.1), median(tokens), q(0.9), tokens[len(tokens)-1]
	}
	for _, bn := range LengthBins {
		s.LengthBins = append(s.LengthBins, ShapeBin{LengthBin: bn})
	}
	for _, st := range b.Streams {
		if i := bins[st.ID]; i >= 0 && i < len(LengthBins) {
			s.LengthBins[i].Streams++
		}
	}
	rare := map[string]bool{}
	for i := range b.QAs {
		if q := &b.QAs[i]; q.Type() == esr.Snapshot && q.Phenomenon != esr.Monotonic {
			rare[q.StreamID] = true
		}
	}
	s.RareStreams = len(rare)
	var evNum, evDen, ckNum, ckDen, mono int
	for i := range b.QAs {
		q := &b.QAs[i]
		if q.Type() != esr.Snapshot {
			continue
		}
		s.SnapshotQAs++
		c := CoverageOf(evKeys[q.StreamID], q)
		evNum += c.Extracted
		evDen += c.Relevant
		if c.CoKeyEligible {
			ckDen++
			if c.CoKeyShared {
				ckNum++
			}
		}
		if q.Phenomenon == esr.Monotonic {
			mono++
		}
		if rare[q.StreamID] {
			s.RareStreamQAs++
			if q.Phenomenon == esr.Monotonic {
				s.RareStreamMonotonic++
			}
		}
		s.Sources[QASource(b, q)]++
		if bi, ok := bins[q.StreamID]; ok && bi >= 0 && bi < len(LengthBins) {
			s.LengthBins[bi].SnapshotQAs++
		}
	}
	s.EventRecall, s.CoKeyRecall, s.MonotonicShare = NewRatio(evNum, evDen), NewRatio(ckNum, ckDen), NewRatio(mono, s.SnapshotQAs)
	for i := range s.LengthBins {
		s.LengthBins[i].QAShare = div(s.LengthBins[i].SnapshotQAs, s.SnapshotQAs)
	}
	return s
}

// QASource is q's source: its own field, else its stream's, else
// "unknown".
func QASource(b *Bench, q *esr.QA) string {
	if q.Source != "" {
		return q.Source
	}
	if s := b.Stream(q.StreamID); s != nil && s.Source != "" {
		return s.Source
	}
	return "unknown"
}

func div(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// median of sorted xs (not empty): the middle value, or the mean of the two
// middle values rounded down.
func median(xs []int) int {
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
