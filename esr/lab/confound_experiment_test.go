package lab_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/esr/theory"
	"github.com/esrkit/esrkit/internal/benchtest"
	"github.com/esrkit/esrkit/internal/dyknow"
)

func TestDecompositionWithOracle(t *testing.T) {
	b := benchtest.Mini(20)
	mems := append(memory.Specs(memory.Names...), eval.CoarseControl)
	rows, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: mems, Readers: []reader.Reader{reader.Oracle{}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 60*10 {
		t.Fatalf("%d rows, want 600", len(rows))
	}
	rr := eval.And(eval.QueryType(esr.Snapshot), eval.Phenomenon("reverted_revert"))
	cs, err := lab.RenderMatchedTerms(rows, rr, eval.StatOptions{B: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The oracle is render-invariant: render-only and graphrag-abstain both
	// abstain on a reverted revert (d-blind state), so the render term is 0;
	// the ledger and coarse invalidation recover the value. Coarse's own
	// control abstains like the ledger's (the one d-blind rule), so the
	// layout term is 0 and the paper's coarse term is all mechanism.
	want := map[string]float64{eval.TermRender.Label: 0, eval.TermFineMechanism.Label: 1,
		eval.TermCoarsePaper.Label: 1, eval.TermCoarseMatched.Label: 1, eval.TermCoarseLayout.Label: 0}
	for _, c := range cs {
		if c.Family != "oracle" {
			t.Errorf("single family labelled %q", c.Family)
		}
		if math.Abs(c.Delta-want[c.Label]) > 1e-12 || c.N != 20 {
			t.Errorf("%s: Δ=%v n=%d, want %v n=20", c.Label, c.Delta, c.N, want[c.Label])
		}
	}
	if s := eval.CoarseSplit(cs); !strings.Contains(s, "add up to the paper's term") || !strings.Contains(s, "The matched mechanism carries it (+1.000") {
		t.Errorf("coarse split: %s", s)
	}
	tab := lab.Table2(cs, "reverted-revert", rows)
	if !strings.Contains(tab.Markdown(), "| render | 20 | +0.000 | [+0.000, +0.000] | 0 / 0 |") {
		t.Errorf("table 2:\n%s", tab.Markdown())
	}
	// Table 3 per stratum: on cross-source conflict the fine ledger abstains
	// (correct) and render-only abstains too: residual 0.
	t3, cs3, err := lab.Table3(rows, eval.StatOptions{B: 500})
	if err != nil || len(cs3) != 2 {
		t.Fatalf("table 3: %v, %d strata", err, len(cs3))
	}
	_ = t3
	// Provenance: discard cannot answer; retain and fine can.
	acc := eval.ProvenanceAccuracy(rows, paper.RetentionClasses, eval.StateOnly)
	got := map[string]float64{}
	for _, a := range acc {
		got[a.Memory.String()] = a.Acc
	}
	if got["coarse-discard"] != 0 || got["coarse-retain"] != 1 || got["fine-ledger"] != 1 {
		t.Errorf("provenance accuracy %v", got)
	}
	if p := lab.Plot(acc, "provenance"); p == nil {
		t.Error("no figure")
	}
}

func TestCompareDeterministicAndPaired(t *testing.T) {
	rows := []eval.Outcome{}
	for i := 0; i < 50; i++ {
		q := fmt.Sprint("q", i)
		rows = append(rows,
			eval.Outcome{QID: q, Memory: memory.SpecOf("A"), Family: "f", Correct: i%2 == 0},
			eval.Outcome{QID: q, Memory: memory.SpecOf("B"), Family: "f", Correct: i%5 == 0})
	}
	rows = append(rows, eval.Outcome{QID: "unpaired", Memory: memory.SpecOf("A"), Family: "f", Correct: true})
	c1, _ := eval.Compare(rows, "x", memory.SpecOf("A"), memory.SpecOf("B"), nil, eval.StatOptions{B: 1000, Seed: 3})
	c2, _ := eval.Compare(rows, "x", memory.SpecOf("A"), memory.SpecOf("B"), nil, eval.StatOptions{B: 1000, Seed: 3})
	if c1 != c2 {
		t.Errorf("same seed, different result: %v vs %v", c1, c2)
	}
	// 25 of 50 vs 10 of 50: Δ = 0.3; the unpaired row is ignored.
	if c1.N != 50 || math.Abs(c1.Delta-0.3) > 1e-12 || !(c1.Lo < 0.3 && 0.3 < c1.Hi) {
		t.Errorf("comparison %v", c1)
	}
	if _, err := eval.Compare(rows, "x", memory.SpecOf("A"), memory.SpecOf("C"), nil, eval.StatOptions{}); err == nil {
		t.Error("no pairs should be an error")
	}
}

// Every suite runs on a small bench with the oracle reader and saves its
// tables and figures.
func TestSuitesRunAndSave(t *testing.T) {
	b := benchtest.Mini(12)
	for _, name := range lab.SuiteNames() {
		b := b
		if name == "facets" { // asks faceted questions, which only data/debian has
			b = benchtest.Subset(t, "debian", 12)
		}
		res, err := lab.Suites[name].Run(context.Background(), lab.Setup{Bench: b,
			Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 200, Seed: 1}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(res.Tables) == 0 || len(res.Rows) == 0 {
			t.Errorf("%s: %d tables, %d rows", name, len(res.Tables), len(res.Rows))
		}
		dir := t.TempDir()
		if err := res.Save(dir); err != nil {
			t.Fatalf("%s: save: %v", name, err)
		}
	}
}

// Noise sweeps corrupt both arms identically: at p=0 the relation-noise arm
// equals the clean run, and with the oracle reader fine and coarse tie on
// reverted reverts at every dropout level where both keep the same atoms.
func TestNoiseSweepDeterministic(t *testing.T) {
	b := benchtest.Mini(10)
	s := lab.Setup{Bench: b, Readers: []reader.Reader{reader.Oracle{}}}
	r1, err := lab.NoiseSweep(context.Background(), s, eval.RelationNoiseAxis, paper.NoiseLevels, 5)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := lab.NoiseSweep(context.Background(), s, eval.RelationNoiseAxis, paper.NoiseLevels, 5)
	if len(r1) != len(r2) || len(r1) != 6*10*2 {
		t.Fatalf("rows %d vs %d, want 120", len(r1), len(r2))
	}
	for i := range r1 {
		if r1[i] != r2[i] {
			t.Fatalf("row %d differs between identical sweeps", i)
		}
	}
	cs := eval.SweepComparisons(r1, eval.RelationNoiseAxis, paper.NoiseLevels, eval.StatOptions{B: 200})
	if len(cs) != 6 || cs[0].Delta != 0 {
		t.Errorf("clean level: fine − coarse = %v (want 0 with the oracle reader on clean reverts)", cs[0].Delta)
	}
}

// A cached run reads its rows back and reports the same tables.
func TestRunCached(t *testing.T) {
	b := benchtest.Mini(8)
	s := lab.Setup{Bench: b, Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 300, Seed: 2}}
	dir := t.TempDir()
	su := lab.Suites["render-confound"]
	r1, err := su.RunCached(context.Background(), s, dir)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	counting := su
	counting.Evaluate = func(ctx context.Context, s lab.Setup) ([]eval.Outcome, error) {
		calls++
		return su.Evaluate(ctx, s)
	}
	r2, err := counting.RunCached(context.Background(), s, dir)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("cached run evaluated %d times", calls)
	}
	if r1.Tables[1].Markdown() != r2.Tables[1].Markdown() {
		t.Errorf("cached tables differ:\n%s\n%s", r1.Tables[1].Markdown(), r2.Tables[1].Markdown())
	}
}

func TestLedgerStepsFigure1(t *testing.T) {
	s, atoms := bench.Figure1()
	tab := lab.LedgerSteps(s, atoms, relate.Rule{})
	if len(tab.Rows) != 3 {
		t.Fatalf("%d steps", len(tab.Rows))
	}
	last := tab.Rows[2]
	if last[5] != "{a3=30 s}" || last[6] != "ok" || last[7] != "30 s" || last[8] != "a1; a2" {
		t.Errorf("last step %v", last)
	}
	if !strings.Contains(tab.Rows[1][4], "a1→a2 SUPERSEDES") {
		t.Errorf("step 2 relations %q", tab.Rows[1][4])
	}
}

// The tiers' examples: the ledger abstains on L1 and L2 (unresolved) and
// answers the reverted value on L3; the d-blind control abstains on all.
func TestTierExamples(t *testing.T) {
	for _, tier := range bench.Tiers() {
		qa := esr.QA{QID: tier.Stream.ID, Question: tier.Question, GoldAnswer: tier.Gold}
		k, _ := qa.Locate(tier.Atoms)
		q := qa.Query(k)
		fine := memory.MustBuild(memory.SpecOf(memory.FineLedger), tier.Stream, tier.Atoms, memory.Options{}).Answer(q)
		if fine.String() != tier.Gold {
			t.Errorf("%s: fine-ledger %v, want %s", tier.Name, fine, tier.Gold)
		}
		if got := memory.MustBuild(memory.SpecOf(memory.GraphRAGAbstain), tier.Stream, tier.Atoms, memory.Options{}).Answer(q); !got.Abstain {
			t.Errorf("%s: graphrag-abstain %v, want ABSTAIN", tier.Name, got)
		}
	}
}

// The CSC chain runs its stages; with gold CONTRADICTS labels and the
// oracle reader every stage abstains correctly on cross-source conflicts.
func TestCSCChain(t *testing.T) {
	b := benchtest.Mini(6)
	b.Relations = map[string]map[esr.AtomPair]esr.Relation{}
	for _, s := range b.Streams {
		if strings.HasPrefix(s.ID, "csc") {
			b.Relations[s.ID] = map[esr.AtomPair]esr.Relation{{A: "a1", B: "a2"}: esr.Contradicts}
		}
	}
	res, err := lab.Suites["boundary"].Run(context.Background(), lab.Setup{Bench: b,
		Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 200}})
	if err != nil {
		t.Fatal(err)
	}
	var chain *eval.Table
	for _, tab := range res.Tables {
		if tab.Name == "table9-csc-chain" {
			chain = tab
		}
	}
	if chain == nil {
		t.Fatal("no chain table")
	}
	for _, row := range chain.Rows[:3] {
		if row[2] != "1.000" {
			t.Errorf("stage %s accuracy %s, want 1.000", row[0], row[2])
		}
	}
}

func TestBenchTables(t *testing.T) {
	b := benchtest.Mini(5)
	t1 := lab.Table1(b, "mini")
	if len(t1.Rows) != 2 { // snapshot and provenance rows of source ""
		t.Errorf("table 1 rows: %v", t1.Rows)
	}
	sl, err := lab.StreamLengthTable(b, "mini")
	if err != nil || !strings.Contains(sl.Notes[0], "median") {
		t.Errorf("stream lengths: %v %v", sl, err)
	}
	cov := lab.CoverageTable(bench.Figure1Bench(), "figure1")
	if cov.Rows[0][1] != "1.000 ± 0.000" {
		t.Errorf("coverage of a noise-free bench: %v", cov.Rows[0])
	}
}

func TestDyKnowRAGTable(t *testing.T) {
	outs, err := dyknow.LoadOutcomes("../../data/dyknow")
	if err != nil {
		t.Skip("no bundled DyKnow outcomes:", err)
	}
	tab, err := lab.DyKnowRAGTable(outs, eval.StatOptions{B: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 {
		t.Fatalf("want one row per model, got %v", tab.Rows)
	}
	// Llama-2: 164/192 clean vs 160/192 noisy (the importer's counts).
	for _, r := range tab.Rows {
		if strings.Contains(r[0], "Llama") && (r[1] != "192" || r[2] != "0.854" || r[3] != "0.833") {
			t.Errorf("Llama row %v", r)
		}
	}
}

func TestAuditScorer(t *testing.T) {
	_, two, _, atomsTwo, gold := bench.P1Surface()
	b := bench.New([]*esr.Stream{two}, map[string][]esr.Atom{two.ID: atomsTwo}, nil)
	b.Relations = map[string]map[esr.AtomPair]esr.Relation{}
	for k, v := range gold {
		b.Relations[k] = v
	}
	perfect := lab.AuditScorer(b, relate.Oracle{Gold: b.Relations})
	if perfect.N != 3 || perfect.Accuracy != 1 || perfect.FalseContradict != 0 {
		t.Errorf("oracle audit %+v", perfect)
	}
	// The control labels everything SAME_STATE: two CONTRADICTS missed.
	ss := lab.AuditScorer(b, relate.SameState{})
	if math.Abs(ss.Accuracy-1.0/3) > 1e-12 {
		t.Errorf("same-state audit %+v", ss)
	}
	if tab := lab.Table4([]lab.RelationAudit{perfect, ss}, "p1"); len(tab.Rows) != 4 {
		t.Errorf("table 4 rows %v", tab.Rows)
	}
}

// A registered memory and its registered control run through the engine
// like the built-in ones, and MechanismTerms decomposes the gain.
func TestCustomMemoryDecomposition(t *testing.T) {
	name := memory.Class("test-coarse-copy")
	if err := memory.Register(name, func(s *esr.Stream, atoms []esr.Atom, opt memory.Options) memory.State {
		return memory.MustBuild(memory.SpecOf(memory.FineLedger), s, atoms, opt)
	}); err != nil {
		t.Fatal(err)
	}
	control, err := memory.RegisterRenderMatched(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := memory.RegisterRenderMatched("nope"); err == nil {
		t.Error("control of an unregistered class accepted")
	}
	if err := memory.Register(memory.FineLedger, nil); err == nil {
		t.Error("re-registering a built-in accepted")
	}
	b := benchtest.Mini(10)
	rows, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: []memory.Spec{memory.SpecOf(name), control, memory.SpecOf(memory.GraphRAGAbstain)},
		Readers: []reader.Reader{reader.Oracle{}}, QueryTypes: []esr.QueryType{esr.Snapshot}})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := eval.CompareTerms(rows, eval.MechanismTerms(memory.SpecOf(name), control, memory.SpecOf(memory.GraphRAGAbstain)),
		eval.Phenomenon("reverted_revert"), eval.StatOptions{B: 200})
	if err != nil || len(cs) != 3 {
		t.Fatalf("%v %v", cs, err)
	}
	// Oracle reader: the control is d-blind (abstains on reverts), the
	// memory recovers the value: all of the gain is mechanism.
	if cs[0].Delta != 1 || cs[1].Delta != 0 || cs[2].Delta != 1 {
		t.Errorf("terms %v", cs)
	}
}

// Corollary 1 measured on the bundled synthetic bench: the identity holds,
// every input is labelled measured, and with gold relations P2b makes β
// small on snapshot queries (coarse and fine agree wherever fine answers;
// they differ only where fine abstains on a gold CONTRADICTS).
func TestCorollary1OnBench(t *testing.T) {
	b, err := bench.Load(filepath.Join("..", "..", "data", "synthetic"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := theory.Corollary1OnBench(context.Background(), b, esr.Snapshot, esr.RevertedRevert, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Beta - d.Kappa; math.Abs(got-d.Gap) > 1e-12 {
		t.Errorf("β − κ = %v, gap %v", got, d.Gap)
	}
	for i, s := range d.Sources {
		if !strings.HasPrefix(s, "measured") {
			t.Errorf("input %d source %q, want measured", i, s)
		}
	}
	if d.OracleF < 0.9 || d.OracleC < 0.9 {
		t.Errorf("oracle arms on reverted-revert: fine %.3f, coarse %.3f; want both high with gold relations", d.OracleF, d.OracleC)
	}
	if math.Abs(d.Beta) > 0.05 {
		t.Errorf("β = %+.3f on reverted-revert snapshot; P2b says the arms agree where fine answers", d.Beta)
	}
	if p := theory.Corollary1FromPaper(); !strings.HasPrefix(p.Sources[0], "assumed") {
		t.Errorf("paper-input Corollary 1 does not label its assumed oracle inputs: %q", p.Sources[0])
	}
}

// The notebook sentences follow the numbers: sign and significance words
// come from the interval, never from the label.
func TestProseFollowsNumbers(t *testing.T) {
	pos := eval.Comparison{Label: "render", A: memory.SpecOf("render-only"), B: memory.SpecOf("graphrag-abstain"), N: 10, Delta: 0.2, Lo: 0.1, Hi: 0.3, Level: 0.95}
	neg := eval.Comparison{Label: "render", A: memory.SpecOf("render-only"), B: memory.SpecOf("graphrag-abstain"), N: 10, Delta: -0.2, Lo: -0.3, Hi: -0.1, Level: 0.95}
	nul := eval.Comparison{Label: "fine-d mechanism", A: memory.SpecOf("fine-ledger"), B: memory.SpecOf("render-only"), N: 10, Delta: 0.01, Lo: -0.02, Hi: 0.04, Level: 0.95}
	for _, tc := range []struct {
		c    eval.Comparison
		want string
	}{{pos, "positive"}, {neg, "negative"}, {nul, "not distinguishable from 0"}} {
		if got := eval.Describe(tc.c); !strings.Contains(got, tc.want) || !strings.Contains(got, fmt.Sprintf("%+.3f", tc.c.Delta)) {
			t.Errorf("eval.Describe(%+v) = %q, want %q and the estimate", tc.c, got, tc.want)
		}
	}
	neg.Family, nul.Family = "fam", "fam"
	got := lab.DecompositionSummary([]eval.Comparison{neg, nul})
	if !strings.Contains(got, "render term is the larger and negative") || strings.Contains(got, "carries most of the gain") {
		t.Errorf("a negative render term is summarised as %q", got)
	}
	m := nul
	m.Delta, m.Lo, m.Hi = 0.5, 0.4, 0.6
	got = lab.DecompositionSummary([]eval.Comparison{neg, m})
	if !strings.Contains(got, "mechanism term is the larger and positive") {
		t.Errorf("a larger positive mechanism term is summarised as %q", got)
	}
}

// Flips reads the render-matched staircase on Figure 1 from the answers: a
// reader that ignores dates and reads status turns right only at the
// mechanism step; a date-sorting reader is right on all three (the d-blind
// control shows dates).
func TestFlipsOnFigure1(t *testing.T) {
	s, atoms := bench.Figure1()
	var rs []reader.Reader
	for _, p := range []string{"cautious", "time-sorter"} {
		r, err := sim.NewScripted(p)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	got, err := lab.Flips(context.Background(), s, atoms, bench.Figure1QA(), rs, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"`scripted:cautious`: ABSTAIN → ABSTAIN → 30 s: turns right at the mechanism step.",
		"`scripted:time-sorter`: 30 s → 30 s → 30 s: is right on all three."} {
		if !strings.Contains(got, want) {
			t.Errorf("Flips:\n%s\nwant a line %q", got, want)
		}
	}
}

// With five families that always agree on a question, the rows of a
// question are copies: the clustered interval is wider than the pair one,
// and the table and sentence say so.
func TestIntervalTableClusteredWider(t *testing.T) {
	var rows []eval.Outcome
	for q := 0; q < 60; q++ {
		a := q%3 != 0 // memory A right on 2/3 of the questions
		b := q%5 == 0
		for f := 0; f < 5; f++ {
			fam := fmt.Sprint("fam", f)
			rows = append(rows, eval.Outcome{QID: fmt.Sprint("q", q), Family: fam, Memory: memory.SpecOf("A"), Correct: a},
				eval.Outcome{QID: fmt.Sprint("q", q), Family: fam, Memory: memory.SpecOf("B"), Correct: b})
		}
	}
	terms := []eval.Term{{Label: "A − B", A: memory.SpecOf("A"), B: memory.SpecOf("B")}}
	tab, err := lab.IntervalTable(rows, terms, nil, eval.StatOptions{B: 2000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var ratio float64
	fmt.Sscan(fmt.Sprint(tab.Rows[0][len(tab.Rows[0])-1]), &ratio)
	if ratio < 1.5 {
		t.Errorf("width ratio %v with perfectly correlated families; want about √5", ratio)
	}
	s, err := lab.IntervalWidthSentence(rows, terms, nil, eval.StatOptions{B: 2000, Seed: 3})
	if err != nil || !strings.Contains(s, "move together") {
		t.Errorf("sentence %q (%v), want the positive-correlation explanation", s, err)
	}
}

// The result cache cannot go stale: two readers with the same name and
// different capabilities get different rows through RunCached, and a rerun
// of the same setup says it came from the cache.
func TestRunCachedKeysOnReaderConfig(t *testing.T) {
	b := bench.Figure1Bench()
	dir := t.TempDir()
	runWith := func(caps sim.ScriptedCapabilities) *lab.Result {
		r, err := sim.NewScriptedWith("mine", caps)
		if err != nil {
			t.Fatal(err)
		}
		s := lab.Setup{Bench: b, Readers: []reader.Reader{r}, Stats: eval.StatOptions{B: 200, Seed: 1}}
		res, err := lab.Suites["render-confound"].RunCached(context.Background(), s, dir)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	answers := func(res *lab.Result) string {
		var out []string
		for _, o := range res.Rows {
			if o.Memory.Is(memory.RenderOnly) {
				out = append(out, o.Answer)
			}
		}
		return strings.Join(out, ",")
	}
	sorting := runWith(sim.ScriptedCapabilities{SortsByTime: true})
	blind := runWith(sim.ScriptedCapabilities{})
	if sorting.CacheFile != "" || blind.CacheFile != "" {
		t.Fatalf("first runs came from the cache: %q %q", sorting.CacheFile, blind.CacheFile)
	}
	if answers(sorting) == answers(blind) {
		t.Errorf("a date-sorting and a date-blind reader named alike gave the same render-only answers %q: the cache is keyed on the name only", answers(sorting))
	}
	again := runWith(sim.ScriptedCapabilities{SortsByTime: true})
	if again.CacheFile == "" || answers(again) != answers(sorting) {
		t.Errorf("rerun: cache file %q, answers %q (want cached %q)", again.CacheFile, answers(again), answers(sorting))
	}
}

// The worked question reads one reverted revert through the staircase with
// every scripted reader; its arithmetic is the share of readers right on
// each memory, and the staircase on the same rows reproduces Table 2's
// pooled terms as differences of accuracies.
func TestWorkedQuestionAndStaircase(t *testing.T) {
	b, err := bench.Load(filepath.Join("..", "..", "data", "synthetic"))
	if err != nil {
		t.Fatal(err)
	}
	qa, err := lab.PickWorked(b, esr.RevertedRevert, esr.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := reader.ParseList(strings.Join(lab.ScriptedFamilies, ","), llm.Setup{}, sim.Readers)
	if err != nil {
		t.Fatal(err)
	}
	w, err := lab.Work(context.Background(), b, qa, nil, rs, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Renders) != 3 || !strings.Contains(w.Renders[0], "|time") || !strings.Contains(w.Renders[2], "status:") {
		t.Fatalf("renders: %q", w.Renders)
	}
	right := 0
	for ri := range w.Readers {
		if w.Answers[ri][0].Correct {
			right++
		}
		if w.Answers[ri][0].Reason == "" {
			t.Errorf("%s gives no reason", w.Readers[ri])
		}
	}
	if a := w.Arithmetic(); !strings.Contains(a, fmt.Sprintf("right are %d/%d on graphrag-abstain", right, len(rs))) || !strings.Contains(a, "Render step") {
		t.Errorf("arithmetic %q does not count %d/%d right on graphrag-abstain", a, right, len(rs))
	}
	if tab := lab.CapabilitiesTable(rs); len(tab.Rows) != len(rs) {
		t.Errorf("capabilities table has %d rows for %d readers", len(tab.Rows), len(rs))
	}

	rows, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: lab.Staircase, Readers: rs,
		QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}})
	if err != nil {
		t.Fatal(err)
	}
	acc := lab.StaircaseAccuracy(rows, nil)
	pooled := map[string]float64{}
	for _, a := range acc {
		if a.Group == eval.Pooled {
			pooled[a.Memory.String()] = a.Acc
		}
	}
	cs, err := eval.CompareTerms(rows, []eval.Term{eval.TermRender, eval.TermFineMechanism}, nil, eval.StatOptions{B: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := pooled["render-only"] - pooled["graphrag-abstain"]; math.Abs(got-cs[0].Delta) > 1e-12 {
		t.Errorf("render step %v, Table 2 render %v", got, cs[0].Delta)
	}
	if got := pooled["fine-ledger"] - pooled["render-only"]; math.Abs(got-cs[1].Delta) > 1e-12 {
		t.Errorf("mechanism step %v, Table 2 mechanism %v", got, cs[1].Delta)
	}
	if s := lab.StaircaseSentence(acc); !strings.Contains(s, fmt.Sprintf("%+.3f", cs[1].Delta)) {
		t.Errorf("sentence %q lacks the mechanism step %+.3f", s, cs[1].Delta)
	}
	if p := lab.StaircasePlot(acc, "staircase"); p == nil {
		t.Error("no plot")
	}
}

// ExplainGap weighs a pooled term against the paper's (direction, size,
// overlap) and names the families behind it; WhoIsRight splits a memory's
// accuracy by family.
func TestExplainGapAndWhoIsRight(t *testing.T) {
	cs := []eval.Comparison{
		termCmp(eval.TermRender, eval.Pooled, -0.05, -0.08, -0.02),
		termCmp(eval.TermRender, "a", -0.25, -0.3, -0.2),
		termCmp(eval.TermRender, "b", 0, 0, 0),
	}
	got := lab.ExplainGap(cs, paper.T2)
	if !strings.Contains(got, "opposite direction") || !strings.Contains(got, "do not overlap") || !strings.Contains(got, "a -0.250, b +0.000") {
		t.Errorf("ExplainGap: %q", got)
	}
	rows := []eval.Outcome{{QID: "1", Family: "a", Memory: memory.SpecOf("m"), Correct: true}, {QID: "1", Family: "b", Memory: memory.SpecOf("m")}}
	if got := lab.WhoIsRight(rows, memory.SpecOf("m"), nil); !strings.Contains(got, "0.500") || !strings.Contains(got, "a 1.000, b 0.000") {
		t.Errorf("WhoIsRight: %q", got)
	}
}

// The bridge pair: fine's Π and snapshot agree under R and R′, coarse's
// snapshot equals fine's, render-only abstains, the relation type differs.
func TestBridge(t *testing.T) {
	rows := theory.Bridge()
	if len(rows) != 6 {
		t.Fatalf("%d rows", len(rows))
	}
	s := theory.BridgeSentence(rows)
	for _, want := range []string{"answers the same snapshot", "fine − coarse is 0", "read-out is ABSTAIN", "Only the relation-type query"} {
		if !strings.Contains(s, want) {
			t.Errorf("bridge sentence %q lacks %q", s, want)
		}
	}
	if tab := theory.BridgeTable(rows); len(tab.Rows) != 6 {
		t.Errorf("table rows %d", len(tab.Rows))
	}
}

// Coarse steps beside ⊕'s on the L2 example: the contradiction closes the
// older edge in coarse-retain, which answers the newer value.
func TestCoarseSteps(t *testing.T) {
	tier := bench.Tiers()[1]
	tab := lab.CoarseSteps(tier.Stream, tier.Atoms, relate.Rule{})
	if len(tab.Rows) != len(tier.Atoms) {
		t.Fatalf("%d steps for %d atoms", len(tab.Rows), len(tier.Atoms))
	}
	last := tab.Rows[len(tab.Rows)-1]
	if !strings.Contains(strings.Join(last, " "), "closes 1 edge") || last[len(last)-1] == esr.AbstainText {
		t.Errorf("last step %v: want the contradiction to close the older edge and an answer", last)
	}
}

// The report layer lays out theory's and learn's data: the scorer table
// has one row per relation class plus accuracy and macro-F1.
func TestScorerTableShape(t *testing.T) {
	b, err := bench.Load(filepath.Join("..", "..", "data", "synthetic"))
	if err != nil {
		t.Fatal(err)
	}
	cv, err := relate.CrossValidateLearned(b, 3, 1, relate.LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	tab := theory.ScorerTable(cv)
	if len(tab.Rows) != len(esr.Relations)+2 || len(tab.Rows[0]) != len(tab.Columns) {
		t.Errorf("table shape: %d rows × %d cells, %d columns", len(tab.Rows), len(tab.Rows[0]), len(tab.Columns))
	}
	if p1 := theory.P1Table(theory.P1Fibre(20, 1)); len(p1.Rows) == 0 {
		t.Error("empty P1 table")
	}
}

// TestCalibrateSmall: on a small generated bench the joint fit is
// deterministic, lowers the weighted error from its start, reports what it
// fitted against what, and refits without Table 2's targets (reporting
// their values all the same); bad options are refused.
func TestCalibrateSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("fits the panel on a small generated bench")
	}
	cfg := lab.DefaultGenConfig()
	cfg.Seed, cfg.PerStratum = 3, 4
	b, err := lab.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opt := sim.CalibrateOptions{Starts: []int{0}, Iterations: 8}
	c1, err := sim.Calibrate(ctx, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := sim.Calibrate(ctx, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := c1.JSON()
	j2, _ := c2.JSON()
	if string(j1) != string(j2) {
		t.Fatal("two calibrations of one bench differ")
	}
	if len(c1.Families) != 5 || c1.Families[3].Profile.Name != "fit-qwen3-8b" || len(c1.Families[3].Targets) != 8 || len(c1.Panel) != 3 {
		t.Fatalf("fitted %d families (%q with %d targets), %d panel targets", len(c1.Families), c1.Families[3].Profile.Name, len(c1.Families[3].Targets), len(c1.Panel))
	}
	// 46 parameters against 43 targets: at most 43 singular values.
	if c1.Parameters != 46 || c1.Targets != 43 || c1.Rank < 1 || c1.Rank > 43 || len(c1.SingularValues) != 43 {
		t.Errorf("parameters %d, targets %d, rank %d, %d singular values", c1.Parameters, c1.Targets, c1.Rank, len(c1.SingularValues))
	}
	zero, err := sim.Calibrate(ctx, b, sim.CalibrateOptions{Starts: []int{0}, Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a, z := sim.SummarizeFit(c1, "", 0, 0).Objective, sim.SummarizeFit(zero, "", 0, 0).Objective; a > z {
		t.Errorf("weighted error after 8 iterations %v, after 1 %v", a, z)
	}
	noT2, err := sim.Calibrate(ctx, b, sim.CalibrateOptions{Starts: []int{0}, Iterations: 8, Drop: []string{sim.GroupTable2}})
	if err != nil {
		t.Fatal(err)
	}
	if noT2.Targets != 40 || len(noT2.Panel) != 3 || len(noT2.Dropped) != 1 {
		t.Errorf("without Table 2: %d targets, %d panel values, dropped %v", noT2.Targets, len(noT2.Panel), noT2.Dropped)
	}
	if !strings.Contains(sim.CalibrationSentence(noT2), "(not fitted)") {
		t.Errorf("the sentence does not say Table 2 was not fitted: %s", sim.CalibrationSentence(noT2))
	}
	for _, bad := range []sim.CalibrateOptions{{Reading: "sideways"}, {Drop: []string{"t9"}}, {AuxNoise: math.NaN()}, {Starts: []int{7}},
		{Families: []string{"Qwen3-8B", "Qwen3-8B"}}, {Ridge: -1}} {
		if _, err := sim.Calibrate(ctx, b, bad); err == nil {
			t.Errorf("options %+v accepted", bad)
		}
	}
}
