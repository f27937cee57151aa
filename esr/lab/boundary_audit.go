package lab

import (
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/relate"

	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/esrkit/esrkit/stats"
	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/report"
	"github.com/esrkit/esrkit/internal/synth"
)

// RelationAudit are the paper's Table 4 measures of a relation scorer
// against gold pair labels: accuracy, macro-F1, the false-contradict rate
// α̂FC (CONTRADICTS predicted for a gold SAME_STATE or SUPERSEDES pair), the
// supersede-miss rate α̂SM (a gold SUPERSEDES pair not predicted
// SUPERSEDES) and REFINES recall.
type RelationAudit struct {
	Scorer                         string
	N                              int
	Accuracy, MacroF1              float64
	FalseContradict, SupersedeMiss float64
	RefineRecall                   float64
}

// AuditScorer audits a relation source on every gold-labelled pair of b.
func AuditScorer(b *bench.Bench, r esr.Relator) RelationAudit {
	gold, pred := relate.AuditRelations(b, r)
	a := RelationAudit{Scorer: r.Name(), N: len(gold)}
	if len(gold) == 0 {
		return a
	}
	var tp, fp, fn [len(esr.Relations)]int
	var fcNum, fcDen, smNum, smDen int
	correct := 0
	for i := range gold {
		g, p := gold[i], pred[i]
		if g == p {
			correct++
			tp[g]++
		} else {
			fp[p]++
			fn[g]++
		}
		if g == esr.SameState || g == esr.Supersedes {
			fcDen++
			if p == esr.Contradicts {
				fcNum++
			}
		}
		if g == esr.Supersedes {
			smDen++
			if p != esr.Supersedes {
				smNum++
			}
		}
	}
	a.Accuracy = float64(correct) / float64(len(gold))
	f1s, classes := 0.0, 0
	for c := range esr.Relations {
		if tp[c]+fn[c] == 0 {
			continue
		}
		classes++
		if tp[c] > 0 {
			prec := float64(tp[c]) / float64(tp[c]+fp[c])
			rec := float64(tp[c]) / float64(tp[c]+fn[c])
			f1s += 2 * prec * rec / (prec + rec)
		}
	}
	a.MacroF1 = f1s / float64(classes)
	a.FalseContradict = ratioOf(fcNum, fcDen)
	a.SupersedeMiss = ratioOf(smNum, smDen)
	a.RefineRecall = ratioOf(tp[esr.Refines], tp[esr.Refines]+fn[esr.Refines])
	return a
}

func ratioOf(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// Table4 lays out relation audits beside the paper's 500-pair audit (the
// "t4/..." numbers of the registry).
func Table4(audits []RelationAudit, name string) *eval.Table {
	t := &eval.Table{ID: eval.TableID("table4-relation-audit-" + name), Title: "Table 4: atom-pair relation audit on " + name + " gold relations",
		Columns: []string{"scorer", "pairs", "acc", "macro-F1", "α̂FC", "α̂SM", "refine recall"}}
	for _, a := range audits {
		t.AddRow(a.Scorer, a.N, eval.PropCell(a.Accuracy), eval.PropCell(a.MacroF1), eval.PropCell(a.FalseContradict), eval.PropCell(a.SupersedeMiss), eval.PropCell(a.RefineRecall))
	}
	n := int(paper.Number(paper.T4N))
	t.AddRow("paper: rule scorer", n, paper.Cell(paper.T4RuleAcc, false), paper.Cell(paper.T4RuleMacroF1, false),
		paper.Cell(paper.T4RuleAlphaFC, false), paper.Cell(paper.T4RuleAlphaSM, false), paper.Cell(paper.T4RuleRefineRecall, false))
	t.AddRow("paper: DeepSeek-supervised audit", n, paper.Cell(paper.T4DeepSeekAcc, false), paper.Cell(paper.T4DeepSeekMacroF1, false),
		"–", "–", paper.Cell(paper.T4DeepSeekRefineRecall, false))
	t.Notes = []string{fmt.Sprintf("α̂FC: share of gold SAME_STATE/SUPERSEDES pairs predicted CONTRADICTS; α̂SM: share of gold SUPERSEDES pairs not predicted SUPERSEDES")}
	return t
}

// Groups of RefinesAudit besides the refinement kinds.
const (
	allPairs     = "all"           // every gold-labelled co-keyed pair
	noRefinement = "no refinement" // pairs of keys that were never refined
)

// RefinesScore is a relation source's REFINES recall and precision on one
// group of gold-labelled co-keyed pairs. Recall is NaN without a gold
// REFINES pair, precision NaN without a predicted one.
type RefinesScore struct {
	Scorer    string  `json:"scorer"`
	Group     string  `json:"group"` // allPairs, a refinement kind, or noRefinement
	Pairs     int     `json:"pairs"`
	Gold      int     `json:"gold"`      // gold REFINES pairs
	Predicted int     `json:"predicted"` // pairs predicted REFINES
	Hits      int     `json:"hits"`      // both
	Recall    float64 `json:"recall"`
	Precision float64 `json:"precision"`
}

// RefinesAudit scores the REFINES labels of r against b's gold relations
// (relations.jsonl) over every gold-labelled co-keyed pair: pooled
// (allPairs) and per refinement kind of the pair's key, kindOf(stream, key)
// ("" for a key never refined, grouped as noRefinement; nil gives the pooled
// group only). Groups come in the order allPairs, the kinds in
// synth.RefineKinds order, other kinds sorted, noRefinement; empty groups
// are left out. r sees only streams and atoms, never the kinds.
func RefinesAudit(b *bench.Bench, r esr.Relator, kindOf func(streamID string, k esr.Key) string) []RefinesScore {
	by := map[string]*RefinesScore{}
	get := func(g string) *RefinesScore {
		if by[g] == nil {
			by[g] = &RefinesScore{Scorer: r.Name(), Group: g}
		}
		return by[g]
	}
	for _, s := range b.Streams {
		gold := b.Relations[s.ID]
		if len(gold) == 0 {
			continue
		}
		atoms := b.Atoms[s.ID]
		f := r.ForStream(s, atoms)
		for i := range atoms {
			for j := i + 1; j < len(atoms); j++ {
				if atoms[i].Key() != atoms[j].Key() {
					continue
				}
				g, ok := gold[esr.AtomPair{A: atoms[i].ID, B: atoms[j].ID}]
				if !ok {
					continue
				}
				p := f(&atoms[i], &atoms[j])
				groups := []string{allPairs}
				if kindOf != nil {
					k := kindOf(s.ID, atoms[i].Key())
					if k == "" {
						k = noRefinement
					}
					groups = append(groups, k)
				}
				for _, name := range groups {
					sc := get(name)
					sc.Pairs++
					if g == esr.Refines {
						sc.Gold++
					}
					if p == esr.Refines {
						sc.Predicted++
						if g == esr.Refines {
							sc.Hits++
						}
					}
				}
			}
		}
	}
	var names []string
	for n := range by {
		names = append(names, n)
	}
	rank := func(n string) int {
		switch {
		case n == allPairs:
			return -1
		case n == noRefinement:
			return len(synth.RefineKinds) + 1
		}
		if i := slices.Index(synth.RefineKinds, synth.RefineKind(n)); i >= 0 {
			return i
		}
		return len(synth.RefineKinds)
	}
	slices.SortFunc(names, func(x, y string) int {
		if rx, ry := rank(x), rank(y); rx != ry {
			return rx - ry
		}
		if x < y {
			return -1
		}
		if x > y {
			return 1
		}
		return 0
	})
	out := make([]RefinesScore, 0, len(names))
	for _, n := range names {
		sc := by[n]
		sc.Recall, sc.Precision = math.NaN(), math.NaN()
		if sc.Gold > 0 {
			sc.Recall = float64(sc.Hits) / float64(sc.Gold)
		}
		if sc.Predicted > 0 {
			sc.Precision = float64(sc.Hits) / float64(sc.Predicted)
		}
		out = append(out, *sc)
	}
	return out
}

// RefinementKinds maps (stream, key) to the refinement kind recorded in the
// rationale of b's QAs (synth.RefinementKind: the synthetic benchmark's
// "(refines, KIND)"); keys without one map to "". For RefinesAudit.
func RefinementKinds(b *bench.Bench) func(streamID string, k esr.Key) string {
	type sk struct {
		s string
		k esr.Key
	}
	m := map[sk]string{}
	for i := range b.QAs {
		q := &b.QAs[i]
		if kind := synth.RefinementKind(q); kind != "" {
			m[sk{q.StreamID, esr.Key{Entity: q.Entity, Attribute: q.Attribute}}] = string(kind)
		}
	}
	return func(streamID string, k esr.Key) string { return m[sk{streamID, k}] }
}

// RefinesRecallTable lays out REFINES audits (one []RefinesScore per
// scorer, from RefinesAudit) beside the paper's refinement recall (App. A,
// "Numerical instantiation", and Table 4: the rule scorer 0.050, a
// DeepSeek-supervised scorer 0.425; the paper gives no precision).
func RefinesRecallTable(audits [][]RefinesScore, name string) (*eval.Table, error) {
	t := &eval.Table{ID: refinesRecallTable.On(name), Title: "REFINES recall and precision against gold relations on " + name + ", by refinement kind",
		Columns: []string{"scorer", "group", "gold REFINES", "recall", "predicted REFINES", "precision", "paper recall"}}
	cell := func(x float64) eval.Cell {
		if math.IsNaN(x) {
			return eval.TextCell("—")
		}
		return eval.PropCell(x)
	}
	for _, a := range audits {
		for _, sc := range a {
			paperCell := eval.TextCell("—")
			if sc.Group == allPairs && sc.Scorer == "rule" {
				paperCell = paper.Cell(paper.T4RuleRefineRecall, false)
			}
			t.AddRow(sc.Scorer, sc.Group, sc.Gold, cell(sc.Recall), sc.Predicted, cell(sc.Precision), paperCell)
		}
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("no gold-labelled pairs in %s", name)
	}
	t.AddRow("paper: rule scorer", allPairs, "—", "—", "—", "—", paper.Cell(paper.T4RuleRefineRecall, false))
	t.AddRow("paper: DeepSeek-supervised scorer", allPairs, "—", "—", "—", "—", paper.Cell(paper.T4DeepSeekRefineRecall, false))
	t.Notes = []string{"pairs: every co-keyed atom pair with a gold relation (relations.jsonl); recall = hits / gold REFINES, precision = hits / predicted REFINES (— when undefined); the scorers see streams and atoms only, never the refinement kind",
		fmt.Sprintf("only %s refinements are superstrings of the value they refine, the shape the rule scorer's containment cue (and the spec's §8 mining rule) detects", synth.RefineQualifier),
		"paper: on its 500-pair DeepSeek-labelled audit (App. A, Table 4); it reports no precision and no split by kind"}
	return t, nil
}

// RefinesRecallSentence says what one scorer's RefinesAudit found, in a
// sentence generated from it: pooled recall and precision (beside the
// paper's recall for the rule scorer) and which refinement kinds it finds
// all, part or none of. It returns "" without gold REFINES pairs.
func RefinesRecallSentence(scores []RefinesScore) string {
	var all *RefinesScore
	var every, some, none []string
	for i := range scores {
		sc := &scores[i]
		switch {
		case sc.Group == allPairs:
			all = sc
		case sc.Gold == 0:
		case sc.Hits == sc.Gold:
			every = append(every, sc.Group)
		case sc.Hits == 0:
			none = append(none, sc.Group)
		default:
			some = append(some, fmt.Sprintf("%s (%s)", sc.Group, eval.PropCell(sc.Recall)))
		}
	}
	if all == nil || all.Gold == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The %s scorer labels %d of %d gold REFINES pairs REFINES (recall %s", all.Scorer, all.Hits, all.Gold, eval.PropCell(all.Recall))
	if all.Scorer == "rule" {
		fmt.Fprintf(&b, "; the paper's rule scorer: %s", paper.Cell(paper.T4RuleRefineRecall, false))
	}
	b.WriteString(")")
	if all.Predicted > 0 {
		fmt.Fprintf(&b, " at precision %s", eval.PropCell(all.Precision))
	}
	var parts []string
	if len(every) > 0 {
		parts = append(parts, "all of the "+strings.Join(every, ", ")+" refinements")
	}
	if len(some) > 0 {
		parts = append(parts, "part of the "+strings.Join(some, ", ")+" ones")
	}
	if len(none) > 0 {
		parts = append(parts, "none of the "+strings.Join(none, ", ")+" ones")
	}
	if len(parts) > 0 {
		b.WriteString(": it finds " + strings.Join(parts, ", "))
	}
	b.WriteString(".")
	return b.String()
}

// RefinesRecallPlot draws each scorer's REFINES recall per refinement kind
// (and over all pairs) with a Wilson interval, the paper's recalls (rule
// scorer, supervised scorer) as rings on the all-pairs label when the
// scorers are the rule and learned ones.
func RefinesRecallPlot(audits [][]RefinesScore) *plot.Plot {
	var pts []report.IntervalPoint
	for _, a := range audits {
		for _, s := range a {
			if s.Gold == 0 {
				continue
			}
			lo, hi := stats.WilsonInterval(s.Hits, s.Gold, 0.95)
			pts = append(pts, report.IntervalPoint{Label: s.Group, Est: s.Recall, Lo: lo, Hi: hi, Series: s.Scorer})
		}
	}
	for _, key := range []paper.Key{paper.T4RuleRefineRecall, paper.T4DeepSeekRefineRecall} {
		if v, ok := paper.Lookup(key); ok {
			pts = append(pts, report.IntervalPoint{Label: allPairs, Est: v, Lo: v, Hi: v, Series: report.PaperSeries})
		}
	}
	return report.IntervalPlot("REFINES recall by refinement kind (rings: the paper's rule and supervised scorers)", "recall", pts, false)
}
