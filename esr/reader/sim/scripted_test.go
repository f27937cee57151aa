package sim

import (
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/layout"

	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// figure1Input renders the Figure 1 stream with class m for a query type.
func figure1Input(t *testing.T, m string, qt esr.QueryType, deployed bool) reader.Input {
	t.Helper()
	s, atoms := bench.Figure1()
	st := memory.MustBuild(memory.MustParseSpec(m), s, atoms, memory.Options{Deployed: deployed})
	question := bench.Figure1Question
	switch qt {
	case esr.Provenance:
		question = "What request_timeout was in force for service immediately before the current one?"
	case esr.RelationType:
		question = "Did the last change of request_timeout for service refine or replace the prior value?"
	}
	q := esr.Query{Type: qt, Key: bench.TimeoutKey, Question: question}
	// State is deliberately left nil: a text reader must not need it.
	return reader.Input{QID: "f1", Question: question, QueryType: qt, Context: st.Render(q),
		MayAbstain: st.MayAbstain(), Memory: memory.MustParseSpec(m)}
}

func read(t *testing.T, profile string, in reader.Input) reader.Output {
	t.Helper()
	r, err := NewScripted(profile)
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Read(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The render confound in miniature: a time-sorting reader answers from
// every render that shows dates, the render-only control and the dated
// d-blind control alike, and abstains only on the dateless variant (same
// values, no dates). A reader that ignores dates and reads status (cautious)
// answers only where the mechanism shows a status: fine-ledger.
func TestTimeSorterRenderConfound(t *testing.T) {
	for _, m := range []memory.Class{memory.RenderOnly, memory.GraphRAGAbstain} {
		out := read(t, "time-sorter", figure1Input(t, string(m), esr.Snapshot, false))
		if out.Answer != esr.Says("30 s") {
			t.Errorf("%s: %v (%s), want 30 s", m, out.Answer, out.Note)
		}
		if out := read(t, "cautious", figure1Input(t, string(m), esr.Snapshot, false)); !out.Answer.Abstain {
			t.Errorf("cautious on %s: %v (%s), want ABSTAIN", m, out.Answer, out.Note)
		}
	}
	if out := read(t, "cautious", figure1Input(t, memory.FineLedger, esr.Snapshot, false)); out.Answer != esr.Says("30 s") {
		t.Errorf("cautious on fine-ledger: %v (%s), want 30 s", out.Answer, out.Note)
	}
	s, atoms := bench.Figure1()
	q := esr.Query{Type: esr.Snapshot, Key: bench.TimeoutKey, Question: bench.Figure1Question}
	st := memory.MustBuild(memory.SpecOf(memory.GraphRAGAbstain), s, atoms, memory.Options{FactFormat: memory.FactsDateless})
	in := reader.Input{Question: q.Question, QueryType: esr.Snapshot, Context: st.Render(q), MayAbstain: true}
	if strings.Contains(in.Context, "2024-") {
		t.Fatalf("dateless render shows a date:\n%s", in.Context)
	}
	if out := read(t, "time-sorter", in); !out.Answer.Abstain {
		t.Errorf("dateless graphrag-abstain: %v (%s), want ABSTAIN", out.Answer, out.Note)
	}
}

const a = "ABSTAIN"

// profileOrder is the column order of the expectation tables.
var profileOrder = []string{"status-reader", "time-sorter", "cautious", "budgeted", "majority", "naive"}

// Expected answers of each profile (profileOrder) on each class's Figure 1
// render, worked out by hand from the renders in esr/memory/testdata/figure1.
var figure1Want = map[esr.QueryType]map[string][6]string{
	esr.Snapshot: {
		memory.DirectContext:   {"30 s", "30 s", a, "30 s", "30 s", "30 s"},
		memory.RAGTopK:         {"30 s", "30 s", a, "30 s", "30 s", "30 s"},
		memory.LatestOnly:      {"30 s", "30 s", "30 s", "30 s", "30 s", "30 s"},
		memory.GraphRAGLite:    {"30 s", "30 s", "30 s", "30 s", "30 s", "30 s"}, // may not abstain: majority
		memory.GraphRAGAbstain: {"30 s", "30 s", a, "30 s", "30 s", "30 s"},      // dated rows: time-sorters answer
		memory.CoarseDiscard:   {"30 s", "30 s", "30 s", "30 s", "30 s", "30 s"},
		memory.CoarseRetain:    {"30 s", "30 s", "30 s", "30 s", "30 s", "30 s"},
		memory.FineLedger:      {"30 s", "30 s", "30 s", "30 s", "30 s", "30 s"},
		memory.RenderOnly:      {"30 s", "30 s", a, "30 s", "30 s", "30 s"},
	},
	esr.Provenance: {
		// budgeted reads 55 tokens (reader.CountTokens, BPE-like): only the newest event
		// line of raw text, and only the newest rows of a table, so it sees no
		// prior value in any render but graphrag-lite's short grouped table.
		memory.DirectContext:   {"60 s", "60 s", a, a, "60 s", "60 s"},
		memory.RAGTopK:         {"60 s", "60 s", a, a, "60 s", "60 s"},
		memory.LatestOnly:      {a, a, a, a, a, a},
		memory.GraphRAGLite:    {"60 s", "60 s", "60 s", "60 s", "60 s", "60 s"},
		memory.GraphRAGAbstain: {"60 s", "60 s", a, a, "60 s", "60 s"},
		memory.CoarseDiscard:   {a, a, a, a, a, a},
		memory.CoarseRetain:    {"60 s", "60 s", "60 s", a, "60 s", "60 s"},
		memory.FineLedger:      {"60 s", "60 s", "60 s", a, "60 s", "60 s"},
		memory.RenderOnly:      {"60 s", "60 s", a, a, "60 s", "60 s"},
	},
	esr.RelationType: {
		// Only a status cell the reader reads shows a relation type; with
		// none, a reader that found both values answers "replaces".
		memory.DirectContext:   {"replaces", "replaces", a, a, "replaces", "replaces"},
		memory.LatestOnly:      {a, a, a, a, a, a},
		memory.GraphRAGAbstain: {"replaces", "replaces", a, a, "replaces", "replaces"},
		memory.CoarseDiscard:   {a, a, a, a, a, a},
		memory.CoarseRetain:    {"replaces", "replaces", "replaces", a, "replaces", "replaces"}, // invalid_at closes an edge, it does not type it
		memory.FineLedger:      {"replaces", "replaces", "replaces", a, "replaces", "replaces"},
		memory.RenderOnly:      {"replaces", "replaces", a, a, "replaces", "replaces"},
	},
}

// Deployed renders (raw events appended): readers fall back to the events
// when the structure lacks the answer, so time-sorters recover provenance
// from coarse-discard and a snapshot from graphrag-abstain.
var figure1DeployedWant = map[esr.QueryType]map[string][6]string{
	esr.Snapshot: {
		memory.GraphRAGAbstain: {"30 s", "30 s", a, "30 s", "30 s", "30 s"},
		memory.FineLedger:      {"30 s", "30 s", "30 s", "30 s", "30 s", "30 s"},
	},
	esr.Provenance: {
		memory.CoarseDiscard:   {"60 s", "60 s", a, a, "60 s", "60 s"},
		memory.LatestOnly:      {"60 s", "60 s", a, a, "60 s", "60 s"},
		memory.GraphRAGAbstain: {"60 s", "60 s", a, a, "60 s", "60 s"},
		memory.FineLedger:      {"60 s", "60 s", "60 s", a, "60 s", "60 s"},
	},
}

func TestScriptedFigure1(t *testing.T) {
	for _, tc := range []struct {
		deployed bool
		want     map[esr.QueryType]map[string][6]string
	}{{false, figure1Want}, {true, figure1DeployedWant}} {
		for qt, byClass := range tc.want {
			for class, want := range byClass {
				in := figure1Input(t, class, qt, tc.deployed)
				for i, p := range profileOrder {
					out := read(t, p, in)
					if out.Answer.String() != want[i] {
						t.Errorf("deployed=%v %s %s %s: got %v, want %s\n  note: %s", tc.deployed, qt, class, p,
							out.Answer, want[i], out.Note)
					}
					if out.ContextTokens != reader.CountTokens(in.Context) {
						t.Errorf("context tokens %d, want %d", out.ContextTokens, reader.CountTokens(in.Context))
					}
				}
			}
		}
	}
}

// Every class's Figure 1 render is covered for snapshot and provenance.
func TestScriptedFigure1Coverage(t *testing.T) {
	for _, qt := range []esr.QueryType{esr.Snapshot, esr.Provenance} {
		for _, m := range memory.Names {
			if _, ok := figure1Want[qt][string(m)]; !ok {
				t.Errorf("no expectation for %s %s", qt, m)
			}
		}
	}
}

// The reader parses the golden render files as text, with no state at all.
func TestScriptedReadsGoldenFiles(t *testing.T) {
	for _, m := range memory.Names {
		in := figure1Input(t, string(m), esr.Snapshot, false)
		in.State = nil
		want := figure1Want[esr.Snapshot][string(m)][1]
		if got := read(t, "time-sorter", in).Answer.String(); got != want {
			t.Errorf("%s: %s, want %s", m, got, want)
		}
	}
}

// build makes a one-key stream from compact events.
func build(id string, k esr.Key, evs []bench.Event) (*esr.Stream, []esr.Atom) {
	return bench.Build(id, k, evs)
}

func TestScriptedRefinement(t *testing.T) {
	k := esr.Key{Entity: "parse_config", Attribute: "proposed_workaround"}
	s, atoms := build("ref", k, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Actor: "alice", Value: "pin numpy", Text: "Workaround: pin numpy."},
		{ID: "e2", Date: "2024-02-01", Actor: "alice", Value: "pin numpy below 2.0 on Windows", Text: "More precisely: pin numpy below 2.0 on Windows."},
	})
	question := "Did the last change of proposed_workaround for parse_config refine or replace the prior value?"
	q := esr.Query{Type: esr.RelationType, Key: k, Question: question}
	st := memory.MustBuild(memory.SpecOf(memory.FineLedger), s, atoms, memory.Options{})
	in := reader.Input{Question: question, QueryType: esr.RelationType, Context: st.Render(q), MayAbstain: true}
	if got := read(t, "status-reader", in); got.Answer != esr.Says(esr.AnswerRefines) {
		t.Errorf("status-reader: %v (%s), want refines", got.Answer, got.Note)
	}
	// Gold relation REFINES between surface forms the substring rule cannot
	// see: only a status reader gets it.
	s2, atoms2 := build("ref2", esr.Key{Entity: "ci", Attribute: "runner_os"}, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Actor: "alice", Value: "Linux", Text: "Runs on Linux."},
		{ID: "e2", Date: "2024-02-01", Actor: "alice", Value: "Ubuntu 22.04", Text: "Specifically Ubuntu 22.04."},
	})
	gold := map[string]map[esr.AtomPair]esr.Relation{"ref2": {{A: "a1", B: "a2"}: esr.Refines}}
	st2 := memory.MustBuild(memory.SpecOf(memory.FineLedger), s2, atoms2, memory.Options{Relator: relate.Oracle{Gold: gold}})
	q2 := "Did the last change of runner_os for ci refine or replace the prior value?"
	in2 := reader.Input{Question: q2, QueryType: esr.RelationType, Context: st2.Render(esr.Query{Type: esr.RelationType}), MayAbstain: true}
	if got := read(t, "status-reader", in2); got.Answer != esr.Says(esr.AnswerRefines) {
		t.Errorf("status-reader on REFINED row: %v (%s)\n%s", got.Answer, got.Note, in2.Context)
	}
	if got := read(t, "time-sorter", in2); got.Answer != esr.Says(esr.AnswerReplaces) || !strings.Contains(got.Note, "no relation type shown") {
		t.Errorf("time-sorter ignores status, so it sees no type: %v (%s), want replaces", got.Answer, got.Note)
	}
	in2.QueryType = esr.Snapshot
	if got := read(t, "status-reader", in2); got.Answer != esr.Says("Ubuntu 22.04") {
		t.Errorf("snapshot after refinement: %v", got.Answer)
	}
}

// A later value that contains the earlier one is not a relation type: a
// render without a REFINED cell gives no reader "refines", whatever the
// values look like (spec §8's substring rule is the rule scorer's cue, not
// a reader's).
func TestScriptedRelationTypeNotFromValues(t *testing.T) {
	k := esr.Key{Entity: "parse_config", Attribute: "proposed_workaround"}
	s, atoms := build("sub", k, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Actor: "alice", Value: "pin numpy", Text: "Workaround: pin numpy."},
		{ID: "e2", Date: "2024-02-01", Actor: "alice", Value: "pin numpy below 2.0 on Windows", Text: "More precisely: pin numpy below 2.0 on Windows."},
	})
	question := "Did the last change of proposed_workaround for parse_config refine or replace the prior value?"
	q := esr.Query{Type: esr.RelationType, Key: k, Question: question}
	for _, m := range []memory.Class{memory.CoarseRetain, memory.GraphRAGAbstain, memory.RenderOnly} {
		st := memory.MustBuild(memory.SpecOf(m), s, atoms, memory.Options{})
		in := reader.Input{Question: question, QueryType: esr.RelationType, Context: st.Render(q), MayAbstain: true}
		for _, p := range profileOrder {
			got := read(t, p, in)
			if got.Answer == esr.Says(esr.AnswerRefines) {
				t.Errorf("%s %s: refines from value strings (%s)", m, p, got.Note)
			}
			if !got.Answer.Abstain && (got.Answer != esr.Says(esr.AnswerReplaces) || !strings.Contains(got.Note, "no relation type shown")) {
				t.Errorf("%s %s: %v, want replaces because no type was shown (%s)", m, p, got.Answer, got.Note)
			}
		}
	}
}

func TestScriptedCrossSourceConflict(t *testing.T) {
	k := esr.Key{Entity: "service", Attribute: "request_timeout"}
	s, atoms := build("csc", k, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Actor: "alice", Value: "30 s", Text: "The timeout is 30 s."},
		{ID: "e2", Date: "2024-02-01", Actor: "bob", Value: "60 s", Text: "In my setup the timeout is 60 s."},
	})
	q := esr.Query{Type: esr.Snapshot, Key: k, Question: bench.Figure1Question}
	for _, tc := range []struct {
		class, profile, want string
	}{
		{memory.FineLedger, "status-reader", a}, // status: unresolved
		{memory.FineLedger, "cautious", a},
		{memory.FineLedger, "time-sorter", "60 s"}, // ignores status: newest
		{memory.CoarseRetain, "status-reader", "60 s"},
		{memory.RenderOnly, "status-reader", "60 s"},
		{memory.GraphRAGAbstain, "majority", a},        // 1:1, no majority
		{memory.GraphRAGAbstain, "naive", "60 s"},      // the first row of the seeded order
		{memory.GraphRAGLite, "status-reader", "30 s"}, // may not abstain: first of a tie
	} {
		st := memory.MustBuild(memory.MustParseSpec(tc.class), s, atoms, memory.Options{})
		in := reader.Input{Question: q.Question, QueryType: esr.Snapshot, Context: st.Render(q), MayAbstain: st.MayAbstain()}
		if got := read(t, tc.profile, in); got.Answer.String() != tc.want {
			t.Errorf("%s %s: %v (%s), want %s", tc.class, tc.profile, got.Answer, got.Note, tc.want)
		}
	}
}

// Several keys: the question's words pick the key.
func TestScriptedPicksKey(t *testing.T) {
	s := &esr.Stream{ID: "two"}
	mk := func(id, date, entity, attr, value string, i int) esr.Atom {
		return esr.Atom{ID: id, StreamID: "two", EventID: "e" + id, EventIndex: i, Timestamp: esr.MustTime(date),
			Entity: entity, Attribute: attr, Value: value, Polarity: esr.Positive, Confidence: 1}
	}
	atoms := []esr.Atom{
		mk("1", "2024-01-01", "service", "request_timeout", "30 s", 0),
		mk("2", "2024-01-02", "service", "retry_count", "3", 1),
		mk("3", "2024-02-01", "service", "request_timeout", "45 s", 2),
		mk("4", "2024-02-02", "service", "retry_count", "5", 3),
	}
	for i := range atoms {
		s.Events = append(s.Events, esr.Event{ID: atoms[i].EventID, Timestamp: atoms[i].Timestamp, Text: "x"})
	}
	for _, m := range []memory.Class{memory.FineLedger, memory.RenderOnly, memory.CoarseRetain, memory.LatestOnly} {
		st := memory.MustBuild(memory.SpecOf(m), s, atoms, memory.Options{})
		for q, want := range map[string]string{
			"What request_timeout is currently in force for service?": "45 s",
			"What is the current retry count of service?":             "5",
			"What is the weather like?":                               a,
		} {
			in := reader.Input{Question: q, Context: st.Render(esr.Query{}), MayAbstain: true}
			if got := read(t, "status-reader", in); got.Answer.String() != want {
				t.Errorf("%s %q: %v (%s), want %s", m, q, got.Answer, got.Note, want)
			}
		}
	}
}

// Raw text with a free-text attribute: no value pattern, so the reader
// abstains and says why.
func TestScriptedRawTextWithoutPattern(t *testing.T) {
	k := esr.Key{Entity: "issue", Attribute: "proposed_workaround"}
	s, atoms := build("raw", k, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Value: "downgrade pip", Text: "Try downgrading pip."},
		{ID: "e2", Date: "2024-02-01", Value: "use a venv", Text: "Use a venv instead."},
	})
	st := memory.MustBuild(memory.SpecOf(memory.DirectContext), s, atoms, memory.Options{})
	in := reader.Input{Question: "What proposed_workaround is currently in force for issue?", Context: st.Render(esr.Query{}), MayAbstain: true}
	for _, p := range profileOrder {
		out := read(t, p, in)
		if !out.Answer.Abstain || !strings.Contains(out.Note, "no value pattern") || !out.Unreadable {
			t.Errorf("%s: got %v (%s), want an ABSTAIN marked unreadable", p, out.Answer, out.Note)
		}
	}
	// The same events with a value pattern (a duration) are readable: a
	// wrong or abstained answer there is measured, not unreadable.
	k2 := esr.Key{Entity: "service", Attribute: "request_timeout"}
	s2, atoms2 := build("raw2", k2, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Value: "30 s", Text: "The timeout is 30 s."},
		{ID: "e2", Date: "2024-02-01", Value: "60 s", Text: "Raised it to 60 s."},
	})
	st2 := memory.MustBuild(memory.SpecOf(memory.DirectContext), s2, atoms2, memory.Options{})
	in2 := reader.Input{Question: bench.Figure1Question, Context: st2.Render(esr.Query{}), MayAbstain: true}
	for _, p := range profileOrder {
		if out := read(t, p, in2); out.Unreadable {
			t.Errorf("%s on a duration: marked unreadable (%s)", p, out.Note)
		}
	}
	// A budget that hides every line does not make a readable layout
	// unreadable, nor an unreadable one readable.
	if out := read(t, "budgeted@2", in); !out.Unreadable {
		t.Errorf("budgeted@2 on raw free text: %v (%s), want it marked unreadable", out.Answer, out.Note)
	}
	ledger := memory.MustBuild(memory.SpecOf(memory.FineLedger), s, atoms, memory.Options{})
	if out := read(t, "budgeted@2", reader.Input{Question: in.Question, Context: ledger.Render(esr.Query{}), MayAbstain: true}); out.Unreadable {
		t.Errorf("budgeted@2 on a ledger: marked unreadable (%s)", out.Note)
	}
	// Deployed fine-ledger: the structure answers; the raw events are not needed.
	st = memory.MustBuild(memory.SpecOf(memory.FineLedger), s, atoms, memory.Options{Deployed: true})
	in.Context = st.Render(esr.Query{})
	if out := read(t, "time-sorter", in); out.Answer != esr.Says("use a venv") {
		t.Errorf("deployed ledger: %v (%s)", out.Answer, out.Note)
	}
}

// A value pattern is chosen by the attribute's words, not by a name in the
// question: "Max" in "Max Verstappen" is not the count pattern's "max".
func TestScriptedPatternIgnoresNames(t *testing.T) {
	k := esr.Key{Entity: "Max Verstappen", Attribute: "team"}
	s, atoms := build("names", k, []bench.Event{
		{ID: "e1", Date: "2015-01-01", Value: "Toro Rosso", Text: "In 2015 Max Verstappen drove 19 races for Toro Rosso."},
		{ID: "e2", Date: "2016-05-01", Value: "Red Bull Racing", Text: "From 2016 Max Verstappen drives for Red Bull Racing."},
	})
	in := reader.Input{Question: "What is the current team of Max Verstappen?", Context: memory.MustBuild(memory.SpecOf(memory.DirectContext), s, atoms, memory.Options{}).Render(esr.Query{}), MayAbstain: true}
	if out := read(t, "time-sorter", in); !out.Unreadable {
		t.Errorf("name words chose a pattern: %v (%s)", out.Answer, out.Note)
	}
	for _, tc := range []struct {
		q, word string
		want    bool
	}{{"What is the TTL of Max Verstappen?", "ttl", true}, {"What is the TTL of Max Verstappen?", "max", false},
		{"What is the max size?", "max", true}, {"What is the max size?", "what", true}} {
		if got := attributeWords(tc.q)[tc.word]; got != tc.want {
			t.Errorf("attributeWords(%q)[%q] = %v, want %v", tc.q, tc.word, got, tc.want)
		}
	}
}

func TestTruncateTokens(t *testing.T) {
	text := "a b c\nd e f\ng h i\n"
	for budget, want := range map[int]string{0: text, 3: "", 4: "a b c\n", 8: "a b c\nd e f\n", 12: text, 100: text} {
		if got := layout.TruncateTokens(text, budget); got != want {
			t.Errorf("budget %d: %q, want %q", budget, got, want)
		}
		if budget > 0 && reader.CountTokens(layout.TruncateTokens(text, budget)) > budget {
			t.Errorf("budget %d exceeded", budget)
		}
	}
}

func TestScriptedProfilesAndBudgetSpec(t *testing.T) {
	r, err := NewScripted("budgeted@256")
	if err != nil || r.Capabilities().TokenBudget != 256 || r.Spec() != (reader.Spec{Kind: reader.KindScripted, Name: "budgeted@256"}) {
		t.Fatalf("budgeted@256: %v %+v", err, r)
	}
	for _, bad := range []string{"nope", "budgeted@x", "budgeted@-1"} {
		if _, err := NewScripted(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := NewScriptedWith("x", ScriptedCapabilities{OnConflict: "coin-flip"}); err == nil {
		t.Error("bad policy accepted")
	}
	seen := map[string]bool{}
	for _, p := range scriptedProfiles() {
		seen[p.Name] = true
	}
	for _, want := range []string{"status-reader", "time-sorter", "cautious", "budgeted", "majority"} {
		if !seen[want] {
			t.Errorf("missing profile %s", want)
		}
	}
}

func TestScriptedHonoursCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, _ := NewScripted("naive")
	if _, err := r.Read(ctx, reader.Input{}); err == nil {
		t.Error("cancelled context not reported")
	}
}

// Renders show hours and minutes for same-day events; the reader parses
// both stamp forms.
func TestParseStampForms(t *testing.T) {
	for _, s := range []string{"2024-03-01", "2024-03-01 15:04"} {
		if _, ok := layout.ParseStamp(s); !ok {
			t.Errorf("%q not parsed", s)
		}
	}
	a, _ := layout.ParseStamp("2024-03-01 15:04")
	b, _ := layout.ParseStamp("2024-03-01")
	if !a.After(b.Time) {
		t.Error("minutes lost")
	}
}

func TestAllScripted(t *testing.T) {
	rs, ps := AllScripted(), scriptedProfiles()
	if len(rs) != len(ps) {
		t.Fatalf("%d readers for %d profiles", len(rs), len(ps))
	}
	for i, r := range rs {
		if r.Spec() != (reader.Spec{Kind: reader.KindScripted, Name: ps[i].Name}) || r.(*Scripted).Capabilities() != ps[i].Capabilities {
			t.Errorf("reader %d = %s %+v, want profile %s", i, r.Spec(), r.(*Scripted).Capabilities(), ps[i].Name)
		}
	}
}
