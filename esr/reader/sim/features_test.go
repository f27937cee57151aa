package sim_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// figure1Render is the reader input of class m (in ledger format f) on the
// paper's Figure 1 stream.
func figure1Render(t *testing.T, m string, opt memory.Options) reader.Input {
	t.Helper()
	s, atoms := bench.Figure1()
	st, err := memory.Build(memory.MustParseSpec(m), s, atoms, opt)
	if err != nil {
		t.Fatal(err)
	}
	q := esr.Query{Type: esr.Snapshot, Key: bench.TimeoutKey, Question: bench.Figure1Question}
	return reader.Input{QID: "f1", Question: q.Question, QueryType: esr.Snapshot, Context: st.Render(q), MayAbstain: st.MayAbstain(), Memory: memory.MustParseSpec(m),
		Stated: reader.StatedValues(atoms, bench.TimeoutKey)}
}

// TestFeaturesOfEveryRender: the reader model's features are measured on
// every class's render, in every ledger format, from the text alone; each
// layout declares what its writer promises (worked out by hand from the
// renders in esr/memory/testdata/figure1).
func TestFeaturesOfEveryRender(t *testing.T) {
	type want struct {
		order  sim.RowOrder
		dates  sim.DatePlace
		group  sim.Grouping
		depth  int
		status bool // row status shown
	}
	cases := []struct {
		class string
		opt   memory.Options
		want  want
	}{
		{memory.FineLedger, memory.Options{}, want{sim.OrderNewestFirst, sim.DatesColumn, sim.GroupedBlock, 0, true}},
		{memory.FineLedger, memory.Options{LedgerFormat: memory.LedgerVerbose}, want{sim.OrderNewestFirst, sim.DatesInline, sim.GroupedBlock, 0, true}},
		{memory.FineLedger, memory.Options{LedgerFormat: memory.LedgerJSON}, want{sim.OrderNewestFirst, sim.DatesMember, sim.GroupedBlock, 1, true}},
		{memory.FineLedger, memory.Options{LedgerFormat: memory.LedgerMinimal}, want{sim.OrderNewestFirst, sim.DatesAbsent, sim.GroupedBlock, 0, true}},
		{memory.RenderOnly, memory.Options{}, want{sim.OrderNewestFirst, sim.DatesColumn, sim.GroupedBlock, 0, false}},
		{memory.GraphRAGAbstain, memory.Options{}, want{sim.OrderUnordered, sim.DatesColumn, sim.GroupedFlat, 0, false}},
		{memory.GraphRAGAbstain, memory.Options{FactFormat: memory.FactsDateless}, want{sim.OrderUnordered, sim.DatesAbsent, sim.GroupedFlat, 0, false}},
		{memory.CoarseRetain, memory.Options{}, want{sim.OrderUnordered, sim.DatesMember, sim.GroupedFlat, 2, true}},
		{memory.CoarseDiscard, memory.Options{}, want{sim.OrderSingle, sim.DatesMember, sim.GroupedFlat, 2, true}},
		{"coarse-retain~render-only", memory.Options{}, want{sim.OrderUnordered, sim.DatesMember, sim.GroupedFlat, 2, true}},
		{memory.GraphRAGLite, memory.Options{}, want{sim.OrderChronological, sim.DatesAbsent, sim.GroupedBlock, 0, false}},
		{memory.LatestOnly, memory.Options{}, want{sim.OrderSingle, sim.DatesInline, sim.GroupedFlat, 0, false}},
		{memory.DirectContext, memory.Options{}, want{sim.OrderLog, sim.DatesInline, sim.GroupedLog, 0, false}},
		{memory.RAGTopK, memory.Options{}, want{sim.OrderLog, sim.DatesInline, sim.GroupedLog, 0, false}},
		{memory.Graphiti, memory.Options{}, want{sim.OrderUnordered, sim.DatesMember, sim.GroupedFlat, 2, true}},
		{memory.Mem0V3, memory.Options{}, want{sim.OrderUnordered, sim.DatesMember, sim.GroupedFlat, 3, false}},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		in := figure1Render(t, c.class, c.opt)
		f := sim.Features(in)
		got := want{f.Order, f.Dates, f.Grouping, f.Depth, f.RowStatus}
		if got != c.want {
			t.Errorf("%s %+v: features %+v, want %+v\n%s", c.class, c.opt, got, c.want, in.Context)
		}
		if f.Tokens != reader.CountTokens(in.Context) || f.Tokens == 0 {
			t.Errorf("%s: tokens %d, render counts %d", c.class, f.Tokens, reader.CountTokens(in.Context))
		}
		seen[c.class] = true
	}
	for _, m := range memory.Names {
		if !seen[string(m)] {
			t.Errorf("class %s has no features case", m)
		}
	}
	// The ledger's key status is a feature only when it says unresolved.
	if f := sim.Features(figure1Render(t, memory.FineLedger, memory.Options{ForceStatus: map[esr.Key]string{bench.TimeoutKey: esr.KeyStatusUnresolved}})); !f.KeyStatus {
		t.Error("an unresolved ledger key is not a key-status feature")
	}
}

// TestOrderIsDeclaredNotObserved: a d-blind fact table whose seeded
// shuffle happens to list the rows newest first is still unordered, and a
// reader that reads order (and nothing else) does not take its top row;
// on the ledger, which declares its order, it does, dated or not.
func TestOrderIsDeclaredNotObserved(t *testing.T) {
	var sorted reader.Input
	for seed := uint64(0); seed < 64; seed++ {
		in := figure1Render(t, memory.GraphRAGAbstain, memory.Options{RenderSeed: seed})
		if strings.Index(in.Context, "2024-03-01") < strings.Index(in.Context, "2024-02-01") &&
			strings.Index(in.Context, "2024-02-01") < strings.Index(in.Context, "2024-01-01") {
			sorted = in
			break
		}
	}
	if sorted.Context == "" {
		t.Fatal("no render seed lists the facts newest first")
	}
	if f := sim.Features(sorted); f.Order != sim.OrderUnordered {
		t.Errorf("a shuffle that came out sorted has order %s", f.Order)
	}
	orderOnly := sim.Profile{Name: "order-only", OrderSkill: 1, AbstainOnConflict: 1}
	r, err := sim.New(orderOnly, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := r.Read(context.Background(), sorted)
	if !out.Answer.Abstain {
		t.Errorf("order-only reader took %v from an unordered table (%s)", out.Answer, out.Note)
	}
	for _, f := range memory.LedgerFormats {
		out, _ := r.Read(context.Background(), figure1Render(t, memory.RenderOnly, memory.Options{LedgerFormat: f}))
		if out.Answer != esr.Says("30 s") {
			t.Errorf("order-only reader on render-only (%s): %v (%s)", f, out.Answer, out.Note)
		}
	}
}

// TestChancesFollowFeatures: the skills act on what the render shows. A
// longer render, rows as sentences, flat rows, more distractors and deeper
// nesting lower the chances of a reader with costs; sentences and nesting
// (how a row is written) raise its lapse, while the number of rows and the
// length never move it; a profile without costs ignores them all.
func TestChancesFollowFeatures(t *testing.T) {
	p := sim.Profile{StatusSkill: 0.5, DateSkill: 0.8, OrderSkill: 0.7, Lapse: 0.1, ClutterScale: 1, ProseSkill: 0.9, ConflictSkill: sim.Skill(0.4),
		LengthCost: 0.3, RowsCost: 0.4, FlatCost: 0.5, DistractorCost: 0.2, ProseDateCost: 0.5, NestCost: 0.2, ParaphraseCost: 2}
	base := sim.RenderFeatures{Tokens: 500, Dates: sim.DatesColumn, Grouping: sim.GroupedBlock, Rows: 3}
	c0 := p.Chances(base)
	longer := base
	longer.Tokens = 1500
	inline := base
	inline.Dates = sim.DatesInline
	flat := base
	flat.Grouping = sim.GroupedFlat
	crowded := base
	crowded.Distractors = 12
	nested := base
	nested.Depth = 2
	para := base
	para.Paraphrased = 1
	if c := p.Chances(longer); !(c.Order < c0.Order && c.Row < c0.Row && c.Sort(2) < c0.Sort(2) && c.Prose < c0.Prose && c.Conflict < c0.Conflict && c.Lapse == c0.Lapse) {
		t.Errorf("a longer render does not lower the chances (or moves the lapse): %+v vs %+v", c, c0)
	}
	if c := p.Chances(inline); !(c.Sort(2) < c0.Sort(2) && c.Order < c0.Order && c.Row < c0.Row && c.Lapse > c0.Lapse) {
		t.Errorf("rows as sentences: sort %v vs %v, order %v vs %v, lapse %v vs %v", c.Sort(2), c0.Sort(2), c.Order, c0.Order, c.Lapse, c0.Lapse)
	}
	if c := p.Chances(flat); !(c.Sort(2) < c0.Sort(2) && c.Order == c0.Order && c.Lapse == c0.Lapse) {
		t.Errorf("flat rows: sort %v vs %v, order %v vs %v", c.Sort(2), c0.Sort(2), c.Order, c0.Order)
	}
	if c := p.Chances(crowded); !(c.Sort(2) < c0.Sort(2) && c.Prose < c0.Prose && c.Lapse == c0.Lapse) {
		t.Errorf("distractors: sort %v vs %v, prose %v vs %v, lapse %v vs %v", c.Sort(2), c0.Sort(2), c.Prose, c0.Prose, c.Lapse, c0.Lapse)
	}
	if c := p.Chances(nested); !(c.Row < c0.Row && c.Order < c0.Order && c.Lapse > c0.Lapse) {
		t.Errorf("nesting: status %v vs %v, order %v vs %v, lapse %v vs %v", c.Row, c0.Row, c.Order, c0.Order, c.Lapse, c0.Lapse)
	}
	if c := p.Chances(para); !(c.Prose < c0.Prose && c.Sort(2) == c0.Sort(2)) {
		t.Errorf("paraphrased lines: prose %v vs %v", c.Prose, c0.Prose)
	}
	more := base
	more.Rows = 8
	if c := p.Chances(more); c.Lapse != c0.Lapse {
		t.Errorf("more versions of the key move the lapse: %v vs %v", c.Lapse, c0.Lapse)
	}
	if !(c0.Sort(4) < c0.Sort(3) && c0.Sort(3) < c0.Sort(2)) {
		t.Errorf("sorting more rows is not harder: %v %v %v", c0.Sort(2), c0.Sort(3), c0.Sort(4))
	}
	plain := sim.Profile{StatusSkill: 0.5, DateSkill: 0.8, OrderSkill: 0.7}
	a, b := plain.Chances(base), plain.Chances(longer)
	if a.Clutter != 0 || b.Clutter != 0 || a.Order != b.Order || a.Row != b.Row || a.Sort(3) != b.Sort(3) || a.Lapse != b.Lapse {
		t.Errorf("a profile without costs feels the length: %+v vs %+v", a, b)
	}
}

// TestRawTextIsReadByKey: in a direct-context render, the lines that state
// a value for the asked key are its rows and every other line is a
// distractor; a line stating the value in words the question does not use
// counts as paraphrased.
func TestRawTextIsReadByKey(t *testing.T) {
	ctx := "[e4 2024-04-01] The retry limit is now 5.\n[e3 2024-03-01] +1, 45 s here as well.\n[e2 2024-02-01] Thanks for the report!\n[e1 2024-01-01] The request timeout is 30 s.\n"
	in := reader.Input{QID: "k", Question: "What is the current request timeout of the service?", QueryType: esr.Snapshot, Context: ctx, MayAbstain: true,
		Stated: map[string][]string{"e1": {"30 s"}, "e3": {"45 s"}}}
	f := sim.Features(in)
	if f.Rows != 2 || f.Distractors != 2 || f.Paraphrased != 0.5 || f.Order != sim.OrderLog || f.Dates != sim.DatesInline {
		t.Errorf("features %+v: want 2 rows, 2 distractors, half the key's lines paraphrased, a dated log", f)
	}
}
