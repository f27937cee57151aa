package sim

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/memory"
)

// simOf is the sim profile whose skills at 0/1 are a scripted profile's
// capabilities.
func simOf(p ScriptedProfile) Profile {
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	c := p.Capabilities
	return Profile{Name: p.Name, StatusSkill: b(c.UsesStatus), DateSkill: b(c.SortsByTime),
		FirstRowBias: b(c.OnConflict == ConflictFirst), AbstainOnConflict: b(c.OnConflict == ConflictAbstain),
		TokenBudget: c.TokenBudget}
}

// With every skill at 0 or 1 a sim reader is the scripted reader of the
// same capabilities: same answer on every class's Figure 1 render, for
// every query type, plain and deployed.
func TestSimSkillsAtBoundsAreScripted(t *testing.T) {
	n := 0
	for _, p := range scriptedProfiles() {
		sc, err := NewScripted(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		sim, err := New(simOf(p), 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, deployed := range []bool{false, true} {
			for _, qt := range []esr.QueryType{esr.Snapshot, esr.Provenance, esr.RelationType} {
				for _, m := range memory.Names {
					in := figure1Input(t, string(m), qt, deployed)
					a, _ := sc.Read(context.Background(), in)
					b, _ := sim.Read(context.Background(), in)
					n++
					if a.Answer != b.Answer {
						t.Errorf("%s %s %s deployed=%v: scripted %v (%s), sim %v (%s)", p.Name, m, qt, deployed, a.Answer, a.Note, b.Answer, b.Note)
					}
				}
			}
		}
	}
	// The snapshot table of the scripted tests, through the sim readers.
	for class, want := range figure1Want[esr.Snapshot] {
		for i, name := range profileOrder {
			p, _ := func() (ScriptedProfile, bool) {
				for _, p := range scriptedProfiles() {
					if p.Name == name {
						return p, true
					}
				}
				return ScriptedProfile{}, false
			}()
			sim, _ := New(simOf(p), 0)
			out, _ := sim.Read(context.Background(), figure1Input(t, class, esr.Snapshot, false))
			if out.Answer.String() != want[i] {
				t.Errorf("sim %s on %s: %v, want %s (%s)", name, class, out.Answer, want[i], out.Note)
			}
		}
	}
	if n == 0 {
		t.Fatal("nothing compared")
	}
}

// Draws depend on (seed, profile name, qid) only: the same question gets
// the same draws under every memory; another profile or seed draws anew.
func TestSimDrawsSeeded(t *testing.T) {
	careful, _ := Parse("careful")
	again, _ := Parse("careful")
	seeded, _ := Parse("careful@seed=7")
	other, _ := Parse("hedger")
	override, _ := Parse("careful@status=0.2")
	diffFam, diffSeed := 0, 0
	for _, q := range []string{"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"} {
		if careful.Draws(q) != again.Draws(q) {
			t.Errorf("%s: same seed and profile, different draws", q)
		}
		if careful.Draws(q) != override.Draws(q) {
			t.Errorf("%s: a capability override changed the draws", q)
		}
		if careful.Draws(q) != other.Draws(q) {
			diffFam++
		}
		if careful.Draws(q) != seeded.Draws(q) {
			diffSeed++
		}
		for _, u := range []float64{careful.Draws(q).Status, careful.Draws(q).Sort, careful.Draws(q).Conflict} {
			if u < 0 || u >= 1 {
				t.Errorf("draw %v outside [0, 1)", u)
			}
		}
	}
	if diffFam != 8 || diffSeed != 8 {
		t.Errorf("different profile: %d of 8 draws differ; different seed: %d of 8", diffFam, diffSeed)
	}
	if careful.Draws("q1") == careful.Draws("q2") {
		t.Error("two questions drew the same uniforms")
	}
	// Same answer and note on a rerun; the draws in the note are the same
	// under two memories of the same question.
	gra := figure1Input(t, memory.GraphRAGAbstain, esr.Snapshot, false)
	fine := figure1Input(t, memory.FineLedger, esr.Snapshot, false)
	a1, _ := careful.Read(context.Background(), gra)
	a2, _ := again.Read(context.Background(), gra)
	if a1 != a2 {
		t.Errorf("rerun differs: %+v vs %+v", a1, a2)
	}
	b1, _ := careful.Read(context.Background(), fine)
	first := func(s string) string { return strings.SplitN(s, ";", 2)[0] }
	if first(a1.Note) != first(b1.Note) {
		t.Errorf("status draw differs between memories: %q vs %q", a1.Note, b1.Note)
	}
	if !strings.HasPrefix(a1.Note, "sim:careful: status ") || !strings.Contains(a1.Note, "date sort") || !strings.Contains(a1.Note, "on conflict:") || !strings.Contains(a1.Note, " → ") {
		t.Errorf("note does not state the draws: %q", a1.Note)
	}
}

func TestSimParseAndConfig(t *testing.T) {
	r, err := reader.Parse("sim:date-sorter@seed=9@status=0.5@rows=4", llm.Setup{}, Readers)
	if err != nil {
		t.Fatal(err)
	}
	s := r.(*Sim)
	if s.Spec().String() != "sim:date-sorter@seed=9@status=0.5@rows=4" || s.Seed() != 9 || s.Profile().StatusSkill != 0.5 || s.Profile().RowBudget != 4 || s.Profile().DateSkill != 0.85 {
		t.Errorf("parsed %s %+v seed %d", s.Spec(), s.Profile(), s.Seed())
	}
	for _, bad := range []string{"sim:nope", "sim:careful@status=2", "sim:careful@wings=1", "sim:careful@seed=-1", "sim:careful@status", "sim"} {
		if _, err := reader.Parse(bad, llm.Setup{}, Readers); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	rs, err := reader.ParseList("sim,oracle", llm.Setup{}, Readers)
	if err != nil || len(rs) != len(simProfiles)+1 {
		t.Fatalf("ParseList sim: %d readers, %v", len(rs), err)
	}
	// The cache keys on the whole profile.
	a, _ := Parse("careful")
	p := a.Profile()
	p.DateDecayPerRow = 0.5
	b, _ := New(p, 0)
	if a.Spec() != b.Spec() || reader.Fingerprint(a) == reader.Fingerprint(b) {
		t.Errorf("fingerprints: %s / %s", reader.Fingerprint(a), reader.Fingerprint(b))
	}
	if _, err := New(Profile{Name: "x", AbstainOnConflict: -0.1}, 0); err == nil {
		t.Error("negative probability accepted")
	}
	// Sorting gets worse as rows grow.
	q := Profile{DateSkill: 0.9, DateDecayPerRow: 0.1}
	if q.SortProb(1) != 1 || q.SortProb(2) != 0.9 || !(q.SortProb(7) < q.SortProb(3)) {
		t.Errorf("SortProb %v %v %v %v", q.SortProb(1), q.SortProb(2), q.SortProb(3), q.SortProb(7))
	}
	for _, c := range Capabilities {
		if _, err := p.Get(c.Name); err != nil || c.Evidence == "" || c.Models == "" {
			t.Errorf("capability %s: %v", c.Name, err)
		}
	}
}

// On a sample of the bundled bench's reverted-revert snapshot questions,
// accuracy does not fall as a skill rises: status skill on fine-ledger,
// date skill on graphrag-abstain (a failed sort leaves the seeded order).
func TestSimAccuracyMonotoneInSkill(t *testing.T) {
	b, err := bench.Load("../../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	type item struct {
		qa *esr.QA
		in map[string]reader.Input
	}
	var items []item
	for i := range b.QAs {
		qa := &b.QAs[i]
		if qa.Phenomenon != esr.RevertedRevert || qa.Type() != esr.Snapshot || len(items) >= 90 {
			continue
		}
		key, _ := qa.Locate(b.Atoms[qa.StreamID])
		q := qa.Query(key)
		it := item{qa: qa, in: map[string]reader.Input{}}
		for _, m := range []memory.Class{memory.FineLedger, memory.GraphRAGAbstain} {
			st := memory.MustBuild(memory.SpecOf(m), b.Stream(qa.StreamID), b.Atoms[qa.StreamID], memory.Options{})
			it.in[string(m)] = reader.Input{QID: qa.QID, Question: qa.Question, QueryType: esr.Snapshot, Context: st.Render(q), MayAbstain: st.MayAbstain(), Memory: memory.SpecOf(m)}
		}
		items = append(items, it)
	}
	acc := func(p Profile, m string) float64 {
		r, err := New(p, 1)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, it := range items {
			out, _ := r.Read(context.Background(), it.in[m])
			if v, _ := (judge.Exact{}).Judge(context.Background(), it.qa, out.Answer); v.Correct {
				n++
			}
		}
		return float64(n) / float64(len(items))
	}
	base := Profile{Name: "mono", FirstRowBias: 0.3, AbstainOnConflict: 0.5, DateDecayPerRow: 0.05}
	for _, c := range []struct{ capName, memory string }{{Status, memory.FineLedger}, {Date, memory.GraphRAGAbstain}} {
		prev := -1.0
		var seq []float64
		for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
			p, _ := base.Set(c.capName, v)
			a := acc(p, c.memory)
			seq = append(seq, a)
			if a < prev {
				t.Errorf("%s on %s: accuracy falls as skill rises: %v", c.capName, c.memory, seq)
			}
			prev = a
		}
		t.Logf("%s on %s: accuracy %v", c.capName, c.memory, seq)
		if seq[len(seq)-1] <= seq[0] {
			t.Errorf("%s on %s: no gain from skill 0 to 1: %v", c.capName, c.memory, seq)
		}
	}
}

func TestSimSkills(t *testing.T) {
	p, _ := ProfileNamed("careful")
	want := "status = 0.9, key-status = 0.9, date = 0.95, date-decay = 0.02, order = 0, first-row = 0.1, abstain = 0.8, lapse = 0, prose = 0, conflict = 0, rows = 0, tokens = 0, both = 0, hedge = 0, clutter-scale = 0, length-cost = 0, rows-cost = 0, flat-cost = 0, distractor-cost = 0, paraphrase-cost = 0, prose-date-cost = 0, nest-cost = 0"
	if got := p.Skills(); got != want {
		t.Errorf("Skills() = %q, want %q", got, want)
	}
}

// A sim reader shares the scripted reader's eyes: raw free text it cannot
// read is marked unreadable in its note, whatever its draws.
func TestSimMarksUnreadable(t *testing.T) {
	k := esr.Key{Entity: "issue", Attribute: "proposed_workaround"}
	s, atoms := build("raw", k, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Value: "downgrade pip", Text: "Try downgrading pip."},
		{ID: "e2", Date: "2024-02-01", Value: "use a venv", Text: "Use a venv instead."},
	})
	q := "What proposed_workaround is currently in force for issue?"
	for _, m := range []memory.Class{memory.DirectContext, memory.RAGTopK} {
		ctx := memory.MustBuild(memory.SpecOf(m), s, atoms, memory.Options{}).Render(esr.Query{})
		for _, p := range Profiles() {
			r, err := New(p, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, qid := range []string{"q1", "q2", "q3"} {
				out, _ := r.Read(context.Background(), reader.Input{QID: qid, Question: q, Context: ctx, MayAbstain: true})
				if !out.Answer.Abstain || !out.Unreadable {
					t.Errorf("%s %s %s: %v (%s), want ABSTAIN marked unreadable", m, p.Name, qid, out.Answer, out.Note)
				}
			}
		}
	}
}
