// Package coverage measures how well a benchmark's atoms cover its gold
// evidence (the paper's Appendix F "Extractor coverage", spec §6) and
// describes a benchmark's composition (the paper's Table 1, with the stream
// length bins of Table 12).
//
// Extraction coverage, exactly as spec §6 defines it:
//   - event recall = Σ over QAs of |gold-relevant events with ≥ 1 atom| /
//     Σ over QAs of |gold-relevant events|, where a QA's gold-relevant events
//     are its supporting ∪ deprecated event ids;
//   - co-key recall = among QAs with at least one supporting and at least one
//     deprecated event extracted (carrying an atom), the share whose key sets
//     intersect: some (entity, attribute) key has atoms both in a supporting
//     and in a deprecated event.
//
// Both are reported overall, by query type and by source, with numerators,
// denominators and binomial standard errors. Note that a provenance QA's
// supporting events (the prior value's) are among its deprecated events, so
// its co-key check is trivially met; the paper's figures are over current-
// value questions (use the by-query-type rows or a query filter).
package coverage

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// Ratio is a proportion with its parts and binomial standard error
// (bench.Ratio).
type Ratio = bench.Ratio

func ratio(num, den int) Ratio { return bench.NewRatio(num, den) }

// Recalls are the two coverage measures over a set of QAs, and how many
// of them ask about a key with no atom in their stream (bench.Bench's
// Uncovered: evaluated like any other, with nothing in any memory).
type Recalls struct {
	QAs         int   `json:"qas"`
	EventRecall Ratio `json:"event_recall"`
	CoKeyRecall Ratio `json:"cokey_recall"`
	Uncovered   int   `json:"uncovered_qas"`
}

// Report is `esr coverage`'s output.
type Report struct {
	Recalls
	ByQueryType map[string]*Recalls `json:"by_query_type"`
	BySource    map[string]*Recalls `json:"by_source"`
	// AtomsPerEvent: atoms over events that carry at least one atom, and
	// over all events.
	AtomsPerEvent struct {
		Atoms           int     `json:"atoms"`
		EventsWithAtoms int     `json:"events_with_atoms"`
		Events          int     `json:"events"`
		PerEventWith    float64 `json:"per_event_with_atoms"`
		PerEvent        float64 `json:"per_event"`
	} `json:"atoms_per_event"`
	// KeysPerStream: distinct (entity, attribute) keys per stream with atoms.
	KeysPerStream struct {
		Keys             int     `json:"keys"`
		StreamsWithAtoms int     `json:"streams_with_atoms"`
		Streams          int     `json:"streams"`
		Mean             float64 `json:"mean"`
	} `json:"keys_per_stream"`
}

type tally struct{ qas, evNum, evDen, ckNum, ckDen, uncovered int }

func (t *tally) recalls() *Recalls {
	return &Recalls{QAs: t.qas, EventRecall: ratio(t.evNum, t.evDen), CoKeyRecall: ratio(t.ckNum, t.ckDen), Uncovered: t.uncovered}
}

// QASource is a QA's source: its own field, else its stream's, else
// "unknown" (bench.QASource).
func QASource(b *bench.Bench, q *esr.QA) string { return bench.QASource(b, q) }

// Measure computes coverage over the QAs keep accepts (nil: all).
func Measure(b *bench.Bench, keep func(*esr.QA) bool) *Report {
	// keys of each event's atoms, per stream
	keysOf := map[string]map[string]map[esr.Key]bool{}
	rep := &Report{ByQueryType: map[string]*Recalls{}, BySource: map[string]*Recalls{}}
	for _, s := range b.Streams {
		atoms := b.Atoms[s.ID]
		m := bench.EventKeys(atoms)
		streamKeys := map[esr.Key]bool{}
		for i := range atoms {
			streamKeys[atoms[i].Key()] = true
		}
		rep.AtomsPerEvent.Atoms += len(atoms)
		keysOf[s.ID] = m
		rep.AtomsPerEvent.Events += len(s.Events)
		rep.AtomsPerEvent.EventsWithAtoms += len(m)
		rep.KeysPerStream.Streams++
		if len(streamKeys) > 0 {
			rep.KeysPerStream.StreamsWithAtoms++
			rep.KeysPerStream.Keys += len(streamKeys)
		}
	}
	if n := rep.AtomsPerEvent.EventsWithAtoms; n > 0 {
		rep.AtomsPerEvent.PerEventWith = float64(rep.AtomsPerEvent.Atoms) / float64(n)
	}
	if n := rep.AtomsPerEvent.Events; n > 0 {
		rep.AtomsPerEvent.PerEvent = float64(rep.AtomsPerEvent.Atoms) / float64(n)
	}
	if n := rep.KeysPerStream.StreamsWithAtoms; n > 0 {
		rep.KeysPerStream.Mean = float64(rep.KeysPerStream.Keys) / float64(n)
	}

	uncovered := map[string]bool{}
	for _, qid := range b.Uncovered {
		uncovered[qid] = true
	}
	all := &tally{}
	byQT, bySrc := map[string]*tally{}, map[string]*tally{}
	for i := range b.QAs {
		q := &b.QAs[i]
		if keep != nil && !keep(q) {
			continue
		}
		c := bench.CoverageOf(keysOf[q.StreamID], q)
		qt, src := string(q.Type()), QASource(b, q)
		for _, t := range []*tally{all, get(byQT, qt), get(bySrc, src)} {
			t.qas++
			if uncovered[q.QID] {
				t.uncovered++
			}
			t.evNum += c.Extracted
			t.evDen += c.Relevant
			if c.CoKeyEligible {
				t.ckDen++
				if c.CoKeyShared {
					t.ckNum++
				}
			}
		}
	}
	rep.Recalls = *all.recalls()
	for k, t := range byQT {
		rep.ByQueryType[k] = t.recalls()
	}
	for k, t := range bySrc {
		rep.BySource[k] = t.recalls()
	}
	return rep
}

func get(m map[string]*tally, k string) *tally {
	t := m[k]
	if t == nil {
		t = &tally{}
		m[k] = t
	}
	return t
}
