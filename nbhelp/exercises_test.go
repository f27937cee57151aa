package nbhelp

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader/sim"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/esr/theory"
	"github.com/esrkit/esrkit/internal/coverage"
	"github.com/esrkit/esrkit/internal/textdiff"
	"github.com/esrkit/esrkit/stats"
)

// tryItem matches a numbered item of a "Try it" list.
var tryItem = regexp.MustCompile(`(?m)^(\d+)\. `)

// TestExercisesMatchNotebooks: every notebook's "Try it" list has one
// registered exercise per item, and its "Try it" cell ends with their
// expected outcomes exactly as AnswersHTML writes them.
func TestExercisesMatchNotebooks(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "notebooks", "*.ipynb"))
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".ipynb")
		items, shows := 0, false
		want := answersHTML(name)
		for _, c := range readCells(t, p) {
			src := sourceText(c.Source)
			if c.Type == "markdown" && strings.HasPrefix(strings.TrimSpace(src), "## Try it") {
				items += len(tryItem.FindAllString(src, -1))
				shows = strings.HasSuffix(strings.TrimRight(src, "\n"), "\n\n"+want)
			}
		}
		registered := 0
		for _, e := range exercises {
			if e.Notebook == name {
				registered++
			}
		}
		if items != registered {
			t.Errorf("%s: %d Try-it items, %d registered exercises", name, items, registered)
		}
		if registered > 0 && !shows {
			t.Errorf("%s: its Try-it cell does not end with its exercises' expected outcomes; end it with a blank line and\n%s", name, want)
		}
	}
}

// exerciseChecks run each exercise's change on the bundled data and
// return an error when its expected outcome does not hold.
var exerciseChecks = map[string]func(ctx context.Context, b *bench.Bench) error{
	"00-quickstart#1": func(ctx context.Context, b *bench.Bench) error {
		qa, err := lab.PickRenderFlip(ctx, b, esr.CrossSourceConflict, esr.Snapshot, Readers(), memory.Options{})
		if err != nil {
			return err
		}
		w, err := lab.Work(ctx, b, qa, nil, Readers(), memory.Options{})
		if err != nil {
			return err
		}
		down, up := 0, 0
		for ri := range w.Readers {
			a := w.Answers[ri]
			switch {
			case !a[0].Correct && a[1].Correct:
				return fmt.Errorf("%s turns right at the render step", w.Readers[ri])
			case a[0].Correct && !a[1].Correct:
				if a[0].Answer != esr.AbstainText {
					return fmt.Errorf("%s was right on the d-blind control without abstaining", w.Readers[ri])
				}
				down++
			}
			if !a[1].Correct && a[2].Correct {
				if a[2].Answer != esr.AbstainText {
					return fmt.Errorf("%s turns right at the mechanism step without abstaining", w.Readers[ri])
				}
				up++
			}
		}
		if down == 0 || up == 0 {
			return fmt.Errorf("%d verdicts turn wrong at the render step, %d right at the mechanism step", down, up)
		}
		return nil
	},
	"41-render-confound#1": func(ctx context.Context, b *bench.Bench) error {
		qa, err := lab.PickWorked(b, esr.CrossSourceConflict, esr.Snapshot)
		if err != nil {
			return err
		}
		w, err := lab.Work(ctx, b, qa, nil, Readers(), memory.Options{})
		if err != nil {
			return err
		}
		up, down := 0, 0
		for ri := range w.Readers {
			a := w.Answers[ri]
			if a[0].Correct != a[1].Correct {
				if !a[0].Correct || a[0].Answer != esr.AbstainText || a[1].Answer == esr.AbstainText {
					return fmt.Errorf("%s's verdict changes at the render step other than from a control's abstention to a value", w.Readers[ri])
				}
				down++
			}
			switch {
			case a[1].Correct && !a[2].Correct:
				return fmt.Errorf("%s turns wrong at the mechanism step", w.Readers[ri])
			case !a[1].Correct && a[2].Correct:
				if a[2].Answer != esr.AbstainText {
					return fmt.Errorf("%s turns right at the mechanism step without abstaining", w.Readers[ri])
				}
				up++
			}
		}
		if up == 0 || down != 1 {
			return fmt.Errorf("%d verdicts change at the mechanism step, %d fall at the render step (want some, and one)", up, down)
		}
		return nil
	},
	"41-render-confound#2": func(ctx context.Context, b *bench.Bench) error {
		rows, err := eval.Evaluate(ctx, b, eval.Config{Memories: paper.RenderConfoundMemories, Readers: Readers(),
			QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}})
		if err != nil {
			return err
		}
		for _, term := range eval.Headline[:3] { // the paper's three
			pair, err1 := eval.Compare(rows, term, nil, eval.StatOptions{B: 2000, Seed: 1, Interval: eval.IntervalPair})
			clu, err2 := eval.Compare(rows, term, nil, eval.StatOptions{B: 2000, Seed: 1, Interval: eval.IntervalCluster})
			if err1 != nil || err2 != nil {
				return fmt.Errorf("%s: %v %v", term.Label, err1, err2)
			}
			if wider := clu.Hi-clu.Lo > pair.Hi-pair.Lo; !wider {
				return fmt.Errorf("%s: clustered interval %.3f, pair interval %.3f", term.Label, clu.Hi-clu.Lo, pair.Hi-pair.Lo)
			}
		}
		return nil
	},
	"41-render-confound#4": func(ctx context.Context, b *bench.Bench) error {
		// The refit is minutes of fitting; its results for every start and
		// ridge are the shipped grid (TestShippedGrids ties it to the
		// shipped calibration).
		span := func(drop bool) (lo, hi, coarseLo, coarseHi, rmse float64) {
			lo, coarseLo = math.Inf(1), math.Inf(1)
			hi, coarseHi = math.Inf(-1), math.Inf(-1)
			for _, r := range sim.ShippedIdentifiability() {
				if (len(r.Dropped) > 0) != drop {
					continue
				}
				lo, hi = math.Min(lo, r.Render), math.Max(hi, r.Render)
				coarseLo, coarseHi = math.Min(coarseLo, r.Coarse), math.Max(coarseHi, r.Coarse)
				if r.Ridge == sim.CalibrationRidge && r.Start == 0 {
					rmse = math.Hypot(r.RMSE16, r.RMSE17)
				}
			}
			return
		}
		wl, wh, wcl, wch, wr := span(false)
		ol, oh, cl, ch, or := span(true)
		if math.Max(wh, oh)-math.Min(wl, ol) > 0.03 {
			return fmt.Errorf("render spans %.3f to %.3f with Table 2, %.3f to %.3f without", wl, wh, ol, oh)
		}
		if !(wcl > 0 && wch > 0 && cl < 0 && ch < 0) {
			return fmt.Errorf("coarse-d spans %.3f to %.3f with Table 2, %.3f to %.3f without", wcl, wch, cl, ch)
		}
		if or > wr+0.01 {
			return fmt.Errorf("per-family error %.3f without Table 2, %.3f with", or, wr)
		}
		return nil
	},
	"41-render-confound#3": func(ctx context.Context, b *bench.Bench) error {
		type setting struct {
			onConflict    string
			sorts, status bool
		}
		render, mech := map[setting]eval.Comparison{}, map[setting]float64{}
		var best setting
		for _, oc := range []string{sim.ConflictAbstain, sim.ConflictFirst, sim.ConflictMajority} {
			for _, sorts := range []bool{false, true} {
				for _, status := range []bool{false, true} {
					r, err := sim.NewScriptedWith("mine", sim.ScriptedCapabilities{SortsByTime: sorts, UsesStatus: status, OnConflict: oc})
					if err != nil {
						return err
					}
					rows, err := eval.Evaluate(ctx, b, eval.Config{Memories: memory.Specs(memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger),
						Readers: []reader.Reader{r}, QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}})
					if err != nil {
						return err
					}
					cs, err := eval.CompareTerms(rows, []eval.Term{eval.TermRender, eval.TermFineMechanism}, nil, eval.StatOptions{B: 200, Seed: 1})
					if err != nil || len(cs) != 2 {
						return fmt.Errorf("terms: %v", err)
					}
					s := setting{oc, sorts, status}
					render[s], mech[s] = cs[0], cs[1].Delta
					if mech[s] > mech[best] || best.onConflict == "" {
						best = s
					}
				}
			}
		}
		for s, c := range render {
			makes := s.onConflict == sim.ConflictFirst && !s.sorts
			switch {
			case makes && !(c.Delta > 0 && c.Lo > 0):
				return fmt.Errorf("%+v: render term %+.3f %s, want positive with its interval excluding 0", s, c.Delta, c.CI())
			case !makes && c.Delta != 0:
				return fmt.Errorf("%+v: render term %+.3f, want exactly 0", s, c.Delta)
			}
			if !s.status && mech[s] != 0 {
				return fmt.Errorf("%+v: the mechanism term moves without the status column: %+.3f", s, mech[s])
			}
		}
		if want := (setting{sim.ConflictAbstain, false, true}); best != want {
			return fmt.Errorf("the mechanism term is largest at %+v (%+.3f), not %+v (%+.3f)", best, mech[best], want, mech[want])
		}
		return nil
	},
}

func init() {
	add := func(id string, f func(ctx context.Context, b *bench.Bench) error) { exerciseChecks[id] = f }
	add("02-esr#1", func(ctx context.Context, b *bench.Bench) error {
		tier := bench.Tiers()[2]
		l := esr.BuildLedger(tier.Stream, tier.Atoms, relate.Rule{})
		for _, kl := range l.Keys {
			n := len(kl.Atoms)
			for i := 0; i < n-1; i++ {
				if kl.ClosedBy[i] != i+1 {
					return fmt.Errorf("atom %d closed by %d", i, kl.ClosedBy[i])
				}
			}
			if kl.ClosedBy[n-1] >= 0 || kl.Snapshot() != esr.Says(kl.Atoms[n-1].Display()) {
				return fmt.Errorf("last atom not the live answer: %v", kl.Snapshot())
			}
		}
		return nil
	})
	add("02-esr#2", func(ctx context.Context, b *bench.Bench) error {
		s, atoms := bench.Figure1()
		kl := esr.BuildLedger(s, atoms, relate.SameState{}).Keys[0]
		if kl.StatusText() != "neutral" || len(kl.Active) != len(atoms) || len(kl.DeprecatedAtoms()) != 0 || kl.Snapshot() != esr.Abstain {
			return fmt.Errorf("status %s, %d active, %d deprecated, snapshot %v", kl.StatusText(), len(kl.Active), len(kl.DeprecatedAtoms()), kl.Snapshot())
		}
		return nil
	})
	add("03-bench#1", func(ctx context.Context, b *bench.Bench) error {
		cfg := lab.DefaultGenConfig()
		cfg.EventRecall, cfg.CoKeyRecall = 0.5, paper.Number(paper.AppFCoKeyRecall)
		nb, err := lab.Generate(cfg)
		if err != nil {
			return err
		}
		r := coverage.Measure(nb, func(q *esr.QA) bool { return q.Type() == esr.Snapshot })
		if math.Abs(r.EventRecall.Value-0.5) > 0.05 {
			return fmt.Errorf("measured event recall %.3f", r.EventRecall.Value)
		}
		return nil
	})
	add("03-bench#2", func(ctx context.Context, b *bench.Bench) error {
		cfg := lab.DefaultGenConfig()
		cfg.PerStratum = 4
		small, err := lab.Generate(cfg)
		if err != nil {
			return err
		}
		cs, cb := coverage.Describe(small), coverage.Describe(b)
		for src, strata := range cb.BySourceStratumQuery {
			for st := range strata {
				n, m := 0, 0
				for _, k := range cs.BySourceStratumQuery[src][st] {
					n += k
				}
				for _, k := range strata[st] {
					m += k
				}
				if n == 0 || n >= m {
					return fmt.Errorf("%s %s: %d questions, bundled %d", src, st, n, m)
				}
			}
		}
		return nil
	})
	view := func(ctx context.Context, b *bench.Bench, s lab.Settings) (render, mech eval.Comparison, err error) {
		v, err := lab.NewExplorer(b).View(ctx, s)
		if err != nil {
			return render, mech, err
		}
		render, _ = eval.FindTerm(v.Comparisons, eval.TermRender, reader.Family{})
		mech, _ = eval.FindTerm(v.Comparisons, eval.TermFineMechanism, reader.Family{})
		return render, mech, nil
	}
	add("40-explorer#1", func(ctx context.Context, b *bench.Bench) error {
		// The claim, term by term: both shrink against the default
		// reader's, and the render term's interval contains 0 although the
		// default reader's excludes it.
		s := lab.DefaultSettings()
		r0, _, err := view(ctx, b, s)
		if err != nil {
			return err
		}
		if s, err = s.WithProfile("date-sorter"); err != nil {
			return err
		}
		r, m, err := view(ctx, b, s)
		if err != nil {
			return err
		}
		if !r0.Significant() {
			return fmt.Errorf("the default reader's render term %v is not distinguishable from 0: nothing shrinks to 0", r0)
		}
		if r.Lo > 0 || r.Hi < 0 || math.Abs(r.Delta) >= math.Abs(r0.Delta) {
			return fmt.Errorf("date-sorter: render %v, default render %v", r, r0)
		}
		if m.Significant() || math.Abs(m.Delta) >= math.Abs(r0.Delta) {
			return fmt.Errorf("date-sorter: mechanism %v, default render %v", m, r0)
		}
		return nil
	})
	add("40-explorer#2", func(ctx context.Context, b *bench.Bench) error {
		s := lab.DefaultSettings()
		r0, m0, err := view(ctx, b, s)
		if err != nil {
			return err
		}
		s.NoiseP = 0.3
		r1, m1, err := view(ctx, b, s)
		if err != nil {
			return err
		}
		if r0.Delta != r1.Delta || r0.N10 != r1.N10 || r0.N01 != r1.N01 || m0.Delta == m1.Delta {
			return fmt.Errorf("render %v → %v, mechanism %v → %v", r0, r1, m0, m1)
		}
		return nil
	})
	add("40-explorer#3", func(ctx context.Context, b *bench.Bench) error {
		ex := lab.NewExplorer(b)
		s := lab.DefaultSettings()
		qids, err := ex.QIDs(s)
		if err != nil {
			return err
		}
		status := map[string]bool{"LIVE": true, "DEPRECATED": true, "REFINED": true, "UNRELATED": true, "neutral": true, "ok": true, "unresolved": true}
		for i := 0; i < 10 && i < len(qids); i++ {
			w, err := ex.Drill(ctx, s, qids[i], ScriptedReaders()...)
			if err != nil {
				return err
			}
			ro, fl := indexOf(memory.Strings(w.Memories), memory.RenderOnly), indexOf(memory.Strings(w.Memories), memory.FineLedger)
			flip := false
			for ri := range w.Readers {
				flip = flip || w.Answers[ri][ro].Correct != w.Answers[ri][fl].Correct
			}
			if !flip {
				continue
			}
			for _, l := range textdiff.Against(w.Renders[ro], w.Renders[fl]) {
				for _, seg := range l.Segments {
					if w := strings.TrimSpace(seg.Text); seg.Changed && w != "" && !status[w] {
						return fmt.Errorf("question %d: fine-ledger changes %q", i, w)
					}
				}
			}
			return nil
		}
		return fmt.Errorf("no flip among the first questions")
	})
	add("40-explorer#4", func(ctx context.Context, b *bench.Bench) error {
		base := sim.Profile{Name: "phase", FirstRowBias: 0.5, AbstainOnConflict: 0.5}
		ph, err := lab.PhaseDiagram(ctx, b, sim.Date, sim.Status, []float64{0, 0.5, 1}, base, eval.StatOptions{B: 300, Seed: 1})
		if err != nil {
			return err
		}
		dominant := 0
		for _, c := range ph.Cells {
			if c.X == 1 && c.Render.Delta != 0 {
				return fmt.Errorf("render term %+.3f at date 1, status %g", c.Render.Delta, c.Y)
			}
			if c.Dominant() == "render" {
				dominant++
				if c.X == 1 {
					return fmt.Errorf("render dominates at date 1")
				}
			}
		}
		if dominant == 0 {
			return fmt.Errorf("the render term dominates nowhere")
		}
		return nil
	})
	add("42-noise#1", func(ctx context.Context, b *bench.Bench) error {
		rows, err := lab.NoiseSweep(ctx, lab.Setup{Bench: b, Readers: Readers()}, eval.AtomDropoutAxis, []float64{0, 0.5}, 1)
		if err != nil {
			return err
		}
		acc := func(p float64, m string) float64 {
			for _, a := range eval.AccuracyBy(rows, []memory.Spec{memory.MustParseSpec(m)}, nil, eval.Variants(eval.ParseVariant(fmt.Sprintf("%s p=%.1f", eval.AtomDropoutAxis, p))), 0.95) {
				return a.Acc
			}
			return math.NaN()
		}
		f0, f1, c0, c1 := acc(0, memory.FineLedger), acc(0.5, memory.FineLedger), acc(0, memory.CoarseRetain), acc(0.5, memory.CoarseRetain)
		if !(f1 < f0-0.05 && c1 < c0-0.05 && math.Abs((c0-c1)-(f0-f1)) < 0.25*math.Min(f0-f1, c0-c1)) {
			return fmt.Errorf("fine %.3f → %.3f, coarse %.3f → %.3f", f0, f1, c0, c1)
		}
		return nil
	})
	add("42-noise#2", func(ctx context.Context, b *bench.Bench) error {
		res := Run("noise", b)
		n := -1
		for _, axis := range []eval.NoiseAxis{eval.RelationNoiseAxis, eval.AtomDropoutAxis} {
			for _, c := range eval.SweepComparisons(res.Rows(), axis, paper.NoiseLevels, eval.StatOptions{B: 100, Seed: 1}) {
				if n >= 0 && c.N != n {
					return fmt.Errorf("%s at %s: n = %d, not %d", axis, c.Scope, c.N, n)
				}
				n = c.N
			}
		}
		lengths := bench.StreamLengths(b)
		seen := map[int]bool{}
		for _, o := range Run("strata", b).Rows() {
			if o.QueryType == "snapshot" && o.Memory.Is(memory.FineLedger) {
				seen[len(eval.LengthBin(lengths[o.QID]))*0+coverage.BinOf(lengths[o.QID])] = true
			}
		}
		if len(seen) < 2 {
			return fmt.Errorf("the stream-length bins do not hold different questions")
		}
		return nil
	})
	add("43-provenance#1", func(ctx context.Context, b *bench.Bench) error {
		qa, err := lab.PickWorked(b, esr.Refinement, esr.Provenance)
		if err != nil {
			return err
		}
		w, err := lab.Work(ctx, b, qa, paper.RetentionStaircase, Readers(), memory.Options{})
		if err != nil {
			return err
		}
		for ri := range w.Readers {
			a := w.Answers[ri]
			if a[0].Correct || !a[1].Correct || a[2].Correct && !a[1].Correct {
				return fmt.Errorf("%s: %v / %v / %v", w.Readers[ri], a[0].Correct, a[1].Correct, a[2].Correct)
			}
		}
		return nil
	})
	add("43-provenance#2", func(ctx context.Context, b *bench.Bench) error {
		res := Run("provenance", b)
		acc := map[string]map[string]float64{}
		for _, cond := range []string{eval.StateOnly.String(), eval.DeployedRender.String()} {
			acc[cond] = map[string]float64{}
			for _, a := range eval.ProvenanceAccuracy(res.Rows(), paper.RetentionClasses, eval.ParseVariant(cond)) {
				acc[cond][a.Memory.String()] = a.Acc
			}
		}
		for m, a := range acc[eval.StateOnly.String()] {
			d := acc[eval.DeployedRender.String()][m] - a
			if m == memory.CoarseDiscard && d <= 0 || m != memory.CoarseDiscard && math.Abs(d) >= math.Abs(acc[eval.DeployedRender.String()][memory.CoarseDiscard]-acc[eval.StateOnly.String()][memory.CoarseDiscard]) {
				return fmt.Errorf("%s moves %+.3f with the raw events", m, d)
			}
		}
		return nil
	})
	add("44-boundary#1", func(ctx context.Context, b *bench.Bench) error {
		res := Run("boundary", b)
		acc := map[string]float64{}
		for _, st := range []string{"baseline", "pair-oracle", "row-oracle", "strict-decode"} {
			for _, a := range eval.AccuracyBy(res.Rows(), memory.Specs(memory.FineLedger), nil, eval.Variants(eval.ParseVariant(st)), 0.95) {
				acc[st] = a.Acc
			}
		}
		pair, row, strict := acc["pair-oracle"]-acc["baseline"], acc["row-oracle"]-acc["pair-oracle"], acc["strict-decode"]-acc["row-oracle"]
		if !(strict > pair && pair > row && row > 0) {
			return fmt.Errorf("steps: pair %+.3f, row %+.3f, strict %+.3f", pair, row, strict)
		}
		// The row-oracle stage's gains: questions whose evidence the
		// extraction lost (bench.CoverageOf).
		type key struct{ qid, fam string }
		atPair := map[key]bool{}
		for _, o := range res.Rows() {
			if o.Memory.Is(memory.FineLedger) && o.Variant.String() == "pair-oracle" {
				atPair[key{o.QID, o.Family.String()}] = o.Correct
			}
		}
		byID := map[string]*esr.QA{}
		for i := range b.QAs {
			byID[b.QAs[i].QID] = &b.QAs[i]
		}
		up, lossy := 0, 0
		for _, o := range res.Rows() {
			if !o.Memory.Is(memory.FineLedger) || o.Variant.String() != "row-oracle" || !o.Correct || atPair[key{o.QID, o.Family.String()}] {
				continue
			}
			up++
			q := byID[o.QID]
			if c := bench.CoverageOf(bench.EventKeys(b.Atoms[q.StreamID]), q); c.Extracted < c.Relevant || c.CoKeyEligible && !c.CoKeyShared {
				lossy++
			}
		}
		if up == 0 || float64(lossy) < 0.9*float64(up) {
			return fmt.Errorf("row-oracle gains %d, of which %d on questions whose evidence the extraction lost", up, lossy)
		}
		return nil
	})
	add("44-boundary#2", func(ctx context.Context, b *bench.Bench) error {
		res := Run("boundary", b)
		worst, worstD := "", math.Inf(1)
		for _, p := range esr.Phenomena {
			f := eval.SnapshotIn(p)
			rows := eval.Select(res.Rows(), eval.Variants(eval.ParseVariant("rule-scorer"), eval.ParseVariant("learned-scorer")))
			var l, r float64
			for _, a := range eval.AccuracyBy(rows, memory.Specs(memory.FineLedger), func(o *eval.Outcome) string { return o.Variant.String() }, f, 0.95) {
				if a.Group == "learned-scorer" {
					l = a.Acc
				} else {
					r = a.Acc
				}
			}
			if l-r < worstD {
				worst, worstD = string(p), l-r
			}
		}
		if worst != string(esr.CrossSourceConflict) || worstD >= 0 {
			return fmt.Errorf("learned scorer helps least on %s (%+.3f)", worst, worstD)
		}
		cv, err := scorerCV(b)
		if err != nil {
			return err
		}
		k := indexRel(esr.Contradicts)
		if cv.Learned.Class[k].Recall >= cv.Rule.Class[k].Recall {
			return fmt.Errorf("CONTRADICTS recall: learned %.3f, rule %.3f", cv.Learned.Class[k].Recall, cv.Rule.Class[k].Recall)
		}
		return nil
	})
	add("45-deployed#1", func(ctx context.Context, b *bench.Bench) error {
		series := append(append([]memory.Spec{}, lab.ParaphraseSeries...), memory.MustParseSpec("graphiti@dup=0.5"))
		c, err := lab.EvaluateParaphraseCurve(ctx, b, series, lab.ParaphraseRates, Readers())
		if err != nil {
			return err
		}
		at := map[string]map[float64]float64{}
		for _, p := range c.Points {
			if p.Group != lab.ReadersGroup {
				continue
			}
			if at[p.Series.String()] == nil {
				at[p.Series.String()] = map[float64]float64{}
			}
			at[p.Series.String()][p.Rate] = p.Acc.Acc
		}
		g, g0, half := at["graphiti"], at["graphiti@dup=0"], at["graphiti@dup=0.5"]
		if half[0] != g[0] {
			return fmt.Errorf("at paraphrase 0: %.3f vs graphiti %.3f", half[0], g[0])
		}
		for _, r := range lab.ParaphraseRates {
			lo, hi := math.Min(g[r], g0[r]), math.Max(g[r], g0[r])
			if half[r] < lo-1e-9 || half[r] > hi+1e-9 {
				return fmt.Errorf("at %g: %.3f outside [%.3f, %.3f]", r, half[r], lo, hi)
			}
		}
		return nil
	})
	add("45-deployed#2", func(ctx context.Context, b *bench.Bench) error {
		cls := []memory.Spec{memory.SpecOf(memory.Mem0V3), memory.MustParseSpec("mem0-v3@dedup-k=0"), memory.SpecOf(memory.GraphRAGAbstain)}
		rows, err := eval.Evaluate(ctx, b, eval.Config{Memories: cls, Readers: append([]reader.Reader{reader.Oracle{}}, Readers()...),
			QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}})
		if err != nil {
			return err
		}
		acc := map[string]float64{}
		for _, a := range eval.AccuracyBy(rows, cls, func(o *eval.Outcome) string {
			if o.Reader.Kind == reader.KindOracle {
				return "oracle"
			}
			return "readers"
		}, nil, 0.95) {
			acc[a.Memory.String()+"/"+a.Group] = a.Acc
		}
		k0, v3, gra := acc["mem0-v3@dedup-k=0/readers"], acc["mem0-v3/readers"], acc[memory.GraphRAGAbstain+"/readers"]
		if !(k0 > v3+0.05) || math.Abs(k0-gra) > 0.05 || acc["mem0-v3@dedup-k=0/oracle"] != acc[memory.GraphRAGAbstain+"/oracle"] {
			return fmt.Errorf("accuracies %v", acc)
		}
		return nil
	})
	add("45-deployed#3", func(ctx context.Context, b *bench.Bench) error {
		ref, err := filepath.Abs("../examples/adapter/coarse_adapter.py")
		if err != nil {
			return err
		}
		if _, err := memory.ParseNames("exec:" + ref + memory.ControlSuffix); err != nil {
			return err
		}
		if _, err := memory.ParseNames((memory.MustParseSpec("exec:" + ref).ContentMatched()).String()); err == nil {
			s, atoms := bench.Figure1()
			defer memory.CloseAdapters()
			if _, err := memory.Build(memory.MustParseSpec("exec:"+ref).ContentMatched(), s, atoms, memory.Options{}); err == nil {
				return fmt.Errorf("an exec: adapter got a content-matched baseline")
			}
		}
		return nil
	})
	add("45-deployed#4", func(ctx context.Context, b *bench.Bench) error {
		s, atoms := bench.Figure1()
		q := esr.Query{Type: esr.Snapshot, Key: bench.TimeoutKey}
		st, err := memory.Build(memory.SpecOf(memory.Graphiti), s, atoms, memory.Options{})
		if err != nil {
			return err
		}
		if got := st.Answer(q); got != esr.Says("60 s") {
			return fmt.Errorf("graphiti answers %v", got)
		}
		k, ok := st.(memory.KeptAtoms)
		if !ok {
			return fmt.Errorf("graphiti reports no kept atoms")
		}
		for _, id := range k.KeptAtomIDs() {
			if id == atoms[len(atoms)-1].ID {
				return fmt.Errorf("graphiti kept the restored atom: %v", k.KeptAtomIDs())
			}
		}
		return nil
	})
	add("A-theory#1", func(ctx context.Context, b *bench.Bench) error {
		d, err := theory.Corollary1OnBench(ctx, b, esr.Snapshot, esr.CrossSourceConflict, nil)
		if err != nil {
			return err
		}
		if d.Beta <= 0 {
			return fmt.Errorf("β = %.3f", d.Beta)
		}
		return nil
	})
	add("A-theory#2", func(ctx context.Context, b *bench.Bench) error {
		cv, err := scorerCV(b)
		if err != nil {
			return err
		}
		g1, p1 := relate.AuditRelations(b, relate.Rule{})
		g2, p2 := relate.AuditRelations(b, cv.OutOfFold())
		f1, err1 := theory.Fano(g1, p1)
		f2, err2 := theory.Fano(g2, p2)
		if err1 != nil || err2 != nil || f2.Bound >= f1.Bound {
			return fmt.Errorf("rule floor %.3f, learned %.3f (%v %v)", f1.Bound, f2.Bound, err1, err2)
		}
		return nil
	})
	add("D-external#1", func(ctx context.Context, b *bench.Bench) error {
		vd, err := bench.Load("../data/vdyknow")
		if err != nil {
			return err
		}
		acc := map[string]float64{}
		for _, a := range eval.ProvenanceAccuracy(Run("external", vd).Rows(), paper.RetentionClasses, eval.StateOnly) {
			acc[a.Memory.String()] = a.Acc
		}
		gra := acc[memory.GraphRAGAbstain]
		if !(acc[memory.CoarseDiscard] == 0 && gra > 0 && acc[memory.CoarseRetain] > gra && acc[memory.FineLedger] > gra) {
			return fmt.Errorf("provenance by class on vdyknow: %v", acc)
		}
		return nil
	})
	add("D-debian#1", func(ctx context.Context, syn *bench.Bench) error {
		deb, err := bench.Load("../data/debian")
		if err != nil {
			return err
		}
		synRows, debRows := Run("render-confound", syn).Rows(), Run("render-confound", deb).Rows()
		rr, err := lab.ClutterByFamily(synRows, debRows, eval.RevertedRevertSnapshot, eval.DefaultStats)
		if err != nil {
			return err
		}
		larger := func(fcs []lab.FamilyClutter, scope string) error {
			for _, fc := range fcs {
				if !fc.Compared || !(fc.Lo > 0) {
					return fmt.Errorf("debian − synthetic render on %s, %s: [%.3f, %.3f] does not exclude 0 from above", scope, fc.Family, fc.Lo, fc.Hi)
				}
			}
			return nil
		}
		if err := larger(rr, "reverted reverts"); err != nil {
			return err
		}
		mono := eval.And(eval.QueryType(esr.Snapshot), eval.Phenomenon("monotonic"))
		fcs, err := lab.ClutterByFamily(synRows, debRows, mono, eval.DefaultStats)
		if err != nil {
			return err
		}
		if err := larger(fcs, "monotonic"); err != nil {
			return err
		}
		pooled := false
		for _, fc := range fcs {
			pooled = pooled || fc.Family == reader.Pooled
		}
		if !pooled {
			return fmt.Errorf("no pooled difference")
		}
		return nil
	})
	add("E-checks#1", func(ctx context.Context, b *bench.Bench) error {
		count := func(fam string, alpha float64) int {
			r, _, err := stats.Holm(paper.PValues[fam], alpha)
			if err != nil {
				return -1
			}
			n := 0
			for _, x := range r {
				if x {
					n++
				}
			}
			return n
		}
		if l5, l1, m5, m1 := count("Llama", 0.05), count("Llama", 0.01), count("Mistral", 0.05), count("Mistral", 0.01); l5 != 1 || l1 != 1 || m5 != 3 || m1 != 2 {
			return fmt.Errorf("Llama %d → %d, Mistral %d → %d", l5, l1, m5, m1)
		}
		return nil
	})
	add("E-checks#2", func(ctx context.Context, b *bench.Bench) error {
		rows := eval.Select(Run("checks", b).Rows(), eval.Variants(eval.Variant{}))
		best, bestK, bestAbst := reader.Family{}, math.Inf(1), 1.0
		for _, fam := range eval.Distinct(rows, func(o *eval.Outcome) reader.Family { return o.Family }) {
			var got, gold []bool
			for _, o := range eval.Select(rows, eval.And(eval.Family(fam), eval.QueryType(esr.Snapshot),
				func(o *eval.Outcome) bool { return o.Memory.Is(memory.GraphRAGAbstain) })) {
				got, gold = append(got, o.Abstained), append(gold, o.GoldAbstain)
			}
			c, err := stats.CalibrateAbstain(got, gold, 0.95)
			if err != nil || c.Agreement < 0.7 {
				continue
			}
			if math.Abs(c.Kappa.Kappa) < bestK {
				abst := 0
				for _, g := range got {
					if g {
						abst++
					}
				}
				best, bestK, bestAbst = fam, math.Abs(c.Kappa.Kappa), float64(abst)/float64(len(got))
			}
		}
		goldRate := 0
		n := 0
		for _, o := range rows {
			if o.QueryType == "snapshot" && o.Memory.Is(memory.GraphRAGAbstain) {
				n++
				if o.GoldAbstain {
					goldRate++
				}
			}
		}
		if best == (reader.Family{}) || bestAbst >= 0.25 || bestK >= 0.1 {
			return fmt.Errorf("family %q abstains on %.3f of the d-blind control's questions (gold rate %.3f)", best, bestAbst, float64(goldRate)/float64(n))
		}
		return nil
	})
}

// scorerCV is the notebooks' cross-validated learned scorer, computed once
// for the exercises that read it.
var scorerCV = func() func(b *bench.Bench) (*relate.LearnedCV, error) {
	var once sync.Once
	var cv *relate.LearnedCV
	var err error
	return func(b *bench.Bench) (*relate.LearnedCV, error) {
		once.Do(func() { cv, err = relate.CrossValidateLearned(b, 5, 1, relate.LearnedLambda) })
		return cv, err
	}
}()

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

func indexRel(r esr.Relation) int {
	for i, x := range esr.Relations {
		if x == r {
			return i
		}
	}
	return -1
}

// TestExercises checks every exercise's expected outcome on the bundled
// data, by running the change the exercise asks for.
func TestExercises(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every exercise on the bundled bench")
	}
	b, err := bench.Load("../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range exercises {
		id := fmt.Sprintf("%s#%d", e.Notebook, e.N)
		check, ok := exerciseChecks[id]
		if !ok {
			t.Errorf("exercise %s has no check", id)
			continue
		}
		t.Run(id, func(t *testing.T) {
			if err := check(context.Background(), b); err != nil {
				t.Errorf("expected outcome %q does not hold: %v", e.Expect, err)
			}
		})
	}
}
