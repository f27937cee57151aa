package bench

import (
	"encoding/binary"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/esrkit/esrkit/esr"
)

// The body of a benchmark snapshot (snapshot.go) is the loaded benchmark in
// a plain binary form: a table of every distinct string, then the streams,
// atoms, questions, relations, uncovered questions and folds, each string an index
// into the table, each number a varint, maps in key order (the bytes do not
// depend on map order). Reading it back views the table's
// bytes as one string (no copy) and slices every field out of it, and makes
// the streams in one block and each stream's events and atoms in one: no
// per-field allocation, no reflection (gob, which the snapshots used
// before, spent most of a cell's load on both).
//
// A list is written as its length plus one, 0 meaning nil: the JSON's "[]"
// and null are two benchmarks (the hash, which keys every cache, tells them
// apart), and both survive. Times are UTC (esr.ParseTime makes them so);
// any other time, or anything else encodeSnapshot cannot keep exactly, makes
// it fail, and writeSnapshot checks the decoded copy against the loaded
// benchmark before it keeps a snapshot.

// errUnkept is encodeSnapshot's error for a benchmark it cannot keep exactly.
var errUnkept = errors.New("bench: the snapshot cannot keep this benchmark exactly")

// snapEncoder appends a body.
type snapEncoder struct {
	buf   []byte
	index map[string]uint64
	table []string
	err   error
}

func (e *snapEncoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *snapEncoder) int(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }
func (e *snapEncoder) float(f float64) {
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(f))
}

func (e *snapEncoder) str(s string) {
	i, ok := e.index[s]
	if !ok {
		i = uint64(len(e.table))
		e.index[s] = i
		e.table = append(e.table, s)
	}
	e.uint(i)
}

// count writes the length of a list that may be nil.
func (e *snapEncoder) count(n int, isNil bool) {
	if isNil {
		e.uint(0)
		return
	}
	e.uint(uint64(n) + 1)
}

func (e *snapEncoder) strs(l []string) {
	e.count(len(l), l == nil)
	for _, s := range l {
		e.str(s)
	}
}

func (e *snapEncoder) optStr(p *string) {
	if p == nil {
		e.uint(0)
		return
	}
	e.uint(1)
	e.str(*p)
}

func (e *snapEncoder) time(t esr.Time) {
	switch {
	case t.Time == time.Time{}:
		e.uint(0)
	case t.Location() != time.UTC || t.Time != t.UTC():
		e.err = errUnkept
	default:
		e.uint(1)
		e.int(t.Unix())
		e.uint(uint64(t.Nanosecond()))
	}
}

// Value kinds of an event's meta (what JSON decodes into an any).
const (
	metaNull = iota
	metaFalse
	metaTrue
	metaNumber
	metaString
	metaList
	metaObject
)

func (e *snapEncoder) meta(m map[string]any) {
	e.count(len(m), m == nil)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		e.str(k)
		e.value(m[k])
	}
}

func (e *snapEncoder) value(v any) {
	switch v := v.(type) {
	case nil:
		e.uint(metaNull)
	case bool:
		if v {
			e.uint(metaTrue)
		} else {
			e.uint(metaFalse)
		}
	case float64:
		e.uint(metaNumber)
		e.float(v)
	case string:
		e.uint(metaString)
		e.str(v)
	case []any:
		e.uint(metaList)
		e.count(len(v), v == nil)
		for _, x := range v {
			e.value(x)
		}
	case map[string]any:
		e.uint(metaObject)
		e.meta(v)
	default: // not what JSON decodes
		e.err = errUnkept
	}
}

// encodeSnapshot is b's snapshot body.
func encodeSnapshot(b *Bench) ([]byte, error) {
	e := &snapEncoder{index: map[string]uint64{}}
	e.count(len(b.Streams), b.Streams == nil)
	for _, s := range b.Streams {
		e.str(s.ID)
		e.str(s.Repo)
		e.int(int64(s.IssueNumber))
		e.str(s.Title)
		e.str(s.CurrentState)
		e.strs(s.CurrentLabels)
		e.time(s.CreatedAt)
		e.time(s.ClosedAt)
		e.int(int64(s.NComments))
		e.str(s.Source)
		e.count(len(s.Events), s.Events == nil)
		for i := range s.Events {
			ev := &s.Events[i]
			e.str(ev.ID)
			e.str(ev.Kind)
			e.time(ev.Timestamp)
			e.str(ev.Text)
			e.optStr(ev.Actor)
			e.str(ev.Role)
			e.meta(ev.Meta)
		}
	}
	sids := slices.Sorted(maps.Keys(b.Atoms))
	e.count(len(sids), b.Atoms == nil)
	for _, sid := range sids {
		atoms := b.Atoms[sid]
		e.str(sid)
		e.count(len(atoms), atoms == nil)
		for i := range atoms {
			a := &atoms[i]
			e.str(a.ID)
			e.str(a.StreamID)
			e.str(a.EventID)
			e.int(int64(a.EventIndex))
			e.str(a.EventKind)
			e.time(a.Timestamp)
			e.optStr(a.Actor)
			e.str(a.Role)
			e.str(a.Modality)
			e.str(a.Entity)
			e.str(a.Attribute)
			e.str(a.Value)
			e.str(string(a.Polarity))
			e.float(a.Confidence)
			e.str(a.Facet)
		}
	}
	e.count(len(b.QAs), b.QAs == nil)
	for i := range b.QAs {
		q := &b.QAs[i]
		e.str(q.QID)
		e.str(q.StreamID)
		e.str(q.Question)
		e.str(q.GoldAnswer)
		e.strs(q.GoldSupportingEventIDs)
		e.strs(q.GoldDeprecatedEventIDs)
		e.str(string(q.Phenomenon))
		e.float(q.Confidence)
		e.str(q.Rationale)
		e.str(string(q.QueryType))
		e.str(q.Source)
		e.str(q.Entity)
		e.str(q.Attribute)
		e.strs(q.Aliases)
		e.str(q.Facet)
	}
	rsids := slices.Sorted(maps.Keys(b.Relations))
	e.count(len(rsids), b.Relations == nil)
	for _, sid := range rsids {
		m := b.Relations[sid]
		pairs := make([]AtomPair, 0, len(m))
		for p := range m {
			pairs = append(pairs, p)
		}
		slices.SortFunc(pairs, func(x, y AtomPair) int {
			if c := strings.Compare(x.A, y.A); c != 0 {
				return c
			}
			return strings.Compare(x.B, y.B)
		})
		e.str(sid)
		e.count(len(pairs), m == nil)
		for _, p := range pairs {
			e.str(p.A)
			e.str(p.B)
			e.uint(uint64(m[p]))
		}
	}
	e.strs(b.Uncovered)
	e.count(len(b.Folds), b.Folds == nil)
	for _, f := range b.Folds {
		e.str(f.File)
		e.int(int64(f.Fields))
		e.int(int64(f.Line))
		e.str(f.Field)
	}
	if e.err != nil {
		return nil, e.err
	}
	// The table goes first: its count, then each string's length and bytes.
	out := binary.AppendUvarint(nil, uint64(len(e.table)))
	for _, s := range e.table {
		out = binary.AppendUvarint(out, uint64(len(s)))
	}
	for _, s := range e.table {
		out = append(out, s...)
	}
	return append(out, e.buf...), nil
}

// snapDecoder reads a body; any read past its end or out of range sets bad
// and returns a zero value, so a damaged body is refused, never a panic or
// an allocation it cannot back (every count is bounded by the bytes left,
// each element taking at least one).
type snapDecoder struct {
	data  []byte
	pos   int
	table []string
	bad   bool
}

func (d *snapDecoder) uint() uint64 {
	if d.bad {
		return 0
	}
	v, n := binary.Uvarint(d.data[d.pos:])
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.pos += n
	return v
}

func (d *snapDecoder) int() int64 {
	if d.bad {
		return 0
	}
	v, n := binary.Varint(d.data[d.pos:])
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.pos += n
	return v
}

func (d *snapDecoder) float() float64 {
	if d.bad || len(d.data)-d.pos < 8 {
		d.bad = true
		return 0
	}
	v := binary.LittleEndian.Uint64(d.data[d.pos:])
	d.pos += 8
	return math.Float64frombits(v)
}

// n reads a count bounded by the bytes left.
func (d *snapDecoder) n() int {
	v := d.uint()
	if v > uint64(len(d.data)-d.pos) {
		d.bad = true
		return 0
	}
	return int(v)
}

// count reads a list's length; isNil for a nil list.
func (d *snapDecoder) count() (n int, isNil bool) {
	v := d.uint()
	if v == 0 || d.bad {
		return 0, true
	}
	if v-1 > uint64(len(d.data)-d.pos) {
		d.bad = true
		return 0, true
	}
	return int(v - 1), false
}

func (d *snapDecoder) str() string {
	i := d.uint()
	if i >= uint64(len(d.table)) {
		d.bad = true
		return ""
	}
	return d.table[i]
}

func (d *snapDecoder) strs() []string {
	n, isNil := d.count()
	if isNil {
		return nil
	}
	l := make([]string, n)
	for i := range l {
		l[i] = d.str()
	}
	return l
}

func (d *snapDecoder) optStr() *string {
	switch d.uint() {
	case 0:
		return nil
	case 1:
		s := d.str()
		return &s
	}
	d.bad = true
	return nil
}

func (d *snapDecoder) time() esr.Time {
	switch d.uint() {
	case 0:
		return esr.Time{}
	case 1:
		sec, nsec := d.int(), d.uint()
		if nsec >= 1e9 {
			d.bad = true
			return esr.Time{}
		}
		return esr.Time{Time: time.Unix(sec, int64(nsec)).UTC()}
	}
	d.bad = true
	return esr.Time{}
}

// maxMetaDepth bounds how deep a meta value nests (a damaged body could
// nest it without end).
const maxMetaDepth = 64

func (d *snapDecoder) meta(depth int) map[string]any {
	n, isNil := d.count()
	if isNil || depth > maxMetaDepth {
		d.bad = d.bad || depth > maxMetaDepth
		return nil
	}
	m := make(map[string]any, n)
	for range n {
		k := d.str()
		m[k] = d.value(depth)
		if d.bad {
			return nil
		}
	}
	return m
}

func (d *snapDecoder) value(depth int) any {
	switch d.uint() {
	case metaNull:
		return nil
	case metaFalse:
		return false
	case metaTrue:
		return true
	case metaNumber:
		return d.float()
	case metaString:
		return d.str()
	case metaList:
		n, isNil := d.count()
		if isNil || depth >= maxMetaDepth {
			d.bad = d.bad || depth >= maxMetaDepth
			return []any(nil)
		}
		l := make([]any, n)
		for i := range l {
			l[i] = d.value(depth + 1)
			if d.bad {
				return nil
			}
		}
		return l
	case metaObject:
		return d.meta(depth + 1)
	}
	d.bad = true
	return nil
}

// readTable reads the string table: one string of all its bytes, each
// entry a slice of it.
func (d *snapDecoder) readTable() {
	n := d.n()
	lens := make([]int, n)
	total := 0
	for i := range lens {
		l := d.n()
		lens[i], total = l, total+l
		if total > len(d.data)-d.pos {
			d.bad = true
		}
		if d.bad {
			return
		}
	}
	// The body is never modified once decoded (a snapshot's bytes are the
	// process's own, mapfile.Read; an encoded body is not written to again):
	// the table is viewed as one string without a copy, as flatsnap does.
	var block string
	if total > 0 {
		block = unsafe.String(&d.data[d.pos], total)
	}
	d.pos += total
	d.table = make([]string, n)
	off := 0
	for i, l := range lens {
		d.table[i] = block[off : off+l]
		off += l
	}
}

// decodeSnapshot is the benchmark a body holds, with Dir and opt set; ok is
// false for a damaged body.
func decodeSnapshot(body []byte, dir string, opt LoadOptions) (b *Bench, ok bool) {
	d := &snapDecoder{data: body}
	d.readTable()
	b = &Bench{Dir: dir, opt: opt}
	if n, isNil := d.count(); !isNil {
		block := make([]esr.Stream, n)
		b.Streams = make([]*esr.Stream, n)
		b.byID = make(map[string]*esr.Stream, n)
		for i := range block {
			s := &block[i]
			s.ID = d.str()
			s.Repo = d.str()
			s.IssueNumber = int(d.int())
			s.Title = d.str()
			s.CurrentState = d.str()
			s.CurrentLabels = d.strs()
			s.CreatedAt = d.time()
			s.ClosedAt = d.time()
			s.NComments = int(d.int())
			s.Source = d.str()
			if m, isNil := d.count(); !isNil {
				s.Events = make([]esr.Event, m)
				for j := range s.Events {
					ev := &s.Events[j]
					ev.ID = d.str()
					ev.Kind = d.str()
					ev.Timestamp = d.time()
					ev.Text = d.str()
					ev.Actor = d.optStr()
					ev.Role = d.str()
					ev.Meta = d.meta(0)
				}
			}
			if d.bad {
				return nil, false
			}
			b.Streams[i] = s
			b.byID[s.ID] = s
		}
	} else {
		b.byID = map[string]*esr.Stream{}
	}
	if n, isNil := d.count(); !isNil {
		b.Atoms = make(map[string][]esr.Atom, n)
		for range n {
			sid := d.str()
			m, isNil := d.count()
			var atoms []esr.Atom
			if !isNil {
				atoms = make([]esr.Atom, m)
			}
			for j := range atoms {
				a := &atoms[j]
				a.ID = d.str()
				a.StreamID = d.str()
				a.EventID = d.str()
				a.EventIndex = int(d.int())
				a.EventKind = d.str()
				a.Timestamp = d.time()
				a.Actor = d.optStr()
				a.Role = d.str()
				a.Modality = d.str()
				a.Entity = d.str()
				a.Attribute = d.str()
				a.Value = d.str()
				a.Polarity = esr.Polarity(d.str())
				a.Confidence = d.float()
				a.Facet = d.str()
			}
			if d.bad {
				return nil, false
			}
			b.Atoms[sid] = atoms
		}
	}
	if n, isNil := d.count(); !isNil {
		b.QAs = make([]esr.QA, n)
		for i := range b.QAs {
			q := &b.QAs[i]
			q.QID = d.str()
			q.StreamID = d.str()
			q.Question = d.str()
			q.GoldAnswer = d.str()
			q.GoldSupportingEventIDs = d.strs()
			q.GoldDeprecatedEventIDs = d.strs()
			q.Phenomenon = esr.Phenomenon(d.str())
			q.Confidence = d.float()
			q.Rationale = d.str()
			q.QueryType = esr.QueryType(d.str())
			q.Source = d.str()
			q.Entity = d.str()
			q.Attribute = d.str()
			q.Aliases = d.strs()
			q.Facet = d.str()
			if d.bad {
				return nil, false
			}
		}
	}
	if n, isNil := d.count(); !isNil {
		b.Relations = make(map[string]map[AtomPair]esr.Relation, n)
		for range n {
			sid := d.str()
			m, isNil := d.count()
			var rel map[AtomPair]esr.Relation
			if !isNil {
				rel = make(map[AtomPair]esr.Relation, m)
			}
			for range m {
				p := AtomPair{A: d.str(), B: d.str()}
				r := d.uint()
				if r > math.MaxUint8 {
					d.bad = true
				}
				rel[p] = esr.Relation(r)
			}
			if d.bad {
				return nil, false
			}
			b.Relations[sid] = rel
		}
	}
	b.Uncovered = d.strs()
	if n, isNil := d.count(); !isNil {
		b.Folds = make([]Fold, n)
		for i := range b.Folds {
			f := &b.Folds[i]
			f.File = d.str()
			f.Fields = int(d.int())
			f.Line = int(d.int())
			f.Field = d.str()
		}
	}
	if d.bad || d.pos != len(d.data) {
		return nil, false
	}
	b.settle()
	return b, true
}
