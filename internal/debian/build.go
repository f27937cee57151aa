package debian

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/regfile"
)

// Source is the QA and stream source label of the benchmark.
const Source = "debian"

// The window: the entries from the top of each changelog dated on or after
// Cutoff, at most MaxEntries of them (a prefix of the file, as
// dh_installchangelogs trims: reading stops at the first older entry).
// Reading also stops at the first entry whose header names another source
// package: the history of a predecessor carried over (gcc-11's entries in
// gcc-12's changelog, python3.10's in python3.11's), which are not uploads
// of this package. Bookworm's binary packages trim their changelogs to the entries after
// buster's release (2019-07-06); Cutoff lies after it, so a trimmed and an
// untrimmed changelog give the same window. MaxEntries is the upper edge of
// the paper's longest stream-length bin (Table 12: 20–70).
var (
	Cutoff     = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	MaxEntries = 70
)

// The attributes of a package's keys.
const (
	AttrUploader     = "uploader"
	AttrDistribution = "distribution"
	AttrUrgency      = "urgency"
	AttrVersion      = "version"
)

// Attributes lists them in the order streams carry their atoms.
var Attributes = []string{AttrUploader, AttrDistribution, AttrUrgency, AttrVersion}

// FacetName is the facet version atoms carry: their distribution.
const FacetName = "distribution"

// TrimNote is the comment dh_installchangelogs leaves where it trimmed.
const TrimNote = "# Older entries have been removed from this changelog."

// Files of a package's raw folder (written by scripts/build-debian.sh).
const (
	ChangelogFile = "changelog"
	CopyrightFile = "copyright"
	SourceFile    = "SOURCE"
)

// inWindow reports whether e, read from the top of package name's
// changelog, is still in the window.
func inWindow(e *Entry, name string) bool {
	return e.Package == name && !e.Time.Before(Cutoff)
}

// Package is one source package read from its raw folder.
type Package struct {
	Name string
	// Entries is the window, in time order (oldest first; entries with
	// equal dates keep the changelog's order).
	Entries []Entry
	// Trimmed: the changelog carries dh_installchangelogs' trim note.
	Trimmed bool
	// Origin is SOURCE's key/value lines: the binary package, its version,
	// the .deb and its SHA-256, the file read from it.
	Origin  map[string]string
	Licence Licence
}

// maxInput bounds each file the importer reads (a package list, a
// changelog, a copyright file), far above any of them; each must be a
// regular file: a FIFO (whose read waits for a writer) or a device such as
// /dev/zero (endless) is an error naming it, not a read that hangs or
// exhausts memory.
const maxInput = 256 << 20

// ReadList reads a package list: one source package a line, blank lines
// and # comments skipped. A malformed or repeated name is an error naming
// the line.
func ReadList(path string) ([]string, error) {
	data, err := regfile.ReadFile(path, maxInput)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	var out []string
	seen := map[string]int{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !validPackage(line) {
			return nil, &bench.LineError{File: name, Line: n + 1, Err: fmt.Errorf("%q is not a Debian package name", line)}
		}
		if prev, dup := seen[line]; dup {
			return nil, &bench.LineError{File: name, Line: n + 1, Err: fmt.Errorf("%q already on line %d", line, prev)}
		}
		seen[line] = n + 1
		out = append(out, line)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no packages", name)
	}
	return out, nil
}

// ReadPackage reads src/NAME/{changelog,copyright,SOURCE} and keeps the
// window of the changelog.
func ReadPackage(dir, name string) (*Package, error) {
	p := &Package{Name: name, Origin: map[string]string{}}
	path := filepath.Join(dir, ChangelogFile)
	data, err := regfile.ReadFile(path, maxInput)
	if err != nil {
		return nil, err
	}
	label := name + "/" + ChangelogFile
	p.Trimmed = bytes.Contains(data, []byte(TrimNote))
	kept := 0
	all, err := ParseChangelog(label, bytes.NewReader(data), func(e Entry) bool {
		if !inWindow(&e, name) {
			return false
		}
		kept++
		return kept < MaxEntries
	})
	if err != nil {
		return nil, err
	}
	if len(all) > 0 && all[0].Package != name {
		return nil, &bench.LineError{File: label, Line: all[0].Line, Field: "package",
			Err: fmt.Errorf("the top entry is for %q, the list names %q", all[0].Package, name)}
	}
	var win []Entry
	for _, e := range all {
		if !inWindow(&e, name) || len(win) == MaxEntries {
			break
		}
		win = append(win, e)
	}
	// The file lists newest first; time order is by the trailers' dates
	// (branches merged into one changelog list an experimental upload
	// above older-dated unstable ones).
	for i, j := 0, len(win)-1; i < j; i, j = i+1, j-1 {
		win[i], win[j] = win[j], win[i]
	}
	sort.SliceStable(win, func(i, j int) bool { return win[i].Time.Before(win[j].Time) })
	p.Entries = win
	if c, err := regfile.ReadFile(filepath.Join(dir, CopyrightFile), maxInput); err == nil {
		p.Licence = ParseCopyright(string(c))
	} else {
		return nil, fmt.Errorf("%s/%s: %w (every package's licence is recorded)", name, CopyrightFile, err)
	}
	// SOURCE is optional; one that is there is read like the others.
	switch data, err := regfile.ReadFile(filepath.Join(dir, SourceFile), maxInput); {
	case err == nil:
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(strings.TrimSuffix(line, "\r"), "\t"); ok {
				p.Origin[k] = v
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s/%s: %w", name, SourceFile, err)
	}
	return p, nil
}

// Exclusion is a listed package left out, and why.
type Exclusion struct {
	Package string `json:"package"`
	Reason  string `json:"reason"`
}

// ReasonNoRecent: the changelog has no entry in the window.
const ReasonNoRecent = "no changelog entry of its own dated on or after 2020-01-01"

// Result is a build: the benchmark, the packages read and the excluded ones.
type Result struct {
	Bench      *bench.Bench
	Packages   []*Package
	Exclusions []Exclusion
}

// Build reads src/PKG/ for every package of the list and builds the
// benchmark (see the package documentation). It is deterministic: the same
// raw files give the same benchmark.
func Build(src string, list []string) (*Result, error) {
	res := &Result{}
	var streams []*esr.Stream
	atoms := map[string][]esr.Atom{}
	var qas []esr.QA
	for _, name := range list {
		p, err := ReadPackage(filepath.Join(src, name), name)
		if err != nil {
			return nil, err
		}
		res.Packages = append(res.Packages, p)
		if len(p.Entries) == 0 {
			res.Exclusions = append(res.Exclusions, Exclusion{Package: name, Reason: ReasonNoRecent})
			continue
		}
		s, as, qs, err := convert(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		streams = append(streams, s)
		atoms[s.ID] = as
		qas = append(qas, qs...)
	}
	res.Bench = bench.New(streams, atoms, qas)
	return res, nil
}

// StreamID is the stream of a source package.
func StreamID(pkg string) string { return "debian-" + pkg }

// EventKind is the kind of every event: one changelog entry.
const EventKind = "changelog-entry"

// EventRole is every event's role: the trailer names the entry's
// maintainer (deb-changelog(5)), usually its uploader.
const EventRole = "maintainer"

// value is the gold value of attribute attr in entry e: header and trailer
// fields only.
func value(e *Entry, attr string) string {
	switch attr {
	case AttrUploader:
		return e.Name
	case AttrDistribution:
		return e.Distribution
	case AttrUrgency:
		return e.Urgency
	case AttrVersion:
		return e.Version
	}
	panic("debian: unknown attribute " + attr)
}

// Facet is the facet of a version atom from an entry targeted at dist.
func Facet(dist string) string { return FacetName + "=" + dist }

func convert(p *Package) (*esr.Stream, []esr.Atom, []esr.QA, error) {
	id := StreamID(p.Name)
	s := &esr.Stream{ID: id, Title: p.Name + ": Debian changelog", Source: Source}
	var as []esr.Atom
	for i := range p.Entries {
		e := &p.Entries[i]
		actor := e.Name
		ev := esr.Event{ID: fmt.Sprintf("e%d", i+1), Kind: EventKind, Timestamp: esr.Time{Time: e.Time},
			Text: e.Text, Actor: &actor, Role: EventRole, Meta: map[string]any{"changelog_line": e.Line}}
		s.Events = append(s.Events, ev)
		for _, attr := range Attributes {
			// The event carries kind and role; modality is the default
			// (asserted). Leaving them out keeps the file under 15 MB.
			a := esr.Atom{ID: fmt.Sprintf("%s:%s:%s", id, ev.ID, attr), StreamID: id, EventID: ev.ID, EventIndex: i,
				Timestamp: ev.Timestamp, Actor: &actor, Entity: p.Name, Attribute: attr, Value: value(e, attr),
				Polarity: esr.Positive, Confidence: 1}
			if attr == AttrVersion {
				a.Facet = Facet(e.Distribution)
			}
			as = append(as, a)
		}
	}
	s.CreatedAt = s.Events[0].Timestamp
	var qas []esr.QA
	for _, attr := range Attributes {
		if attr == AttrVersion {
			continue
		}
		qas = append(qas, keyQAs(p, id, attr, "", allIndexes(len(p.Entries)))...)
	}
	// Version: one key per distribution (facet), in order of first upload.
	var dists []string
	byDist := map[string][]int{}
	for i := range p.Entries {
		d := p.Entries[i].Distribution
		if byDist[d] == nil {
			dists = append(dists, d)
		}
		byDist[d] = append(byDist[d], i)
	}
	for _, d := range dists {
		qas = append(qas, keyQAs(p, id, AttrVersion, d, byDist[d])...)
	}
	seen := map[string]bool{}
	for _, q := range qas {
		if seen[q.QID] {
			return nil, nil, nil, fmt.Errorf("two questions with id %q", q.QID)
		}
		seen[q.QID] = true
	}
	return s, as, qas, nil
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// Questions, by attribute: snapshot, provenance, relation-type. %[1]s is
// the package, %[2]s the distribution of a version question.
var questions = map[string][3]string{
	AttrUploader: {
		"Who is the uploader named in the latest changelog entry of the Debian package %[1]s?",
		"Who was the uploader named in the changelog entries of the Debian package %[1]s before the current one?",
		"Did the last change of uploader in the changelog of the Debian package %[1]s refine or replace the prior uploader?"},
	AttrDistribution: {
		"Which distribution does the latest changelog entry of the Debian package %[1]s target?",
		"Which distribution did the changelog entries of the Debian package %[1]s target before the current one?",
		"Did the last change of target distribution in the changelog of the Debian package %[1]s refine or replace the prior one?"},
	AttrUrgency: {
		"What urgency does the latest changelog entry of the Debian package %[1]s give?",
		"What urgency did the changelog entries of the Debian package %[1]s give before the current one?",
		"Did the last change of urgency in the changelog of the Debian package %[1]s refine or replace the prior urgency?"},
	AttrVersion: {
		"What is the latest version of the Debian package %[1]s in its changelog entries for %[2]s?",
		"Which version of the Debian package %[1]s did its changelog entries for %[2]s name before the current one?",
		"Did the last version of the Debian package %[1]s for %[2]s refine or replace the prior version there?"},
}

// keyQAs makes the questions about one key (and facet), over the entries
// idx (time order).
func keyQAs(p *Package, sid, attr, dist string, idx []int) []esr.QA {
	vals := make([]string, len(idx))
	evs := make([]string, len(idx))
	for k, i := range idx {
		vals[k] = value(&p.Entries[i], attr)
		evs[k] = fmt.Sprintf("e%d", i+1)
	}
	l := LabelSequence(vals)
	support := append([]string{}, evs[l.CurrentFrom:]...)
	deprecated := []string{}
	for k, v := range vals {
		if v != l.Current {
			deprecated = append(deprecated, evs[k])
		}
	}
	facet, short, what := "", attr, attr
	if dist != "" {
		facet = Facet(dist)
		short = attr + "-" + strings.ReplaceAll(dist, " ", "+")
		what = attr + " in " + facet
	}
	first, last := p.Entries[idx[0]].Time, p.Entries[idx[len(idx)-1]].Time
	rationale := fmt.Sprintf("debian %s (%s): %s of %s over %d uploads %s to %s, %d changes, %d values; gold from the changelog's headers and trailers",
		l.Phenomenon, l.Kind, what, p.Name, len(idx), first.Format("2006-01-02"), last.Format("2006-01-02"), l.Changes, l.Distinct)
	q := questions[attr]
	mk := func(qt esr.QueryType, suffix, question, gold string, sup []string) esr.QA {
		return esr.QA{QID: sid + "-" + short + "-" + suffix, StreamID: sid, Question: question, GoldAnswer: gold,
			GoldSupportingEventIDs: sup, GoldDeprecatedEventIDs: deprecated, Phenomenon: l.Phenomenon, Confidence: 1,
			Rationale: rationale, QueryType: qt, Source: Source, Entity: p.Name, Attribute: attr, Facet: facet}
	}
	out := []esr.QA{mk(esr.Snapshot, "snap", fmt.Sprintf(q[0], p.Name, dist), l.Current, support)}
	if !l.HasPrior {
		return out
	}
	out = append(out, mk(esr.Provenance, "prov", fmt.Sprintf(q[1], p.Name, dist), l.Prior, append([]string{}, evs[l.PriorFrom:l.CurrentFrom]...)))
	out = append(out, mk(esr.RelationType, "rel", fmt.Sprintf(q[2], p.Name, dist), esr.AnswerReplaces, support))
	return out
}
