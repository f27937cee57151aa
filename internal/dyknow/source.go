// Package dyknow converts the public DyKnow data (sislab-unitn/DyKnow, MIT;
// "DyKnow: Dynamically Verifying Time-Sensitive Factual Knowledge in LLMs",
// EMNLP 2024 Findings) into an ESR benchmark, and loads DyKnow's real
// retrieval-augmented model outputs (Llama-2-7b-chat and Mistral-7B-Instruct,
// clean and noisy passages, with DyKnow's own labels) as outcome rows that
// statistics can pair.
//
// Conversion (Convert): each DyKnow slot (category, entity, attribute)
// becomes one stream: one "fact" event per dated Wikidata value, in valid-time
// order, worded like "As of 2015-02-03, the President of Italy is Sergio
// Mattarella." (year-only and month-only dates, written with 00 by DyKnow,
// are kept at their precision in the prose and placed on the first day of
// the year or month), then the slot's Wikipedia passages (RAG/passages.json)
// as "passage" events, which carry no atoms. Each fact yields one atom keyed
// (entity, attribute). Gold relations: equal values SAME_STATE, every other
// pair SUPERSEDES (a single-source history where each new value replaces the
// old). QAs: snapshot (the value with no end date and no point in time, the
// latest to start), provenance (the distinct value before it) and
// relation-type ("replaces"), with phenomenon reverted_revert when a value
// returns after another held and monotonic otherwise. Slots that do not fit
// one current value are excluded with the reason recorded (exclusions.jsonl):
// several open values at once (DyKnow's athletes list a club and a national
// team: faceted state, outside ESR's single-valued keys), no open value, or
// an open value that is not the latest to start.
package dyknow

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// UpstreamCommit is the DyKnow commit the bundled conversion was made from.
const UpstreamCommit = "1182dd89b981d32b41eecc473c9ebebc75366e69"

// Categories are DyKnow's four categories, in the order streams are written.
var Categories = []string{"athletes_byPayment", "companies_byRevenue", "countries_byGDP", "organizations"}

// defaultAttribute names the slot of categories whose JSON has no attribute
// level, as DyKnow's own questions word it ("What is the current team of
// ...", "Who is the CEO of ...").
var defaultAttribute = map[string]string{"athletes_byPayment": "team", "companies_byRevenue": "CEO"}

// Precision of a DyKnow date: DyKnow writes unknown month or day as 00.
type Precision int

const (
	Day Precision = iota
	Month
	Year
)

// Date is a DyKnow/Wikidata date with its precision.
type Date struct {
	Time      time.Time // UTC; missing month or day set to 1
	Precision Precision
}

// String writes the date at its precision: 2015-02-03, February 2015, 2015.
func (d Date) String() string {
	switch d.Precision {
	case Year:
		return d.Time.Format("2006")
	case Month:
		return d.Time.Format("January 2006")
	}
	return d.Time.Format("2006-01-02")
}

// Last is the last day the date covers at its precision (31 December for a
// year, the month's last day for a month).
func (d Date) Last() time.Time {
	switch d.Precision {
	case Year:
		return d.Time.AddDate(1, 0, -1)
	case Month:
		return d.Time.AddDate(0, 1, -1)
	}
	return d.Time
}

// ParseDate reads "+2015-02-03T00:00:00Z" (month or day may be 00).
func ParseDate(s string) (Date, error) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	if i := strings.IndexByte(s, 'T'); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, "-")
	if len(parts) != 3 || neg {
		return Date{}, fmt.Errorf("date %q: want +YYYY-MM-DD", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil {
			return Date{}, fmt.Errorf("date %q: %v", s, err)
		}
		n[i] = v
	}
	d := Date{Precision: Day}
	if n[2] == 0 {
		d.Precision, n[2] = Month, 1
	}
	if n[1] == 0 {
		d.Precision, n[1], n[2] = Year, 1, 1
	}
	if n[1] < 1 || n[1] > 12 || n[2] < 1 || n[2] > 31 {
		return Date{}, fmt.Errorf("date %q out of range", s)
	}
	d.Time = time.Date(n[0], time.Month(n[1]), n[2], 0, 0, 0, 0, time.UTC)
	return d, nil
}

// Value is one dated answer of a slot: "Name |S: start |E: end |P: point".
type Value struct {
	Raw   string `json:"raw"`
	Name  string `json:"name"`
	Start *Date  `json:"-"`
	End   *Date  `json:"-"`
	Point *Date  `json:"-"`
	Index int    `json:"-"` // position in DyKnow's list
}

// Open reports whether the value is in force at collection time: no end
// date and no point in time (a |P: value is a dated point fact).
func (v *Value) Open() bool { return v.End == nil && v.Point == nil }

// When is the value's valid-time position: its start, else its point in
// time, else its end (DyKnow has a few values with only an end date).
func (v *Value) When() Date {
	switch {
	case v.Start != nil:
		return *v.Start
	case v.Point != nil:
		return *v.Point
	}
	return *v.End
}

// ParseValue reads one DyKnow answer string.
func ParseValue(raw string) (Value, error) {
	parts := strings.Split(raw, " |")
	v := Value{Raw: raw, Name: strings.TrimSpace(parts[0])}
	if v.Name == "" {
		return v, fmt.Errorf("answer %q has no name", raw)
	}
	for _, q := range parts[1:] {
		q = strings.TrimSpace(q)
		if len(q) < 3 || q[1] != ':' {
			return v, fmt.Errorf("answer %q: bad qualifier %q", raw, q)
		}
		d, err := ParseDate(q[2:])
		if err != nil {
			return v, fmt.Errorf("answer %q: %v", raw, err)
		}
		switch q[0] {
		case 'S':
			v.Start = &d
		case 'E':
			v.End = &d
		case 'P':
			v.Point = &d
		default:
			return v, fmt.Errorf("answer %q: unknown qualifier %q", raw, q[:1])
		}
	}
	if v.Start == nil && v.End == nil && v.Point == nil {
		return v, fmt.Errorf("answer %q has no date", raw)
	}
	return v, nil
}

// Slot is one DyKnow (category, entity, attribute) with its values and
// questions. Attribute is DyKnow's attribute, or the category's default
// name when DyKnow has no attribute level.
type Slot struct {
	Category  string
	Entity    string
	Attribute string
	// RawAttribute is DyKnow's attribute key ("" when the level is absent).
	RawAttribute string
	Values       []Value
	Questions    []string // from qa_generated.json
}

// rawSlot is a slot's JSON object.
type rawSlot struct {
	Questions json.RawMessage `json:"questions"`
	Answers   []string        `json:"answers"`
}

// walkSlots visits the slots of a DyKnow JSON file shaped
// {category: {entity: slot | {attribute: slot}}}, in sorted order, where a
// slot is an object with the field marker.
func walkSlots(path, marker string, fn func(cat, ent, attr string, raw json.RawMessage) error) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var top map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return fmt.Errorf("%s: %v", filepath.Base(path), err)
	}
	for _, cat := range slices.Sorted(maps.Keys(top)) {
		ents := top[cat]
		for _, ent := range slices.Sorted(maps.Keys(ents)) {
			var probe map[string]json.RawMessage
			if err := json.Unmarshal(ents[ent], &probe); err != nil {
				return fmt.Errorf("%s: %s/%s: %v", filepath.Base(path), cat, ent, err)
			}
			if _, ok := probe[marker]; ok {
				if err := fn(cat, ent, "", ents[ent]); err != nil {
					return err
				}
				continue
			}
			for _, attr := range slices.Sorted(maps.Keys(probe)) {
				if err := fn(cat, ent, attr, probe[attr]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// ReadSlots reads grc_generated.json (values) and qa_generated.json
// (questions) from a DyKnow checkout.
func ReadSlots(src string) ([]*Slot, error) {
	var slots []*Slot
	byID := map[string]*Slot{}
	err := walkSlots(filepath.Join(src, "grc_generated.json"), "answers", func(cat, ent, attr string, raw json.RawMessage) error {
		var rs rawSlot
		if err := json.Unmarshal(raw, &rs); err != nil {
			return fmt.Errorf("grc_generated.json: %s/%s/%s: %v", cat, ent, attr, err)
		}
		s := &Slot{Category: cat, Entity: ent, Attribute: attr, RawAttribute: attr}
		if attr == "" {
			s.Attribute = defaultAttribute[cat]
			if s.Attribute == "" {
				return fmt.Errorf("grc_generated.json: %s/%s: no attribute level and no default for the category", cat, ent)
			}
		}
		for i, a := range rs.Answers {
			v, err := ParseValue(a)
			if err != nil {
				return fmt.Errorf("grc_generated.json: %s/%s/%s: %v", cat, ent, attr, err)
			}
			v.Index = i
			s.Values = append(s.Values, v)
		}
		slots = append(slots, s)
		byID[StreamID(s)] = s
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = walkSlots(filepath.Join(src, "qa_generated.json"), "answers", func(cat, ent, attr string, raw json.RawMessage) error {
		var rs rawSlot
		if err := json.Unmarshal(raw, &rs); err != nil {
			return fmt.Errorf("qa_generated.json: %s/%s/%s: %v", cat, ent, attr, err)
		}
		s := byID[streamID(cat, ent, attr)]
		if s == nil {
			return nil
		}
		var qs []string
		if json.Unmarshal(rs.Questions, &qs) != nil {
			var m map[string]string
			if err := json.Unmarshal(rs.Questions, &m); err != nil {
				return fmt.Errorf("qa_generated.json: %s/%s/%s: questions: %v", cat, ent, attr, err)
			}
			for _, k := range slices.Sorted(maps.Keys(m)) {
				qs = append(qs, m[k])
			}
		}
		s.Questions = qs
		return nil
	})
	return slots, err
}

// StreamID is the ESR stream id of a slot: dyknow-<category>-<entity>[-<attribute>].
func StreamID(s *Slot) string { return streamID(s.Category, s.Entity, s.RawAttribute) }

func streamID(cat, ent, attr string) string {
	id := "dyknow-" + slug(strings.SplitN(cat, "_", 2)[0]) + "-" + slug(ent)
	if attr != "" {
		id += "-" + slug(attr)
	}
	return id
}

var fold = strings.NewReplacer("á", "a", "à", "a", "â", "a", "ä", "a", "ã", "a", "å", "a", "ç", "c", "ć", "c", "č", "c",
	"é", "e", "è", "e", "ê", "e", "ë", "e", "í", "i", "ì", "i", "î", "i", "ï", "i", "ı", "i", "ñ", "n", "ó", "o", "ò", "o",
	"ô", "o", "ö", "o", "õ", "o", "ø", "o", "ú", "u", "ù", "u", "û", "u", "ü", "u", "ş", "s", "š", "s", "ž", "z", "ł", "l", "ğ", "g")

// slug lower-cases s, folds common accents and joins ASCII words with "-".
func slug(s string) string {
	s = fold.Replace(strings.ToLower(s))
	var b strings.Builder
	dash := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteByte(c)
			continue
		}
		dash = true
	}
	return b.String()
}
