// Package vdyknow converts V-DyKnow's Wikidata annotations
// (sislab-unitn/V-DyKnow, data/annotations/wikidata_combined.json, MIT; a
// 2025 Wikidata snapshot in DyKnow's "Name |S: start |E: end" format) into
// an ESR benchmark with the DyKnow converter (internal/dyknow.ConvertSlots), so
// the two snapshots share stream layout, wording, strata and QAs.
//
// Mapping onto DyKnow's slots: countries keep their office as attribute
// ("President of Italy"); athletes' "Sports Team" becomes DyKnow's "team"
// and organisations' "chief executive officer" DyKnow's "CEO" (category
// companies), so a V-DyKnow key is the DyKnow key of the same slot (the
// drift table pairs them). An empty qualifier ("|E: " with no date) is an
// open end. Values that return after another held (a club rejoined, a
// leader back in office) form the reverted_revert stratum.
package vdyknow

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/dyknow"
	"github.com/esrkit/esrkit/internal/safefile"
)

// Converter names this conversion in MANIFEST.json.
const Converter = "esr-vdyknow/1"

// Source is the benchmark's stream and QA source label.
const Source = "vdyknow"

// UpstreamCommit is the V-DyKnow commit of the annotations.
const UpstreamCommit = "8dc5e1af6b60a314487440642f040ad84dc6b83b"

// AnnotationsFile is the file Import reads from --src.
const AnnotationsFile = "wikidata_combined.json"

// Report summarises an import (written as MANIFEST.json).
type Report struct {
	Benchmark      string                    `json:"benchmark"`
	Converter      string                    `json:"converter"`
	Upstream       string                    `json:"upstream"`
	Slots          int                       `json:"slots"`
	ReturningSlots int                       `json:"slots_with_a_returning_value"`
	Streams        int                       `json:"streams"`
	Excluded       map[string]int            `json:"excluded"`
	Atoms          int                       `json:"atoms"`
	Relations      int                       `json:"relations"`
	QAs            map[string]map[string]int `json:"qas_by_phenomenon_query"`
	QATotal        int                       `json:"qas"`
	SHA256         map[string]string         `json:"sha256"`
}

type rawSlot struct {
	Answers   []string          `json:"answers"`
	Questions map[string]string `json:"text_only_questions"`
}

// attribute maps V-DyKnow's attribute onto DyKnow's (category, attribute,
// raw attribute for the stream id).
func attribute(cat, attr string) (dcat, dattr, raw string) {
	switch {
	case cat == "countries":
		return "countries_byGDP", attr, attr
	case cat == "athletes":
		return "athletes_byPayment", "team", ""
	case cat == "organizations" && strings.EqualFold(attr, "chief executive officer"):
		return "companies_byRevenue", "CEO", ""
	}
	return "organizations", attr, attr
}

// cleanValue drops empty qualifiers ("|E: " with no date).
func cleanValue(raw string) string {
	parts := strings.Split(raw, " |")
	out := parts[:1]
	for _, q := range parts[1:] {
		if t := strings.TrimSpace(q); len(t) > 2 {
			out = append(out, q)
		}
	}
	return strings.Join(out, " |")
}

// ReadSlots reads wikidata_combined.json into DyKnow slots, in sorted order.
// Errors name the file, the slot and the field.
func ReadSlots(path string) ([]*dyknow.Slot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	var top map[string]map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	var slots []*dyknow.Slot
	for _, cat := range slices.Sorted(maps.Keys(top)) {
		for _, ent := range slices.Sorted(maps.Keys(top[cat])) {
			for _, attr := range slices.Sorted(maps.Keys(top[cat][ent])) {
				if attr == "images" {
					continue
				}
				where := fmt.Sprintf("%s: %s/%s/%s", name, cat, ent, attr)
				var rs rawSlot
				if err := json.Unmarshal(top[cat][ent][attr], &rs); err != nil {
					return nil, fmt.Errorf("%s: %v", where, err)
				}
				if len(rs.Answers) == 0 {
					return nil, fmt.Errorf("%s: field \"answers\": empty", where)
				}
				dcat, dattr, raw := attribute(cat, attr)
				s := &dyknow.Slot{Category: dcat, Entity: ent, Attribute: dattr, RawAttribute: raw}
				for i, a := range rs.Answers {
					v, err := dyknow.ParseValue(cleanValue(a))
					if err != nil {
						return nil, fmt.Errorf("%s: field \"answers[%d]\": %v", where, i, err)
					}
					if v.Start != nil && v.End != nil && v.End.Last().Before(v.Start.Time) {
						return nil, fmt.Errorf("%s: field \"answers[%d]\": %q ends (%s) before it starts (%s)", where, i, a, v.End, v.Start)
					}
					v.Raw, v.Index = a, i
					s.Values = append(s.Values, v)
				}
				for _, k := range []string{"generic", "contextualized", "rephrased"} {
					if q := rs.Questions[k]; q != "" {
						s.Questions = append(s.Questions, q)
					}
				}
				slots = append(slots, s)
			}
		}
	}
	return slots, nil
}

// returning reports whether a value of the slot returns after another held.
func returning(s *dyknow.Slot) bool {
	seen := map[string]int{}
	for _, v := range s.Values {
		seen[esr.StateOf(v.Name, esr.Positive)]++
	}
	for _, n := range seen {
		if n > 1 {
			return true
		}
	}
	return false
}

// Import converts src/wikidata_combined.json into out: the benchmark
// files, exclusions.jsonl, V-DyKnow's LICENSE, PROVENANCE.md and
// MANIFEST.json. Deterministic.
func Import(src, out string) (*Report, error) {
	// The licence is checked first: nothing is written without it.
	lic, err := os.ReadFile(filepath.Join(src, dyknow.LicenseFile))
	if err != nil {
		return nil, fmt.Errorf("V-DyKnow's licence must travel with the data: %w", err)
	}
	slots, err := ReadSlots(filepath.Join(src, AnnotationsFile))
	if err != nil {
		return nil, err
	}
	res, err := dyknow.ConvertSlots(slots, "vdyknow", Source)
	if err != nil {
		return nil, err
	}
	// Every file is written into a new folder that replaces out at the
	// end: a failure leaves out as it was.
	var rep *Report
	err = bench.WriteFolder(out, func(tmp string) error {
		rep, err = importInto(tmp, lic, slots, res)
		return err
	})
	return rep, err
}

// importInto writes the converted res, exclusions, LICENSE (lic),
// PROVENANCE.md and MANIFEST.json into the folder out.
func importInto(out string, lic []byte, slots []*dyknow.Slot, res *dyknow.Result) (*Report, error) {
	b := res.Bench
	if err := b.WriteFiles(out); err != nil {
		return nil, err
	}
	if err := bench.WriteJSONL(filepath.Join(out, dyknow.ExclusionsFile), res.Exclusions); err != nil {
		return nil, err
	}
	if err := safefile.WriteFile(filepath.Join(out, dyknow.LicenseFile), lic, 0o644); err != nil {
		return nil, err
	}
	rep := &Report{Benchmark: Source, Converter: Converter, Upstream: "https://github.com/sislab-unitn/V-DyKnow@" + UpstreamCommit,
		Slots: len(slots), Streams: len(b.Streams), Excluded: map[string]int{}, QAs: map[string]map[string]int{},
		QATotal: len(b.QAs), SHA256: map[string]string{}}
	for _, s := range slots {
		if returning(s) {
			rep.ReturningSlots++
		}
	}
	for _, e := range res.Exclusions {
		rep.Excluded[e.Reason]++
	}
	for _, s := range b.Streams {
		rep.Atoms += len(b.Atoms[s.ID])
		rep.Relations += len(b.Relations[s.ID])
	}
	for _, q := range b.QAs {
		m := rep.QAs[string(q.Phenomenon)]
		if m == nil {
			m = map[string]int{}
			rep.QAs[string(q.Phenomenon)] = m
		}
		m[string(q.Type())]++
	}
	if err := safefile.WriteFile(filepath.Join(out, dyknow.ProvenanceFile), []byte(provenance(rep, res)), 0o644); err != nil {
		return nil, err
	}
	for _, name := range []string{bench.StreamsFile, bench.AtomsFile, bench.QAFile, bench.RelationsFile,
		dyknow.ExclusionsFile, dyknow.LicenseFile, dyknow.ProvenanceFile} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		rep.SHA256[name] = hex.EncodeToString(sum[:])
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return nil, err
	}
	return rep, safefile.WriteFile(filepath.Join(out, dyknow.ManifestFile), append(data, '\n'), 0o644)
}

func provenance(rep *Report, res *dyknow.Result) string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	p("# V-DyKnow, converted to ESR (generated by `esr import vdyknow`; do not edit)\n\n")
	p("Upstream: %s, file data/annotations/%s (MIT licence, copied beside this file as LICENSE; keep it with any copy).\n", rep.Upstream, AnnotationsFile)
	p("What it is: DyKnow-format Wikidata answers (\"Name |S: start |E: end\") from a newer snapshot (2025);\n")
	p("categories countries, athletes, organizations. V-DyKnow's visual questions and images are not used.\n\n")
	p("Regenerate (the files here are all that is needed at run time):\n\n")
	p("    go run ./cmd/esr import vdyknow --src DIR_WITH_%s_AND_LICENSE --out data/vdyknow\n\n", AnnotationsFile)
	p("## What was converted, and how\n\n")
	p("- Exactly as `esr import dyknow` converts DyKnow (see data/dyknow/PROVENANCE.md): one stream per slot, one `fact`\n")
	p("  event and one atom per dated value in valid-time order, gold relations (equal values SAME_STATE, others\n")
	p("  SUPERSEDES), snapshot / provenance / relation-type QAs. No Wikipedia passages (V-DyKnow has none).\n")
	p("- Slots: athletes' \"Sports Team\" is DyKnow's `team`, organisations' \"chief executive officer\" DyKnow's `CEO`\n")
	p("  (category companies), so keys match DyKnow's for the drift table; countries keep their office as attribute.\n")
	p("- An empty qualifier (\"|E: \" with no date) is an open end.\n")
	p("- Stratum reverted_revert: a value returns after another held (%d of %d slots have a value that occurs twice;\n", rep.ReturningSlots, rep.Slots)
	p("  a slot whose values repeat without another in between stays monotonic). These are real reverted reverts.\n\n")
	p("## Counts\n\n")
	p("- Slots: %d; streams: %d; atoms: %d; gold relations: %d.\n", rep.Slots, rep.Streams, rep.Atoms, rep.Relations)
	p("- QAs: %d\n", rep.QATotal)
	for _, ph := range esr.Phenomena {
		if m := rep.QAs[string(ph)]; m != nil {
			p("  - %s: snapshot %d, provenance %d, relation-type %d\n", ph, m[string(esr.Snapshot)], m[string(esr.Provenance)], m[string(esr.RelationType)])
		}
	}
	p("\n## Exclusions (exclusions.jsonl lists each slot with its values)\n\n")
	reasons := slices.Sorted(maps.Keys(rep.Excluded))
	for _, r := range reasons {
		var names []string
		for _, e := range res.Exclusions {
			if e.Reason == r {
				names = append(names, e.Entity+" ("+e.Attribute+")")
			}
		}
		sort.Strings(names)
		p("- %d: %s: %s\n", rep.Excluded[r], r, strings.Join(names, ", "))
	}
	if len(reasons) == 0 {
		p("- none\n")
	}
	return w.String()
}
