package sim

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr/paper"
)

// The evidence registry (evidence.json) holds published per-model
// measurements of the reading skills whose shape the SIMULATED readers
// model as a curve: accuracy against context length, against the number of
// updates of one key, against distractors, against a table's
// serialisation, under in-context conflicting evidence, and on a clean
// passage of prose. It is data for calibrating the simulation, never a
// result of it: each point is quoted as its source states it (value,
// unit, the task as the source names it, the model as the source names
// it) with the file, table or figure it was read from, and says which of
// the paper's five families it stands for and why. Where no number could
// be read for a family and skill, an entry of kind "none" says so and
// names the nearest source. docs/evidence.md is generated from it
// (EvidenceReport).

// EvidenceSkill names the curve-shaped reading skill a published point
// measures.
type EvidenceSkill string

// The skills of the registry.
const (
	EvidenceLength      EvidenceSkill = "length"      // accuracy against context length
	EvidenceRows        EvidenceSkill = "rows"        // accuracy against the updates (rows) of one key
	EvidenceDistractors EvidenceSkill = "distractors" // accuracy against the number of distractors
	EvidenceFormat      EvidenceSkill = "format"      // accuracy against a table's serialisation
	EvidenceConflict    EvidenceSkill = "conflict"    // answer choice or abstention under conflicting context
	EvidenceProse       EvidenceSkill = "prose"       // reading a short, clean passage of prose
)

// EvidenceSkills are the registry's skills, in the order reports list them.
var EvidenceSkills = []EvidenceSkill{EvidenceLength, EvidenceRows, EvidenceDistractors, EvidenceFormat, EvidenceConflict, EvidenceProse}

// curveSkills are the skills whose x is a number (tokens, updates,
// distractors): a measured point of one of them must carry x_num.
var curveSkills = []EvidenceSkill{EvidenceLength, EvidenceRows, EvidenceDistractors}

// EvidenceKind says whether an entry quotes a published number or records
// that none could be read.
type EvidenceKind string

// The kinds of entry.
const (
	EvidenceMeasured EvidenceKind = "measured" // a number quoted from its source
	EvidenceNone     EvidenceKind = "none"     // no number was published or reachable; the nearest source is named
)

// EvidencePoint is one entry of the registry.
type EvidencePoint struct {
	ID      string        // unique; "<source key>/<model>/<x>"
	Kind    EvidenceKind  // measured, or none
	Skill   EvidenceSkill // what the point measures
	Family  []string      // the paper families it stands for (paper.Families)
	Model   string        // the model as the source names it
	Source  string        // the publication, and where in it
	Locator string        // file and commit, or table or figure, the value was read from
	Task    string        // the task as the source names it
	StandIn string        // which family the model stands in for, and why

	// Set for a measured point only.
	X         string  // the condition as the source labels it ("4K", "2", "Inconsistent Context")
	XNum      float64 // x as a number in XUnit; meaningful when HasXNum
	HasXNum   bool    // false for a categorical condition (a context condition, a pooled base score)
	XUnit     string  // what x counts
	Value     float64 // the value as published, in ValueUnit
	ValueText string  // the value exactly as the source prints it
	ValueUnit string  // "percent (...)" or "fraction (...)"
	Interval  []float64
	Series    string // the points of one curve share it
}

// StandsFor reports whether the point stands for family.
func (p EvidencePoint) StandsFor(family string) bool { return slices.Contains(p.Family, family) }

// EvidenceSource describes one source of the registry: the key its entries'
// IDs begin with, what it measures and how the registry read it.
type EvidenceSource struct {
	Key      string `json:"key"`
	Citation string `json:"citation"`
	Where    string `json:"where"`
	Measures string `json:"measures"`
	Read     string `json:"read"`
}

// EvidenceCardCheck sets what the model card (docs/reader-model.md) says a
// source shows beside what the source says.
type EvidenceCardCheck struct {
	Card   string `json:"card"`
	Source string `json:"source"`
}

// EvidenceRegistry is the parsed registry.
type EvidenceRegistry struct {
	About      string
	Families   []string
	Sources    []EvidenceSource
	CardChecks []EvidenceCardCheck
	Points     []EvidencePoint
}

// For returns the entries of skill that stand for family, measured or not,
// in registry order.
func (r *EvidenceRegistry) For(family string, skill EvidenceSkill) []EvidencePoint {
	var out []EvidencePoint
	for _, p := range r.Points {
		if p.Skill == skill && p.StandsFor(family) {
			out = append(out, p)
		}
	}
	return out
}

// evidenceJSON is the registry shipped with the kit.
//
//go:embed evidence.json
var evidenceJSON []byte

// evidencePath names the shipped registry in errors.
const evidencePath = "esr/reader/sim/evidence.json"

// ShippedEvidence is the registry shipped with the kit. It panics if the
// embedded file does not parse (TestEvidence* keep it parsing).
func ShippedEvidence() *EvidenceRegistry {
	r, err := ParseEvidence(evidenceJSON, evidencePath)
	if err != nil {
		panic("reader: shipped evidence: " + err.Error())
	}
	return r
}

// rawEvidencePoint is an entry as the file spells it.
type rawEvidencePoint struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Skill     string    `json:"skill"`
	Family    []string  `json:"family"`
	Model     string    `json:"model"`
	Source    string    `json:"source"`
	Locator   string    `json:"locator"`
	Task      string    `json:"task"`
	X         *string   `json:"x"`
	XNum      *float64  `json:"x_num"`
	XUnit     string    `json:"x_unit"`
	Value     *float64  `json:"value"`
	ValueText string    `json:"value_text"`
	ValueUnit string    `json:"value_unit"`
	Interval  []float64 `json:"interval"`
	StandIn   string    `json:"stand_in"`
	Series    string    `json:"series"`
}

// ParseEvidence parses a registry. An error names path, the line of the
// offending entry and its field. Preconditions checked: every entry has an
// id (unique), a known kind and skill, families from paper.Families, a
// model, source, locator, task and stand-in note; a measured entry has x,
// x_unit, value, value_text (which must parse to value), value_unit
// ("percent ..." within [0, 100] or "fraction ..." within [0, 1]), an x_num
// if its skill is a curve (length, rows, distractors), and an interval, if
// any, of two ordered bounds around the value; a "none" entry has no value.
func ParseEvidence(data []byte, path string) (*EvidenceRegistry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	lineAt := func(off int64) int {
		// Skip the separator and blank space before the value the
		// decoder is about to read, so the line is the entry's own.
		for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
			off++
		}
		return 1 + bytes.Count(data[:off], []byte("\n"))
	}
	fail := func(off int64, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", path, lineAt(off), fmt.Sprintf(format, args...))
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fail(0, "not a JSON object")
	}
	r := &EvidenceRegistry{}
	seen := map[string]bool{}
	ids := map[string]int{}
	for dec.More() {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, fail(off, "%v", err)
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, fail(off, "field %q given twice", key)
		}
		seen[key] = true
		off = dec.InputOffset()
		switch key {
		case "about":
			err = dec.Decode(&r.About)
		case "families":
			err = dec.Decode(&r.Families)
			if err == nil && !slices.Equal(r.Families, paper.Families) {
				return nil, fail(off, "field families: %v, want the paper's %v", r.Families, paper.Families)
			}
		case "sources":
			err = dec.Decode(&r.Sources)
		case "card_checks":
			err = dec.Decode(&r.CardChecks)
		case "entries":
			err = parseEvidenceEntries(dec, r, ids, fail)
		default:
			return nil, fail(off, "unknown field %q", key)
		}
		if err != nil {
			var located *evidenceError
			if errors.As(err, &located) {
				return nil, located.err
			}
			return nil, fail(off, "field %s: %v", key, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail(dec.InputOffset(), "%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fail(dec.InputOffset(), "data after the registry's object")
	}
	for _, k := range []string{"about", "families", "sources", "entries"} {
		if !seen[k] {
			return nil, fmt.Errorf("%s: field %q missing", path, k)
		}
	}
	keys := map[string]bool{}
	for i, s := range r.Sources {
		if s.Key == "" || s.Citation == "" || s.Where == "" || s.Measures == "" || s.Read == "" {
			return nil, fmt.Errorf("%s: sources[%d] (%q): key, citation, where, measures and read are all required", path, i, s.Key)
		}
		keys[s.Key] = true
	}
	for _, p := range r.Points {
		if k, _, _ := strings.Cut(p.ID, "/"); !keys[k] {
			return nil, fmt.Errorf("%s: entry %q: its id's source key %q is not in sources", path, p.ID, k)
		}
	}
	return r, nil
}

// evidenceError carries an entry's located error out of the decoding loop.
type evidenceError struct{ err error }

func (e *evidenceError) Error() string { return e.err.Error() }

// parseEvidenceEntries reads the "entries" array, checking each entry.
func parseEvidenceEntries(dec *json.Decoder, r *EvidenceRegistry, ids map[string]int, fail func(int64, string, ...any) error) error {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return errors.New("want an array")
	}
	for dec.More() {
		off := dec.InputOffset()
		var raw rawEvidencePoint
		if err := dec.Decode(&raw); err != nil {
			return &evidenceError{fail(off, "entry: %v", err)}
		}
		p, field, msg := checkEvidencePoint(raw)
		if msg != "" {
			return &evidenceError{fail(off, "entry %q: field %s: %s", raw.ID, field, msg)}
		}
		if _, dup := ids[p.ID]; dup {
			return &evidenceError{fail(off, "entry %q: field id: given twice", p.ID)}
		}
		ids[p.ID] = len(r.Points)
		r.Points = append(r.Points, p)
	}
	_, err := dec.Token() // ']'
	return err
}

// checkEvidencePoint validates raw and converts it; on a fault it returns
// the field and what is wrong with it.
func checkEvidencePoint(raw rawEvidencePoint) (p EvidencePoint, field, msg string) {
	p = EvidencePoint{
		ID: raw.ID, Kind: EvidenceKind(raw.Kind), Skill: EvidenceSkill(raw.Skill), Family: raw.Family,
		Model: raw.Model, Source: raw.Source, Locator: raw.Locator, Task: raw.Task, StandIn: raw.StandIn,
		XUnit: raw.XUnit, ValueText: raw.ValueText, ValueUnit: raw.ValueUnit, Interval: raw.Interval, Series: raw.Series,
	}
	for _, f := range []struct{ name, v string }{
		{"id", raw.ID}, {"model", raw.Model}, {"source", raw.Source}, {"locator", raw.Locator},
		{"task", raw.Task}, {"stand_in", raw.StandIn},
	} {
		if strings.TrimSpace(f.v) == "" {
			return p, f.name, "missing"
		}
	}
	if !slices.Contains(EvidenceSkills, p.Skill) {
		return p, "skill", fmt.Sprintf("%q is not one of %v", raw.Skill, EvidenceSkills)
	}
	if len(raw.Family) == 0 {
		return p, "family", "missing"
	}
	for _, f := range raw.Family {
		if !slices.Contains(paper.Families, f) {
			return p, "family", fmt.Sprintf("%q is not a paper family %v", f, paper.Families)
		}
	}
	switch p.Kind {
	case EvidenceNone:
		if raw.Value != nil || raw.ValueText != "" || raw.XNum != nil || raw.Interval != nil {
			return p, "value", "a \"none\" entry quotes no value, x_num or interval"
		}
		return p, "", ""
	case EvidenceMeasured:
	default:
		return p, "kind", fmt.Sprintf("%q is not %q or %q", raw.Kind, EvidenceMeasured, EvidenceNone)
	}
	if raw.X == nil || strings.TrimSpace(*raw.X) == "" {
		return p, "x", "missing"
	}
	p.X = *raw.X
	if strings.TrimSpace(raw.XUnit) == "" {
		return p, "x_unit", "missing"
	}
	if raw.XNum != nil {
		p.XNum, p.HasXNum = *raw.XNum, true
	} else if slices.Contains(curveSkills, p.Skill) {
		return p, "x_num", fmt.Sprintf("missing: a %s point needs a numeric x", p.Skill)
	}
	if raw.Value == nil {
		return p, "value", "missing"
	}
	p.Value = *raw.Value
	v, err := strconv.ParseFloat(raw.ValueText, 64)
	if err != nil {
		return p, "value_text", fmt.Sprintf("%q does not parse as a number", raw.ValueText)
	}
	if v != p.Value {
		return p, "value_text", fmt.Sprintf("%q is not value %v", raw.ValueText, p.Value)
	}
	var hi float64
	switch {
	case strings.HasPrefix(raw.ValueUnit, "percent"):
		hi = 100
	case strings.HasPrefix(raw.ValueUnit, "fraction"):
		hi = 1
	default:
		return p, "value_unit", fmt.Sprintf("%q: want \"percent ...\" or \"fraction ...\"", raw.ValueUnit)
	}
	if p.Value < 0 || p.Value > hi {
		return p, "value", fmt.Sprintf("%v is outside [0, %v] for %s", p.Value, hi, raw.ValueUnit)
	}
	if raw.Interval != nil && (len(raw.Interval) != 2 || raw.Interval[0] > p.Value || p.Value > raw.Interval[1]) {
		return p, "interval", fmt.Sprintf("%v: want [lo, hi] around the value %v", raw.Interval, p.Value)
	}
	return p, "", ""
}
