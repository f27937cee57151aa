package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/esrkit/esrkit/esr"
)

// File names inside a benchmark folder.
const (
	StreamsFile   = "streams.jsonl"
	AtomsFile     = "atoms.jsonl"
	QAFile        = "qa.jsonl"
	RelationsFile = "relations.jsonl"
)

// pairRelation is one gold relation between two co-keyed atoms of a stream,
// a the earlier and b the later (a row of relations.jsonl).
type pairRelation struct {
	StreamID string       `json:"stream_id"`
	A        string       `json:"a"`
	B        string       `json:"b"`
	Relation esr.Relation `json:"relation"`
}

// AtomPair is the ordered pair of atom ids a gold relation labels; the type
// lives in the core model (esr.AtomPair), this name stays for readers of
// benchmark files.
type AtomPair = esr.AtomPair

// Bench is a loaded, validated benchmark. Streams keep file order; each
// stream's events are in stable time order and its atoms in transaction
// order with EventIndex pointing at the sorted events.
type Bench struct {
	Dir       string
	Streams   []*esr.Stream
	Atoms     map[string][]esr.Atom // by stream id
	QAs       []esr.QA
	Relations map[string]map[AtomPair]esr.Relation // by stream id; nil when the file is absent
	// Uncovered lists, in file order, the QAs about a key (entity,
	// attribute) that no atom of their stream mentions: what an extraction
	// that missed the key's events leaves (`esr gen --event-recall`
	// simulates it). They load and are evaluated like any other QA (the
	// memories have nothing to show for them; the reader answers what it
	// answers); Notices says how many, and `esr coverage` counts them.
	Uncovered []string
	// Folds counts, per file, the text fields whose tabs and line breaks
	// the load folded to spaces (see Fold).
	Folds []Fold

	byID map[string]*esr.Stream
	opt  LoadOptions
	// sums holds the SHA-256 of each file the benchmark was decoded from,
	// by its role's name (StreamsFile, …), for HashTo.
	sums map[string][32]byte
	// pre holds, while a load runs, the files it read whole (by path).
	pre map[string][]byte
}

// LoadOptions tighten Load's checks, or read from a snapshot.
type LoadOptions struct {
	// RequireCoverage refuses, as a file:line:field error, a QA about a
	// key that no atom of its stream mentions (Load keeps it and lists it
	// in Bench.Uncovered): for a tool checking a benchmark it built
	// itself, where such a QA is its own bug, not a lossy extraction.
	RequireCoverage bool
	// Snapshots, when not empty, is a folder for snapshots of loaded
	// benchmarks (snapshot.go): a later load with the same folder reads
	// the benchmark from its snapshot while the snapshot names each file's
	// exact bytes and the types it holds, without decoding or checking the
	// files again. The notebooks set it (GoNB reloads the benchmark in
	// every cell).
	Snapshots string
}

// Name is the benchmark's folder name ("bench" when it was built in memory).
func (b *Bench) Name() string {
	if b.Dir == "" {
		return "bench"
	}
	return filepath.Base(b.Dir)
}

// Stream returns the stream with the given id, or nil.
func (b *Bench) Stream(id string) *esr.Stream { return b.byID[id] }

// Load reads a benchmark folder: streams.jsonl, atoms.jsonl (with at least
// one atom) and qa.jsonl (with at least one QA) are required,
// relations.jsonl is read when present.
func Load(dir string) (*Bench, error) { return LoadWith(dir, LoadOptions{}) }

// LoadWith is Load with some checks relaxed (see LoadOptions), or read
// from a snapshot (LoadOptions.Snapshots).
func LoadWith(dir string, opt LoadOptions) (*Bench, error) {
	if opt.Snapshots == "" {
		return load(dir, opt, nil)
	}
	if b, ok := loadSnapshot(dir, opt); ok {
		return b, nil
	}
	srcs, whole := readSources(dir)
	if !whole {
		return load(dir, opt, nil)
	}
	pre := map[string][]byte{}
	for _, s := range srcs {
		if !s.Absent {
			pre[filepath.Join(dir, s.Name)] = s.data
		}
	}
	b, err := load(dir, opt, pre)
	if err != nil {
		return nil, err
	}
	writeSnapshot(dir, opt, b, srcs)
	return b, nil
}

// load reads and checks dir's files: from pre, by path, the files read
// whole for a snapshot; the others line by line.
func load(dir string, opt LoadOptions, pre map[string][]byte) (*Bench, error) {
	b := &Bench{Dir: dir, opt: opt, pre: pre}
	defer func() { b.pre = nil }()
	if err := b.readStreams(filepath.Join(dir, StreamsFile)); err != nil {
		return nil, err
	}
	if err := b.readAtoms(filepath.Join(dir, AtomsFile)); err != nil {
		return nil, err
	}
	qa := filepath.Join(dir, QAFile)
	if _, err := os.Stat(qa); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: missing: a benchmark needs its questions (%s)", QAFile, qa)
	}
	if err := b.readQAs(qa); err != nil {
		return nil, err
	}
	if len(b.QAs) == 0 {
		return nil, fmt.Errorf("%s: no QAs: a benchmark needs its questions", QAFile)
	}
	rel := filepath.Join(dir, RelationsFile)
	if _, err := os.Stat(rel); !errors.Is(err, os.ErrNotExist) {
		if err := b.readRelations(rel); err != nil {
			return nil, err
		}
	}
	b.settle()
	return b, nil
}

// settle fills what methods would otherwise compute on every call (each
// stream's event index, each atom's normalised state), once the benchmark
// is whole and before it is shared: several memories read one benchmark at
// once, and those methods never write.
func (b *Bench) settle() {
	for _, s := range b.Streams {
		s.IndexEvents()
	}
	for _, atoms := range b.Atoms {
		for i := range atoms {
			atoms[i].CacheState()
		}
	}
}

// record returns a function that keeps sum as the hash of the file read
// for role (HashTo) when err is nil, and returns err.
func (b *Bench) record(role string) func(sum [32]byte, err error) error {
	return func(sum [32]byte, err error) error {
		if err == nil {
			if b.sums == nil {
				b.sums = map[string][32]byte{}
			}
			b.sums[role] = sum
		}
		return err
	}
}

// LoadFiles reads an atoms file and, when streamsPath is not empty, its
// streams file. Without streams, each atom's stream is made from its atoms'
// event ids and timestamps (events with no text), so ⊕ can still run.
func LoadFiles(atomsPath, streamsPath string) (*Bench, error) {
	b := &Bench{Dir: filepath.Dir(atomsPath)}
	if streamsPath != "" {
		if err := b.readStreams(streamsPath); err != nil {
			return nil, err
		}
	} else {
		b.byID = map[string]*esr.Stream{}
		if err := b.inferStreams(atomsPath); err != nil {
			return nil, err
		}
	}
	if err := b.readAtoms(atomsPath); err != nil {
		return nil, err
	}
	b.settle()
	return b, nil
}

func (b *Bench) readStreams(path string) error {
	name := filepath.Base(path)
	b.byID = map[string]*esr.Stream{}
	return b.record(StreamsFile)(eachRow(path, b.pre, func(line int, s *esr.Stream) error {
		bad := func(field string, format string, args ...any) error {
			return &LineError{File: name, Line: line, Field: field, Err: fmt.Errorf(format, args...)}
		}
		if s.ID == "" {
			return bad("stream_id", "missing")
		}
		if b.byID[s.ID] != nil {
			return bad("stream_id", "duplicate stream id %q", s.ID)
		}
		seen := map[string]bool{}
		for i, e := range s.Events {
			field := fmt.Sprintf("events[%d]", i)
			if e.ID == "" {
				return bad(field+".event_id", "missing")
			}
			if seen[e.ID] {
				return bad(field+".event_id", "duplicate event id %q in stream %q", e.ID, s.ID)
			}
			seen[e.ID] = true
			if e.Timestamp.IsZero() {
				return bad(field+".timestamp", "missing")
			}
		}
		s.SortEvents()
		b.byID[s.ID] = s
		b.Streams = append(b.Streams, s)
		return nil
	}))
}

// atomRow is one line of atoms.jsonl: all atoms of one stream.
type atomRow struct {
	StreamID string     `json:"stream_id"`
	NAtoms   *int       `json:"n_atoms"`
	Atoms    []esr.Atom `json:"atoms"`
}

func (b *Bench) readAtoms(path string) error {
	name := filepath.Base(path)
	b.Atoms = map[string][]esr.Atom{}
	ids := map[string]bool{}
	sum, err := eachRow(path, b.pre, func(line int, row *atomRow) error {
		bad := func(field string, format string, args ...any) error {
			return &LineError{File: name, Line: line, Field: field, Err: fmt.Errorf(format, args...)}
		}
		s := b.byID[row.StreamID]
		if s == nil {
			return bad("stream_id", "stream %q is not in the streams file", row.StreamID)
		}
		if _, dup := b.Atoms[row.StreamID]; dup {
			return bad("stream_id", "stream %q has a second atoms row", row.StreamID)
		}
		if row.NAtoms != nil && *row.NAtoms != len(row.Atoms) {
			return bad("n_atoms", "says %d but the row has %d atoms", *row.NAtoms, len(row.Atoms))
		}
		for i := range row.Atoms {
			a := &row.Atoms[i]
			field := fmt.Sprintf("atoms[%d]", i)
			switch {
			case a.ID == "":
				return bad(field+".atom_id", "missing")
			case ids[a.ID]:
				return bad(field+".atom_id", "duplicate atom id %q", a.ID)
			case a.StreamID != "" && a.StreamID != row.StreamID:
				return bad(field+".stream_id", "%q differs from the row's stream %q", a.StreamID, row.StreamID)
			case a.Entity == "":
				return bad(field+".entity", "missing")
			case a.Attribute == "":
				return bad(field+".attribute", "missing")
			case a.Polarity == "":
				return bad(field+".polarity", "missing")
			case strings.TrimSpace(a.Value) == "":
				return bad(field+".value", "empty: an atom asserts or denies a value")
			}
			// Values are single-line text: a control character (a newline
			// above all) could start a row of its own in a render. Real
			// values hold tabs and line breaks (a value quoted from a
			// multi-line comment): those fold to a space, counted per file
			// (Fold); ids stay as written, and any other control character
			// is an error.
			for _, f := range []struct {
				name string
				v    *string
				fold bool
			}{{"atom_id", &a.ID, false}, {"entity", &a.Entity, true}, {"attribute", &a.Attribute, true}, {"value", &a.Value, true}} {
				if f.fold {
					if folded, ok := foldBreaks(*f.v); ok {
						*f.v = folded
						b.noteFold(name, line, field+"."+f.name)
					}
				}
				if i := strings.IndexFunc(*f.v, unicode.IsControl); i >= 0 {
					r, _ := utf8.DecodeRuneInString((*f.v)[i:])
					if r == 0 {
						return bad(field+"."+f.name, "contains a NUL byte")
					}
					return bad(field+"."+f.name, "holds control character %U at byte %d (values are single-line text)", r, i)
				}
			}
			if err := esr.CheckModality(a.Modality); err != nil {
				return bad(field+".modality", "%v", err)
			}
			// A confidence is a probability (the reference pipeline's
			// extractor_confidence, in [0, 1]).
			if !(a.Confidence >= 0 && a.Confidence <= 1) {
				return bad(field+".confidence", "%g is outside [0, 1]", a.Confidence)
			}
			if a.Facet != "" {
				if _, _, err := esr.ParseFacet(a.Facet); err != nil {
					return bad(field+".facet", "%v", err)
				}
			}
			ids[a.ID] = true
			a.StreamID = row.StreamID
			ev := s.Event(a.EventID)
			if ev == nil {
				return bad(field+".event_id", "event %q is not in stream %q", a.EventID, row.StreamID)
			}
			a.EventIndex = s.EventIndex(a.EventID)
			if a.Timestamp.IsZero() {
				a.Timestamp = ev.Timestamp
			}
			// An atom is read off its event: it cannot be older. (Dated
			// earlier, it would move ahead of atoms it follows and flip
			// answers.)
			if a.Timestamp.Before(ev.Timestamp.Time) {
				return bad(field+".timestamp", "%s is before its event %q (%s)", a.Timestamp, a.EventID, ev.Timestamp)
			}
		}
		esr.SortAtoms(row.Atoms)
		b.Atoms[row.StreamID] = row.Atoms
		return nil
	})
	if err := b.record(AtomsFile)(sum, err); err != nil {
		return err
	}
	for _, as := range b.Atoms {
		if len(as) > 0 {
			return nil
		}
	}
	return fmt.Errorf("%s: no atoms: every answer would be ABSTAIN", name)
}

// ReadRelations reads a relations.jsonl file of gold pair relations for the
// bench's atoms (validated like Load does: known atoms, co-keyed pairs, no
// deprecation cycles).
func (b *Bench) ReadRelations(path string) error { return b.readRelations(path) }

// inferStreams makes event-only streams from an atoms file (see LoadFiles).
// Each stream's events are sorted once, when the file is read: the stable
// sort of the events in order of first mention is what sorting after each
// new event gave, without its quadratic cost (11.9 s at 20,000 events).
func (b *Bench) inferStreams(path string) error {
	name := filepath.Base(path)
	seen := map[*esr.Stream]map[string]bool{}
	_, err := readFile(path, func(line int, data []byte) error {
		var row atomRow
		if err := decodeLine(name, line, data, &row); err != nil {
			return err
		}
		s := b.byID[row.StreamID]
		if s == nil {
			s = &esr.Stream{ID: row.StreamID}
			b.byID[row.StreamID] = s
			b.Streams = append(b.Streams, s)
			seen[s] = map[string]bool{}
		}
		for i, a := range row.Atoms {
			if seen[s][a.EventID] {
				continue
			}
			if a.Timestamp.IsZero() {
				return &LineError{File: name, Line: line, Field: fmt.Sprintf("atoms[%d].timestamp", i),
					Err: fmt.Errorf("missing, and there is no streams file to take it from")}
			}
			seen[s][a.EventID] = true
			s.Events = append(s.Events, esr.Event{ID: a.EventID, Kind: a.EventKind, Timestamp: a.Timestamp, Actor: a.Actor, Role: a.Role})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, s := range b.Streams {
		s.SortEvents()
	}
	return nil
}

func (b *Bench) readQAs(path string) error {
	name := filepath.Base(path)
	qids := map[string]bool{}
	return b.record(QAFile)(eachRow(path, b.pre, func(line int, qp *esr.QA) error {
		q := *qp
		bad := func(field string, format string, args ...any) error {
			return &LineError{File: name, Line: line, Field: field, Err: fmt.Errorf(format, args...)}
		}
		// A qid is one line of text: rows join their identity with NUL
		// (eval.Outcome.ID), and a line break would split a row of a table.
		if i := strings.IndexFunc(q.QID, unicode.IsControl); i >= 0 {
			r, _ := utf8.DecodeRuneInString(q.QID[i:])
			return bad("qid", "holds control character %U at byte %d (a qid is single-line text)", r, i)
		}
		switch {
		case q.QID == "":
			return bad("qid", "missing")
		case qids[q.QID]:
			return bad("qid", "duplicate qid %q", q.QID)
		case b.byID[q.StreamID] == nil:
			return bad("stream_id", "stream %q is not in the streams file", q.StreamID)
		case !esr.ValidPhenomenon(q.Phenomenon):
			return bad("phenomenon", "%q is not one of %v", q.Phenomenon, esr.Phenomena)
		case strings.TrimSpace(q.GoldAnswer) == "":
			return bad("gold_answer", "missing or blank")
		case strings.ContainsRune(q.GoldAnswer, 0):
			return bad("gold_answer", "contains a NUL byte")
		}
		if q.QueryType != "" {
			if _, err := esr.ParseQueryType(string(q.QueryType)); err != nil {
				return bad("query_type", "%v", err)
			}
		}
		if q.Facet != "" {
			if _, _, err := esr.ParseFacet(q.Facet); err != nil {
				return bad("facet", "%v", err)
			}
		}
		s := b.byID[q.StreamID]
		for field, list := range map[string][]string{
			"gold_supporting_event_ids": q.GoldSupportingEventIDs,
			"gold_deprecated_event_ids": q.GoldDeprecatedEventIDs,
		} {
			for _, id := range list {
				if s.Event(id) == nil {
					return bad(field, "event %q is not in stream %q", id, q.StreamID)
				}
			}
		}
		// A key with no atom in its stream is what a lossy extraction
		// leaves (the extractor missed its events): the QA is kept and
		// listed in b.Uncovered (every memory has nothing to show for it),
		// unless the caller requires coverage. A key whose atoms all carry
		// another facet is a QA that misnames its key (memories key by the
		// exact facet, "" included): an error.
		atoms := b.Atoms[q.StreamID]
		const why = ": every memory would abstain for want of atoms"
		if k, _ := q.Locate(atoms); !hasKey(atoms, k) {
			facets := facetsOf(atoms, k)
			switch {
			case q.Facet == "" && len(facets) > 0:
				return bad("facet", "missing: stream %q's atoms about the key (%s) all carry a facet (%s), and memories key by facet: every memory would abstain; give the QA the facet it asks about",
					q.StreamID, k.Unfaceted(), strings.Join(facets, ", "))
			case len(facets) > 0:
				return bad("facet", "stream %q has no atom about the key (%s) with facet %q (its atoms have: %s)"+why, q.StreamID, k.Unfaceted(), q.Facet, strings.Join(facets, ", "))
			case !b.opt.RequireCoverage:
				b.Uncovered = append(b.Uncovered, q.QID)
			case len(atoms) == 0:
				return bad("stream_id", "stream %q has no atoms"+why, q.StreamID)
			default:
				return bad("attribute", "stream %q has no atom about the key (%s)"+why, q.StreamID, k)
			}
		}
		qids[q.QID] = true
		b.QAs = append(b.QAs, q)
		return nil
	}))
}

// hasKey reports whether an atom is about k, facet included: an atom with
// a facet is not about a key without one (memories key by the facet).
func hasKey(atoms []esr.Atom, k esr.Key) bool {
	for i := range atoms {
		if atoms[i].Key() == k {
			return true
		}
	}
	return false
}

// facetsOf lists, sorted, the facets of the atoms about k's entity and
// attribute ("(none)" for atoms without one).
func facetsOf(atoms []esr.Atom, k esr.Key) []string {
	seen := map[string]bool{}
	var out []string
	for i := range atoms {
		a := &atoms[i]
		if a.Entity != k.Entity || a.Attribute != k.Attribute || seen[a.Facet] {
			continue
		}
		seen[a.Facet] = true
		f := a.Facet
		if f == "" {
			f = "(none)"
		}
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func (b *Bench) readRelations(path string) error {
	name := filepath.Base(path)
	b.Relations = map[string]map[AtomPair]esr.Relation{}
	atomIdx := map[string]map[string]int{}
	for sid, atoms := range b.Atoms {
		m := make(map[string]int, len(atoms))
		for i, a := range atoms {
			m[a.ID] = i
		}
		atomIdx[sid] = m
	}
	sum, err := eachRow(path, b.pre, func(line int, rp *pairRelation) error {
		r := *rp
		bad := func(field string, format string, args ...any) error {
			return &LineError{File: name, Line: line, Field: field, Err: fmt.Errorf(format, args...)}
		}
		idx, ok := atomIdx[r.StreamID]
		if !ok {
			return bad("stream_id", "stream %q has no atoms", r.StreamID)
		}
		ia, okA := idx[r.A]
		ib, okB := idx[r.B]
		switch {
		case !okA:
			return bad("a", "atom %q is not in stream %q", r.A, r.StreamID)
		case !okB:
			return bad("b", "atom %q is not in stream %q", r.B, r.StreamID)
		case b.Atoms[r.StreamID][ia].Key() != b.Atoms[r.StreamID][ib].Key():
			return bad("b", "atoms %q and %q are not co-keyed", r.A, r.B)
		}
		m := b.Relations[r.StreamID]
		if m == nil {
			m = map[AtomPair]esr.Relation{}
			b.Relations[r.StreamID] = m
		}
		if _, dup := m[AtomPair{A: r.A, B: r.B}]; dup {
			return bad("b", "pair (%q, %q) labelled twice", r.A, r.B)
		}
		m[AtomPair{A: r.A, B: r.B}] = r.Relation
		return nil
	})
	if err := b.record(RelationsFile)(sum, err); err != nil {
		return err
	}
	return b.checkDeprecationCycles(name)
}

// checkDeprecationCycles rejects gold SUPERSEDES edges that form a cycle
// (a supersedes b supersedes … a): ⊕ needs them acyclic (spec §2).
func (b *Bench) checkDeprecationCycles(name string) error {
	sids := make([]string, 0, len(b.Relations))
	for sid := range b.Relations {
		sids = append(sids, sid)
	}
	sort.Strings(sids)
	for _, sid := range sids {
		var edges [][2]string
		for p, r := range b.Relations[sid] {
			if r == esr.Supersedes {
				edges = append(edges, [2]string{p.B, p.A}) // b deprecates a
			}
		}
		if cyc := esr.DeprecationCycle(edges); cyc != nil {
			return fmt.Errorf("%s: stream %q: deprecation edges form a cycle %v", name, sid, cyc)
		}
	}
	return nil
}
