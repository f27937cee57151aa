package sim

import (
	"github.com/esrkit/esrkit/internal/layout"

	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// The render contract, both ways: every memory class (memory.Names,
// memory.DeployedNames, the render-matched control of each, the
// content-matched baselines of the deployed classes, Mem0 with event dates)
// is rendered in every ledger format and fact format, with and without the
// deployed render's raw events, on the paper's Figure 1 stream, the three
// Figure 2 tier streams and a spread of the bundled synthetic streams. Each
// render is parsed back with the scripted readers' parser (layout.Parse) and
// must give exactly the rows the class's state holds: per record the key,
// value, id, date (where the layout shows one) and live/closed status (where
// it shows one), per ledger key its status, and the raw events. The
// expected rows come from the state (State.Rows, the ledger esr.BuildLedger
// builds under the class's relation source, the stream's events), never
// from the render text, so a word the writer prints and the parser does not
// read (or reads otherwise) fails here.

// renderRow is one record as a render shows it, in a form both sides can
// produce: the parser from a view, the test from a class's state.
type renderRow struct {
	key, id, value string
	time           esr.Time // zero when the layout shows no time
	status         string   // status cell, "" when none
	live           int      // 1 open, -1 closed, 0 not shown
	closedAt       esr.Time
}

func (r renderRow) String() string {
	s := fmt.Sprintf("%s|%s|%s|%s|%s|%+d", r.key, r.id, r.value, stampOf(r.time), r.status, r.live)
	if !r.closedAt.IsZero() {
		s += "|closed " + stampOf(r.closedAt)
	}
	return s
}

// eventRow is one raw event (or Graphiti episode) line.
type eventRow struct {
	id   string
	time esr.Time // zero when not shown
	text string
}

func (e eventRow) String() string { return e.id + "|" + stampOf(e.time) + "|" + e.text }

func stampOf(t esr.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format(time.RFC3339)
}

// parsedRows is the parse-back helper: what layout.Parse read from text, as
// rows (sorted) and events (in order), with each ledger key's status.
func parsedRows(text string) (rows []string, keyStatus map[string]string, events []eventRow) {
	v := layout.Parse(text)
	for _, r := range v.Records {
		row := renderRow{key: r.Key, id: r.ID, value: r.Value, status: r.Status, live: r.Live, closedAt: r.ClosedAt}
		if r.HasTime {
			row.time = r.Time
		}
		rows = append(rows, row.String())
	}
	for _, e := range v.Events {
		ev := eventRow{id: e.ID, text: e.Text}
		if e.HasTime {
			ev.time = e.Time
		}
		events = append(events, ev)
	}
	sort.Strings(rows)
	return rows, v.KeyStatus, events
}

// toMinute and toSecond are a time as the kit's layouts (to the minute) and
// the deployed systems' layouts (to the second) show it.
func toMinute(t esr.Time) esr.Time { return esr.Time{Time: t.Truncate(time.Minute)} }
func toSecond(t esr.Time) esr.Time { return esr.Time{Time: t.Truncate(time.Second)} }

// folded is event text as a line shows it: white space folded.
func folded(s string) string { return strings.Join(strings.Fields(s), " ") }

// factKey is the key a fact sentence ("ENTITY ATTRIBUTE is VALUE") names.
func factKey(entity, attribute string) string { return entity + " " + attribute }

// expected is what a render of class c must parse back to.
type expected struct {
	rows      []renderRow
	keyStatus map[string]string // ledger keys only
	// events must be exactly the raw event lines (sorted); episodes, for
	// Graphiti, are the ids every shown fact's episode list must include,
	// each with its event's text.
	events   []eventRow
	episodes map[string]string
	// retrieved: rag-topk's events are the top-k of the stream's; they must
	// include these ids and number at most topK.
	retrieved []string
	topK      int
}

// expectedRows builds what st's render for q shows, from its state.
func expectedRows(t *testing.T, sp memory.Spec, st memory.State, s *esr.Stream, atoms []esr.Atom, opt memory.Options, q esr.Query) expected {
	t.Helper()
	byID := map[string]*esr.Atom{}
	for i := range atoms {
		byID[atoms[i].ID] = &atoms[i]
	}
	atomOf := func(id string) *esr.Atom {
		a := byID[id]
		if a == nil {
			t.Fatalf("%s: state names atom %s the stream does not have", sp, id)
		}
		return a
	}
	streamEvents := func() []eventRow {
		var out []eventRow
		for _, e := range s.Events {
			out = append(out, eventRow{id: e.ID, time: toMinute(e.Timestamp), text: folded(e.Text)})
		}
		return out
	}
	var ex expected
	base := sp.Class
	if !sp.Params.Kept.IsZero() {
		base = memory.GraphRAGAbstain
	}
	switch base {
	case memory.FineLedger, memory.RenderOnly:
		var rel esr.Relator = memory.DefaultRelator()
		if base == memory.RenderOnly || sp.Control {
			rel = relate.SameState{}
		}
		ledger := esr.BuildLedger(s, atoms, rel)
		ex.keyStatus = map[string]string{}
		for _, r := range st.Rows() {
			ex.keyStatus[esr.Key{Entity: r.Entity, Attribute: r.Attribute}.String()] = r.Status
		}
		for _, kl := range ledger.Keys {
			for i, a := range kl.Atoms {
				row := renderRow{key: kl.Key.String(), id: a.EventID, value: a.Display(), time: toMinute(a.Timestamp), status: esr.StatusNeutral}
				if !ledger.MechanismOff {
					row.status = esr.StatusCell(kl.Status[i])
					row.live = -1
					if kl.Status[i] == esr.Live {
						row.live = 1
					}
				}
				if opt.LedgerFormat == memory.LedgerMinimal {
					row.id, row.time = "", esr.Time{}
				}
				ex.rows = append(ex.rows, row)
			}
		}
	case memory.GraphRAGAbstain:
		for _, r := range st.Rows() {
			for _, id := range r.Support {
				a := atomOf(id)
				row := renderRow{key: a.Key().String(), id: a.ID, value: a.Display()}
				if opt.FactFormat != memory.FactsDateless {
					row.time = toMinute(a.Timestamp)
				}
				ex.rows = append(ex.rows, row)
			}
		}
	case memory.GraphRAGLite:
		for _, r := range st.Rows() {
			for _, id := range r.Support {
				a := atomOf(id)
				ex.rows = append(ex.rows, renderRow{key: a.Key().String(), id: a.ID, value: a.Display()})
			}
		}
	case memory.LatestOnly:
		for _, r := range st.Rows() {
			k := esr.Key{Entity: r.Entity, Attribute: r.Attribute}
			ex.rows = append(ex.rows, renderRow{key: k.String(), value: r.Current[0], time: toMinute(r.ValidSince)})
		}
	case memory.CoarseRetain, memory.CoarseDiscard:
		for _, r := range st.Rows() {
			key := factKey(r.Entity, r.Attribute)
			if base == memory.CoarseRetain {
				for _, h := range r.History {
					row := renderRow{key: key, value: h.Value, time: toMinute(h.ValidAt), live: 1}
					if !h.InvalidAt.IsZero() {
						row.live, row.closedAt = -1, toMinute(h.InvalidAt)
					}
					ex.rows = append(ex.rows, row)
				}
				continue
			}
			for _, id := range r.Support {
				a := atomOf(id)
				ex.rows = append(ex.rows, renderRow{key: key, value: a.Display(), time: toMinute(a.Timestamp), live: 1})
			}
		}
	case memory.Graphiti, memory.GraphitiCurrent:
		ex.episodes = map[string]string{}
		for _, r := range st.Rows() {
			key := factKey(r.Entity, r.Attribute)
			for _, h := range r.History {
				row := renderRow{key: key, value: h.Value, time: toSecond(h.ValidAt), live: 1}
				if !h.InvalidAt.IsZero() {
					row.live, row.closedAt = -1, toSecond(h.InvalidAt)
				}
				ex.rows = append(ex.rows, row)
			}
			for _, id := range append(slices.Clone(r.Support), r.Deprecated...) {
				e := s.Event(atomOf(id).EventID)
				ex.episodes[e.ID] = folded(e.Text)
			}
		}
	case memory.Mem0V3, memory.Mem0Update:
		createdAt := ""
		for _, d := range memory.ClassParams(base) {
			if d.Key == memory.ParamCreatedAt {
				createdAt = d.Default
			}
		}
		if sp.Params.CreatedAt.Set {
			createdAt = sp.Params.CreatedAt.Value
		}
		for _, r := range st.Rows() {
			for _, id := range r.Support {
				a := atomOf(id)
				when := toSecond(a.Timestamp)
				if createdAt == memory.CreatedAtIngestion {
					when = esr.Time{Time: memory.IngestionEpoch.Add(time.Duration(a.EventIndex) * time.Second)}
				}
				ex.rows = append(ex.rows, renderRow{key: factKey(r.Entity, r.Attribute), value: a.Display(), time: when})
			}
		}
	case memory.DirectContext:
		ex.events = streamEvents()
	case memory.RAGTopK:
		for _, r := range st.Rows() {
			if r.Entity == q.Key.Entity && r.Attribute == q.Key.Attribute {
				for _, id := range r.Support {
					ex.retrieved = append(ex.retrieved, atomOf(id).EventID)
				}
			}
		}
		ex.topK = min(opt.TopK, len(s.Events))
		if opt.TopK <= 0 {
			ex.topK = min(memory.DefaultTopK, len(s.Events))
		}
	default:
		t.Fatalf("no expected rows for class %s", sp)
	}
	if opt.Deployed {
		ex.events = append(ex.events, streamEvents()...)
	}
	return ex
}

// checkRoundTrip parses text and compares it with ex.
func checkRoundTrip(t *testing.T, where string, text string, ex expected, s *esr.Stream) {
	t.Helper()
	rows, keyStatus, events := parsedRows(text)
	var want []string
	for _, r := range ex.rows {
		want = append(want, r.String())
	}
	sort.Strings(want)
	if !slices.Equal(rows, want) {
		t.Errorf("%s: rows parsed back differ from the state's\n got: %q\nwant: %q\nrender:\n%s", where, rows, want, text)
		return
	}
	if len(keyStatus) != len(ex.keyStatus) {
		t.Errorf("%s: parsed %d key statuses, state has %d keys\nrender:\n%s", where, len(keyStatus), len(ex.keyStatus), text)
	}
	for k, st := range ex.keyStatus {
		if keyStatus[k] != st {
			t.Errorf("%s: key %s status parsed as %q, state says %q\nrender:\n%s", where, k, keyStatus[k], st, text)
		}
	}
	// The exact events (direct-context's, the deployed render's raw
	// events) each take one parsed line; what is left must be rag-topk's
	// retrieved events or Graphiti's episodes, each a stream event with its
	// text (and date, where shown).
	left := map[string]int{}
	for _, e := range events {
		left[e.String()]++
	}
	for _, e := range ex.events {
		if left[e.String()] == 0 {
			t.Errorf("%s: event %s not parsed back\nrender:\n%s", where, e, text)
			return
		}
		left[e.String()]--
	}
	ids := map[string]bool{}
	n := 0
	for _, e := range events {
		if left[e.String()] == 0 {
			continue
		}
		left[e.String()]--
		n++
		ids[e.id] = true
		ev := s.Event(e.id)
		switch {
		case ex.episodes == nil && ex.topK == 0:
			t.Errorf("%s: unexpected event line %s", where, e)
		case ev == nil:
			t.Errorf("%s: parsed event %q is not in the stream", where, e.id)
		case e.text != folded(ev.Text):
			t.Errorf("%s: event %s text %q, stream has %q", where, e.id, e.text, folded(ev.Text))
		case ex.episodes != nil && !e.time.IsZero():
			t.Errorf("%s: episode %s shows a date", where, e.id)
		case ex.topK > 0 && !e.time.Equal(toMinute(ev.Timestamp).Time):
			t.Errorf("%s: event %s time %v, stream has %v", where, e.id, e.time, ev.Timestamp)
		}
	}
	if ex.topK > 0 && n != ex.topK {
		t.Errorf("%s: %d retrieved event lines, want %d", where, n, ex.topK)
	}
	for _, id := range ex.retrieved {
		if !ids[id] {
			t.Errorf("%s: retrieved event %s not parsed back", where, id)
		}
	}
	for id := range ex.episodes {
		if !ids[id] {
			t.Errorf("%s: episode %s of a shown fact not parsed back", where, id)
		}
	}
}

// roundTripClasses lists the classes the round trip covers.
func roundTripClasses(t *testing.T) []memory.Spec {
	seen := map[memory.Spec]bool{}
	var out []memory.Spec
	add := func(n memory.Spec) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, n := range append(slices.Clone(memory.Names), memory.DeployedNames...) {
		add(memory.SpecOf(n))
		if n != memory.RenderOnly {
			add(memory.SpecOf(n).RenderMatched())
		}
	}
	for _, n := range memory.DeployedNames {
		add(memory.SpecOf(n).ContentMatched())
	}
	for _, n := range []memory.Class{memory.Mem0V3, memory.Mem0Update} {
		ev, err := memory.SpecOf(n).With(memory.ParamCreatedAt, memory.CreatedAtEvent)
		if err != nil {
			t.Fatal(err)
		}
		add(ev)
	}
	return out
}

// roundTripStream is one stream with its atoms.
type roundTripStream struct {
	s     *esr.Stream
	atoms []esr.Atom
}

// roundTripStreams: Figure 1, the three tiers, and from the bundled
// synthetic bench every 40th stream of each source plus each source's
// longest (most atoms).
func roundTripStreams(t *testing.T) []roundTripStream {
	s, a := bench.Figure1()
	out := []roundTripStream{{s, a}}
	for _, tr := range bench.Tiers() {
		out = append(out, roundTripStream{tr.Stream, tr.Atoms})
	}
	b, err := bench.Load("../../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	longest := map[string]*esr.Stream{}
	source := func(s *esr.Stream) string { return s.ID[:strings.LastIndexByte(s.ID, '-')] }
	for i, s := range b.Streams {
		if l := longest[source(s)]; l == nil || len(b.Atoms[s.ID]) > len(b.Atoms[l.ID]) {
			longest[source(s)] = s
		}
		if i%40 == 0 {
			out = append(out, roundTripStream{s, b.Atoms[s.ID]})
		}
	}
	srcs := make([]string, 0, len(longest))
	for k := range longest {
		srcs = append(srcs, k)
	}
	sort.Strings(srcs)
	for _, k := range srcs {
		out = append(out, roundTripStream{longest[k], b.Atoms[longest[k].ID]})
	}
	return out
}

func TestRenderRoundTrip(t *testing.T) {
	classes := roundTripClasses(t)
	streams := roundTripStreams(t)
	renders := 0
	for _, x := range streams {
		var keys []esr.Key
		for i := range x.atoms {
			if k := x.atoms[i].Key(); !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		for _, c := range classes {
			for _, lf := range memory.LedgerFormats {
				for _, ff := range memory.FactFormats {
					for _, dep := range []bool{false, true} {
						opt := memory.Options{LedgerFormat: lf, FactFormat: ff, Deployed: dep, RenderSeed: 7}
						st, err := memory.Build(c, x.s, x.atoms, opt)
						if err != nil {
							t.Fatal(err)
						}
						qs := []esr.Query{{Type: esr.Snapshot, Key: keys[0]}}
						if c.Is(memory.RAGTopK) || c == memory.SpecOf(memory.RAGTopK).RenderMatched() {
							qs = qs[:0] // its render depends on the question: one per key, as Rows asks
							for _, k := range keys {
								qs = append(qs, esr.Query{Type: esr.Snapshot, Key: k})
							}
						}
						for _, q := range qs {
							where := fmt.Sprintf("%s %s ledger=%s facts=%s deployed=%v key=%s", x.s.ID, c, lf, ff, dep, q.Key)
							checkRoundTrip(t, where, st.Render(q), expectedRows(t, c, st, x.s, x.atoms, opt, q), x.s)
							renders++
						}
						if t.Failed() {
							return
						}
					}
				}
			}
		}
	}
	t.Logf("%d renders of %d classes on %d streams parsed back", renders, len(classes), len(streams))
}
