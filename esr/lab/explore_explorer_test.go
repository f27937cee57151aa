package lab_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/esr/relate"
)

func loadSynthetic(tb testing.TB) *bench.Bench {
	tb.Helper()
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// correctBy indexes rows' labels by (qid, memory).
func correctBy(rows []eval.Outcome) map[[2]string]bool {
	m := map[[2]string]bool{}
	for _, o := range rows {
		m[[2]string{o.QID, o.Memory.String()}] = o.Correct
	}
	return m
}

// TestExplorerMatchesEvaluate: the explorer's kept-render path gives, for
// every setting tried, the same labels as the library's evaluation path
// (eval.Evaluate with the same sim reader, stratum, format and
// noise), and the same terms as CompareTerms on those rows.
func TestExplorerMatchesEvaluate(t *testing.T) {
	b := loadSynthetic(t)
	ex := lab.NewExplorer(b)
	ctx := context.Background()
	base := lab.DefaultSettings()
	dateSorter, err := sim.ProfileNamed("date-sorter")
	if err != nil {
		t.Fatal(err)
	}
	cases := []func(*lab.Settings){
		func(*lab.Settings) {},
		func(s *lab.Settings) { s.Reader = dateSorter },
		func(s *lab.Settings) { s.Format = "verbose"; s.NoiseP = 0.3; s.Seed = 7 },
		func(s *lab.Settings) {
			s.Stratum = string(esr.Monotonic)
			s.QueryType = esr.Provenance
			s.Terms = lab.TermSets[1].Name
		},
	}
	for i, change := range cases {
		s := base
		change(&s)
		v, err := ex.View(ctx, s)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		r, err := sim.New(s.Reader, s.Seed)
		if err != nil {
			t.Fatal(err)
		}
		opt := memory.Options{LedgerFormat: s.Format}
		if s.NoiseP > 0 {
			opt.Relator = relate.RelationNoise{Inner: relate.Rule{}, P: s.NoiseP, Seed: s.Seed}
		}
		want, err := eval.Evaluate(ctx, b, eval.Config{Memories: lab.Memories, Readers: []reader.Reader{r},
			QueryTypes: []esr.QueryType{s.QueryType}, Phenomena: []esr.Phenomenon{esr.Phenomenon(s.Stratum)}, Options: opt})
		if err != nil {
			t.Fatal(err)
		}
		got, exp := correctBy(v.Rows), correctBy(want)
		if len(got) == 0 || v.Questions == 0 {
			t.Fatalf("case %d: empty view", i)
		}
		for k, c := range got {
			w, ok := exp[k]
			if !ok || w != c {
				t.Errorf("case %d: %v: explorer says correct=%v, Evaluate %v (present %v)", i, k, c, w, ok)
			}
		}
		var terms []eval.Term
		for _, ts := range lab.TermSets {
			if ts.Name == s.Terms {
				terms = ts.Terms
			}
		}
		cs, err := eval.CompareTerms(want, terms, nil, s.Stats)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != len(v.Comparisons) {
			t.Fatalf("case %d: %d comparisons, want %d", i, len(v.Comparisons), len(cs))
		}
		for j := range cs {
			g, w := v.Comparisons[j], cs[j]
			if g.Label != w.Label || g.Delta != w.Delta || g.Lo != w.Lo || g.Hi != w.Hi || g.N != w.N {
				t.Errorf("case %d: %s: explorer %+.3f [%+.3f, %+.3f] n=%d, library %+.3f [%+.3f, %+.3f] n=%d",
					i, w.Label, g.Delta, g.Lo, g.Hi, g.N, w.Delta, w.Lo, w.Hi, w.N)
			}
		}
		if tab := v.Table(); len(tab.Rows) != len(cs) || !strings.Contains(tab.Title, "SIMULATED") {
			t.Errorf("case %d: table %q has %d rows, want %d and a SIMULATED label", i, tab.Title, len(tab.Rows), len(cs))
		}
	}
}

// TestExplorerControlsMoveTheRightTerms: reader skills change labels on
// every memory, while relation noise leaves the two memories that do not
// read relations (graphrag-abstain, render-only) untouched.
func TestExplorerControlsMoveTheRightTerms(t *testing.T) {
	ex := lab.NewExplorer(loadSynthetic(t))
	ctx := context.Background()
	s := lab.DefaultSettings()
	clean, err := ex.View(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	s.NoiseP = 0.5
	noisy, err := ex.View(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	a, b := correctBy(clean.Rows), correctBy(noisy.Rows)
	changed := map[string]int{}
	for k, c := range a {
		if b[k] != c {
			changed[k[1]]++
		}
	}
	for _, m := range []memory.Class{memory.GraphRAGAbstain, memory.RenderOnly} {
		if changed[string(m)] != 0 {
			t.Errorf("relation noise changed %d labels of %s, which reads no relations", changed[string(m)], m)
		}
	}
	if changed[memory.FineLedger] == 0 {
		t.Errorf("relation noise p = 0.5 changed no fine-ledger label")
	}
	s = lab.DefaultSettings()
	if s.Reader, err = s.Reader.Set(sim.Status, 0); err != nil {
		t.Fatal(err)
	}
	blind, err := ex.View(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	// The status skill acts on what a render shows: it changes labels of
	// the ledger, whose rows carry a status, and none of the d-blind
	// control or render-only, whose rows carry none.
	a, b = correctBy(clean.Rows), correctBy(blind.Rows)
	changed = map[string]int{}
	for k, c := range a {
		if b[k] != c {
			changed[k[1]]++
		}
	}
	if changed[memory.FineLedger] == 0 {
		t.Errorf("status skill 0 changed no fine-ledger label")
	}
	for _, m := range []memory.Class{memory.GraphRAGAbstain, memory.RenderOnly} {
		if changed[string(m)] != 0 {
			t.Errorf("status skill 0 changed %d labels of %s, whose render shows no status", changed[string(m)], m)
		}
	}
	for _, bad := range []func(*lab.Settings){
		func(s *lab.Settings) { s.Stratum = "nope" },
		func(s *lab.Settings) { s.Terms = "nope" },
		func(s *lab.Settings) { s.NoiseP = 2 },
	} {
		s := lab.DefaultSettings()
		bad(&s)
		if _, err := ex.View(ctx, s); err == nil || !strings.HasPrefix(err.Error(), "explorer:") {
			t.Errorf("bad settings %+v: error %v, want one starting \"explorer:\"", s, err)
		}
	}
}

// TestExplorerDrill: the drill-down reads the explorer's memories with the sim
// reader first, and its answers agree with the view's rows.
func TestExplorerDrill(t *testing.T) {
	ex := lab.NewExplorer(loadSynthetic(t))
	ctx := context.Background()
	s := lab.DefaultSettings()
	qids, err := ex.QIDs(s)
	if err != nil || len(qids) == 0 {
		t.Fatalf("QIDs: %v, %v", qids, err)
	}
	v, err := ex.View(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	rows := correctBy(v.Rows)
	scripted, err := reader.Parse("scripted:majority", llm.Setup{}, sim.Readers)
	if err != nil {
		t.Fatal(err)
	}
	for _, qid := range qids[:5] {
		w, err := ex.Drill(ctx, s, qid, scripted)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Renders) != len(lab.Memories) || len(w.Readers) != 2 || w.Readers[0] != v.Reader {
			t.Fatalf("%s: %d renders, readers %v", qid, len(w.Renders), w.Readers)
		}
		for mi, m := range w.Memories {
			if got, want := w.Answers[0][mi].Correct, rows[[2]string{qid, m.String()}]; got != want {
				t.Errorf("%s on %s: drill says correct=%v, view %v", qid, m, got, want)
			}
		}
	}
	if _, err := ex.Drill(ctx, s, "no-such-qid"); err == nil {
		t.Error("Drill of an unknown qid: no error")
	}
}

// BenchmarkExplorerRedraw measures a control change in the explorer on the
// bundled synthetic bench: a new reader skill, recomputed from the kept
// renders (read, judge, three terms with the interactive bootstrap). It
// reports
//
//   - s/redraw: seconds per control change (the budget is 1 s);
//   - x-cold: the ratio to a cold view measured in the same run, which
//     first builds and renders the explorer's memories for every question (what
//     the first view and a stratum, format or noise change cost).
//
// Run: go test ./esr/lab -run '^$' -bench ExplorerRedraw -benchtime 20x
func BenchmarkExplorerRedraw(b *testing.B) {
	bn := loadSynthetic(b)
	for _, stratum := range []string{string(esr.RevertedRevert), string(esr.Monotonic), lab.AllStrata} {
		b.Run(stratum, func(b *testing.B) {
			ctx := context.Background()
			s := lab.DefaultSettings()
			s.Stratum = stratum
			const reps = 3
			t0 := time.Now()
			for range reps {
				if _, err := lab.NewExplorer(bn).View(ctx, s); err != nil {
					b.Fatal(err)
				}
			}
			cold := float64(time.Since(t0).Nanoseconds()) / reps
			ex := lab.NewExplorer(bn)
			if _, err := ex.View(ctx, s); err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				s.Reader.DateSkill = float64(i%10) / 10
				i++
				if _, err := ex.View(ctx, s); err != nil {
					b.Fatal(err)
				}
			}
			per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(per/1e9, "s/redraw")
			b.ReportMetric(per/cold, "x-cold")
		})
	}
}

// TestExplorerWithCapability: a profile moved off a built-in one is called
// custom (so its tables do not pass for the built-in reader), and moving it
// back restores the built-in name.
func TestExplorerWithCapability(t *testing.T) {
	s := lab.DefaultSettings()
	orig, _ := s.Reader.Get(sim.Status)
	c, err := s.WithCapability(sim.Status, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	if c.Reader.Name != lab.CustomProfile || c.Reader.StatusSkill != 0.2 {
		t.Errorf("moved profile = %+v, want %q with status 0.2", c.Reader, lab.CustomProfile)
	}
	back, err := c.WithCapability(sim.Status, orig)
	if err != nil {
		t.Fatal(err)
	}
	if back.Reader != s.Reader {
		t.Errorf("moved back = %+v, want the built-in %+v", back.Reader, s.Reader)
	}
	if _, err := s.WithCapability(sim.Status, 1.5); err == nil || !strings.Contains(err.Error(), "explorer:") {
		t.Errorf("status 1.5: err = %v, want an explorer: error", err)
	}
	h, err := s.WithProfile("hedger")
	if err != nil || h.Reader.Name != "hedger" {
		t.Errorf("WithProfile(hedger) = %+v, %v", h.Reader, err)
	}
	if _, err := s.WithProfile("nobody"); err == nil {
		t.Error("WithProfile(nobody): no error")
	}
}

func TestExplorerWithReaderSpec(t *testing.T) {
	s := lab.DefaultSettings()
	got, err := s.WithReaderSpec("sim:date-sorter@status=0.5@first-row=0.2")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := s.WithProfile("date-sorter")
	want, _ = want.WithCapability(sim.Status, 0.5)
	want, _ = want.WithCapability(sim.FirstRow, 0.2)
	if got.Reader != want.Reader || got.Reader.Name != lab.CustomProfile {
		t.Errorf("spec gives %+v, want %+v", got.Reader, want.Reader)
	}
	if plain, _ := s.WithReaderSpec("sim:hedger"); plain.Reader.Name != "hedger" {
		t.Errorf("plain spec gives %+v", plain.Reader)
	}
	for _, bad := range []string{"sim:nobody", "sim:careful@status", "sim:careful@status=x", "sim:careful@seed=3", "sim:careful@status=2", "careful", "scripted:careful", "sim"} {
		if _, err := s.WithReaderSpec(bad); err == nil {
			t.Errorf("spec %q: no error", bad)
		}
	}
	if ts, err := lab.TermSetNamed("1"); err != nil || ts.Name != lab.TermSets[1].Name {
		t.Errorf("TermSetNamed(1) = %v, %v", ts.Name, err)
	}
	if _, err := lab.TermSetNamed("nothing"); err == nil {
		t.Error("TermSetNamed(nothing): no error")
	}
}
