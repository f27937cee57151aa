package dyknow

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/esrkit/esrkit/internal/importers/history"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// Source is the QA and stream source label of the converted benchmark.
const Source = "dyknow"

// Exclusion records a slot left out of the benchmark and why.
type Exclusion struct {
	StreamID  string   `json:"stream_id"`
	Category  string   `json:"category"`
	Entity    string   `json:"entity"`
	Attribute string   `json:"attribute"`
	Reason    string   `json:"reason"`
	Values    []string `json:"values"`
}

// Exclusion reasons.
const (
	ReasonSeveralOpen = "several open values at once (faceted slot, e.g. a club and a national team; ESR keys are single-valued)"
	ReasonNoOpen      = "no open value (every value has an end date or a point in time)"
	ReasonOpenNotLast = "the open value is not the latest to start"
)

// Result is a conversion: the benchmark, the excluded slots and counts.
type Result struct {
	Bench      *bench.Bench
	Exclusions []Exclusion
	Slots      int // slots read
	Facts      int // fact events written
	Passages   int // passage events written
}

// subject is how prose names a slot's holder: "the President of Italy",
// "the team of Lionel Messi", "the CEO of Walmart", "the general secretary
// of United Nations".
func subject(s *Slot) string {
	if s.Category == "countries_byGDP" {
		return "the " + s.Attribute
	}
	return "the " + s.Attribute + " of " + s.Entity
}

// sentence words one dated value.
func sentence(s *Slot, v *Value) string {
	subj, name := subject(s), strings.TrimSuffix(v.Name, ".")
	switch {
	case v.Open():
		return fmt.Sprintf("As of %s, %s is %s.", v.Start, subj, name)
	case v.Start != nil && v.End != nil && v.Start.String() == v.End.String():
		return fmt.Sprintf("In %s, %s was %s.", v.Start, subj, name)
	case v.Start != nil && v.End != nil:
		return fmt.Sprintf("From %s to %s, %s was %s.", v.Start, v.End, subj, name)
	case v.Start != nil && v.Point != nil:
		return fmt.Sprintf("From %s, %s was %s (as recorded for %s).", v.Start, subj, name, v.Point)
	case v.Point != nil:
		return fmt.Sprintf("As of %s, %s was %s.", v.Point, subj, name)
	}
	return fmt.Sprintf("Until %s, %s was %s.", v.End, subj, name)
}

// order sorts a slot's values into valid-time order: by date; on a tie a
// value known only by its end comes first, then closed values, then the
// open one; then DyKnow's order.
func order(vals []Value) []Value {
	out := append([]Value(nil), vals...)
	rank := func(v *Value) int {
		switch {
		case v.Start == nil && v.Point == nil:
			return 0
		case v.Open():
			return 2
		}
		return 1
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if ta, tb := a.When().Time, b.When().Time; !ta.Equal(tb) {
			return ta.Before(tb)
		}
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra < rb
		}
		return a.Index < b.Index
	})
	return out
}

// passage is one Wikipedia paragraph of RAG/passages.json.
type passage struct {
	Text, MatchType, Matched, Header, URL string
}

type rawPassages struct {
	Matches map[string][]struct {
		Paragraph struct {
			Text       string `json:"text"`
			HeaderName string `json:"header_name"`
		} `json:"paragraph"`
		Matched json.RawMessage `json:"matched"` // a string, or a list for "full" matches
	} `json:"matches"`
	PageURL string `json:"page_url"`
}

// matchedText joins DyKnow's matched string(s) with " + ".
func matchedText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var l []string
	if json.Unmarshal(raw, &l) == nil {
		return strings.Join(l, " + ")
	}
	return ""
}

var matchTypes = []string{"full", "em", "simplified", "head"}

// readPassages reads RAG/passages.json by stream id, deduplicating
// paragraphs in match-type order (full, em, simplified, head). A missing
// file gives no passages.
func readPassages(src string) (map[string][]passage, error) {
	path := filepath.Join(src, "RAG", "passages.json")
	out := map[string][]passage{}
	err := walkSlots(path, "matches", func(cat, ent, attr string, raw json.RawMessage) error {
		var rp rawPassages
		if err := json.Unmarshal(raw, &rp); err != nil {
			return fmt.Errorf("passages.json: %s/%s/%s: %v", cat, ent, attr, err)
		}
		id := streamID(cat, ent, attr)
		seen := map[string]bool{}
		for _, mt := range matchTypes {
			for _, m := range rp.Matches[mt] {
				t := strings.TrimSpace(m.Paragraph.Text)
				if t == "" || seen[t] {
					continue
				}
				seen[t] = true
				out[id] = append(out[id], passage{Text: t, MatchType: mt, Matched: matchedText(m.Matched), Header: m.Paragraph.HeaderName, URL: rp.PageURL})
			}
		}
		return nil
	})
	if err != nil && !isNotExist(err) {
		return nil, err
	}
	return out, nil
}

// Convert reads a DyKnow checkout (grc_generated.json, qa_generated.json,
// RAG/passages.json) and builds the ESR benchmark (see the package doc).
func Convert(src string) (*Result, error) {
	slots, err := ReadSlots(src)
	if err != nil {
		return nil, err
	}
	passages, err := readPassages(src)
	if err != nil {
		return nil, err
	}
	return convertSlots(slots, passages, "dyknow", Source)
}

// ConvertSlots builds an ESR benchmark from slots read elsewhere (V-DyKnow's
// newer Wikidata snapshot in DyKnow's format), exactly as Convert does but
// with no passages, stream ids starting "PREFIX-" instead of "dyknow-", and
// source label source.
func ConvertSlots(slots []*Slot, prefix, source string) (*Result, error) {
	return convertSlots(slots, nil, prefix, source)
}

func convertSlots(slots []*Slot, passages map[string][]passage, prefix, source string) (*Result, error) {
	res := &Result{Slots: len(slots)}
	var streams []*esr.Stream
	atoms := map[string][]esr.Atom{}
	rels := map[string]map[esr.AtomPair]esr.Relation{}
	var qas []esr.QA
	seen := map[string]bool{}
	for _, sl := range slots {
		id := prefix + strings.TrimPrefix(StreamID(sl), "dyknow")
		if seen[id] {
			return nil, fmt.Errorf("two slots map to stream id %q", id)
		}
		seen[id] = true
		vals := order(sl.Values)
		open := 0
		for i := range vals {
			if vals[i].Open() {
				open++
			}
		}
		reason := ""
		switch {
		case open > 1:
			reason = ReasonSeveralOpen
		case open == 0:
			reason = ReasonNoOpen
		case !vals[len(vals)-1].Open():
			reason = ReasonOpenNotLast
		}
		if reason != "" {
			ex := Exclusion{StreamID: id, Category: sl.Category, Entity: sl.Entity, Attribute: sl.Attribute, Reason: reason}
			for _, v := range sl.Values {
				ex.Values = append(ex.Values, v.Raw)
			}
			res.Exclusions = append(res.Exclusions, ex)
			continue
		}
		s := &esr.Stream{ID: id, Title: sl.Entity + ": " + sl.Attribute, Source: source}
		var as []esr.Atom
		for i := range vals {
			v := &vals[i]
			e := esr.Event{ID: fmt.Sprintf("e%d", i+1), Kind: "fact", Timestamp: esr.Time{Time: v.When().Time},
				Text: sentence(sl, v), Role: "wikidata", Meta: map[string]any{"wikidata_value": v.Raw}}
			s.Events = append(s.Events, e)
			as = append(as, esr.Atom{ID: fmt.Sprintf("%s-a%d", id, i+1), StreamID: id, EventID: e.ID, EventIndex: i,
				EventKind: e.Kind, Timestamp: e.Timestamp, Role: e.Role, Modality: esr.ModalityAssert, Entity: sl.Entity,
				Attribute: sl.Attribute, Value: v.Name, Polarity: esr.Positive, Confidence: 1})
		}
		res.Facts += len(vals)
		last := vals[len(vals)-1].When().Time
		for j, p := range passages[StreamID(sl)] {
			meta := map[string]any{"match_type": p.MatchType, "matched": p.Matched, "page_url": p.URL}
			if p.Header != "" {
				meta["section"] = p.Header
			}
			s.Events = append(s.Events, esr.Event{ID: fmt.Sprintf("p%d", j+1), Kind: "passage",
				Timestamp: esr.Time{Time: last.Add(24*time.Hour + time.Duration(j)*time.Hour)},
				Text:      p.Text, Role: "wikipedia", Meta: meta})
			res.Passages++
		}
		s.CreatedAt = s.Events[0].Timestamp
		gold := history.Gold(as)
		q, err := slotQAs(sl, s, as, gold, source)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", id, err)
		}
		streams = append(streams, s)
		atoms[id] = as
		if len(gold) > 0 {
			rels[id] = gold
		}
		qas = append(qas, q...)
	}
	b := bench.New(streams, atoms, qas)
	b.Relations = rels
	res.Bench = b
	return res, nil
}

func slotQAs(sl *Slot, s *esr.Stream, as []esr.Atom, gold map[esr.AtomPair]esr.Relation, source string) ([]esr.QA, error) {
	var kl esr.KeyLedger
	rel := func(a, b *esr.Atom) esr.Relation { return gold[esr.AtomPair{A: a.ID, B: b.ID}] }
	for i := range as {
		kl.Add(&as[i], rel)
	}
	snap := kl.Snapshot()
	want := as[len(as)-1].Value
	if snap.Abstain || snap.Value != want {
		return nil, fmt.Errorf("⊕ gives %v, the open value is %q", snap, want)
	}
	cur := as[len(as)-1].State()
	support, deprecated := []string{}, []string{}
	for _, i := range kl.Active {
		support = append(support, as[i].EventID)
	}
	for i, st := range kl.Status {
		if st == esr.Deprecated && as[i].State() != cur {
			deprecated = append(deprecated, as[i].EventID)
		}
	}
	phen := history.Phenomenon(as)
	tag := string(phen)
	if phen == esr.Monotonic {
		tag = "mono-deprecated"
		if len(deprecated) == 0 {
			tag = "pure-mono"
		}
	}
	attr := sl.RawAttribute
	if attr == "" {
		attr = "(none)"
	}
	rationale := fmt.Sprintf("%s %s: slot %s / %s / %s, %d dated values, current %s", source, tag, sl.Category, sl.Entity, attr, len(as), want)
	question := fmt.Sprintf("Who is %s?", subject(sl))
	for _, q := range sl.Questions {
		if strings.Contains(strings.ToLower(q), strings.ToLower(sl.Attribute)) {
			question = q
			break
		}
	}
	mk := func(qt esr.QueryType, short, q, gold string, sup []string) esr.QA {
		return esr.QA{QID: s.ID + "-" + short, StreamID: s.ID, Question: q, GoldAnswer: gold,
			GoldSupportingEventIDs: sup, GoldDeprecatedEventIDs: deprecated, Phenomenon: phen, Confidence: 1,
			Rationale: rationale, QueryType: qt, Source: source, Entity: sl.Entity, Attribute: sl.Attribute}
	}
	out := []esr.QA{mk(esr.Snapshot, "snap", question, want, support)}
	prior := kl.Prior()
	if prior.Abstain {
		return out, nil
	}
	ps := esr.StateOf(prior.Value, esr.Positive)
	var psup []string
	for i, st := range kl.Status {
		if st == esr.Deprecated && as[i].State() == ps {
			psup = append(psup, as[i].EventID)
		}
	}
	prov := fmt.Sprintf("Who was %s immediately before the current one?", subject(sl))
	if sl.Category == "athletes_byPayment" {
		prov = fmt.Sprintf("Which team did %s play for immediately before the current one?", sl.Entity)
	}
	out = append(out, mk(esr.Provenance, "prov", prov, prior.Value, psup))
	out = append(out, mk(esr.RelationType, "rel",
		fmt.Sprintf("Did the last change to %s refine or replace the prior value?", subject(sl)),
		kl.LastChange().Value, support))
	return out, nil
}
