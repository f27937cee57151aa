package theory

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/report"
	"github.com/esrkit/esrkit/stats"
	"gonum.org/v1/plot"
)

// Table shows the decomposition.
func Corollary1Table(d GapSplit) *eval.Table {
	t := &eval.Table{ID: "corollary1", Title: "Corollary 1: Acc(F) − Acc(C) = β − κ",
		Columns: []string{"term", "value", "source"}}
	src := func(i int) string {
		if d.Sources[i] == "" {
			return "input"
		}
		return d.Sources[i]
	}
	t.AddRow("Acc(F) oracle relations", eval.PropCell(d.OracleF), src(0))
	t.AddRow("Acc(C) oracle relations", eval.PropCell(d.OracleC), src(1))
	t.AddRow("Acc(F) deployed", eval.PropCell(d.AccF), src(2))
	t.AddRow("Acc(C) deployed", eval.PropCell(d.AccC), src(3))
	t.AddRow("β = R*_C − R*_F", eval.SignedCell(d.Beta), "computed")
	t.AddRow("E_F = R_F − R*_F", eval.SignedCell(d.EF), "computed")
	t.AddRow("E_C = R_C − R*_C", eval.SignedCell(d.EC), "computed")
	t.AddRow("κ = E_F − E_C", eval.SignedCell(d.Kappa), "computed")
	t.AddRow("Acc(F) − Acc(C) = β − κ", eval.SignedCell(d.Gap), "computed")
	return t
}

// Table shows the audit's quantities beside the paper's.
func FanoTable(f FanoFloor) *eval.Table {
	t := &eval.Table{ID: "c2-fano-floor", Title: "Scorer information floor (C2): Fano's bound on relation-recovery error",
		Columns: []string{"quantity", "ours", "paper"}}
	b := func(x float64) string { return fmt.Sprintf("%.3f", x) }
	t.AddRow("pairs N", fmt.Sprint(f.N), fmt.Sprint(paperAuditN))
	t.AddRow("H(Y) bits (plug-in)", b(f.HY), b(PaperAuditH))
	t.AddRow("I(Y; Ŷ) bits, plug-in", b(f.I), "")
	t.AddRow("I(Y; Ŷ) bits, Miller–Madow", b(f.IMM), b(PaperAuditI))
	t.AddRow("Fano floor Pe ≥ (H, I_MM)", b(f.Bound), b(paperAuditFano))
	t.AddRow("Fano floor Pe ≥ (H, I plug-in)", b(f.BoundPlugIn), "")
	t.AddRow("weak Fano (H − I_MM − 1)/log2 K", b(f.WeakBound), b(stats.FanoWeakBound(PaperAuditH, PaperAuditI, RelationClasses)))
	t.AddRow("actual error rate", b(f.ErrorRate), b(1-paperAuditAcc))
	t.AddRow("Cohen's κ (gold vs predicted)", b(f.CohenKappa), "")
	t.Notes = []string{fmt.Sprintf("K = %d relation classes. Fano: h(Pe) + Pe·log2(K−1) ≥ H(Y) − I(Y; Ŷ); the plug-in form holds exactly for the empirical distribution.", f.K)}
	return t
}

// Table lists each class's and rule's accuracy on (I), (II) and both.
func P1Table(r P1Result) *eval.Table {
	t := &eval.Table{ID: "p1-fibre", Title: "Proposition 1: snapshot accuracy on the symmetric fibre (oracle read-out, gold relations)",
		Columns: []string{"class / rule", "reads d", "acc (I) revert", "acc (II) conflict", "acc (fibre)", "same answer on (I) and (II)"}}
	for _, c := range r.Classes {
		reads := "yes"
		if c.DBlind {
			reads = "no"
		}
		t.AddRow(c.Class, reads, c.AccI, c.AccII, c.Acc, fmt.Sprintf("%d/%d", c.SameAnswer, r.Surfaces))
	}
	for _, ru := range r.Rules {
		t.AddRow("rule: "+ru.Rule, "no", ru.AccI, ru.AccII, ru.Acc, fmt.Sprintf("%d/%d", r.Surfaces, r.Surfaces))
	}
	t.AddRow("best deterministic d-blind rule (Bayes ceiling)", "no", "", "", r.BayesCeiling, "")
	t.Notes = []string{
		fmt.Sprintf("%d seeded surfaces φ…, other…, φ… (%d distinct σ = (values, Tv)); each is instance (I) (the middle is deprecated, truth φ) and (II) (unresolved conflict, truth ABSTAIN), identical but for d.", r.Surfaces, r.Signatures),
		"Proposition 1: no deterministic function of σ exceeds 1/2 on this fibre; the fine ledger reads d and applies ⊕, scoring 1.",
		"The coarse classes read d but have no unresolved status: they close the older edge on a contradiction too and answer φ on (II).",
	}
	return t
}

// FibrePlot draws the paper's Figure 4 from a fibre result: accuracy of each
// class on the symmetric fibre, d-blind classes at or below the 1/2
// ceiling, the fine ledger at 1.
func FibrePlot(r P1Result) *plot.Plot {
	var pts []report.IntervalPoint
	for _, c := range r.Classes {
		pts = append(pts, report.IntervalPoint{Label: string(c.Class), Est: c.Acc, Lo: c.Acc, Hi: c.Acc})
	}
	p := report.BarPlot("Is a binary live/dead marker enough (P1)? Accuracy on the symmetric fibre", "accuracy", pts)
	p.X.Tick.Label.Rotation = 0.6
	p.X.Tick.Label.XAlign = -1
	return p
}

// Table lists the quantities with both estimators.
func P2bTable(r P2bResult) *eval.Table {
	t := &eval.Table{ID: "p2b-typing-benefit",
		Title:   "Proposition 2b: the relation labelling adds nothing to the snapshot once Π is known (bits)",
		Columns: []string{"quantity", "plug-in", "Miller–Madow", "conditioning cells"}}
	f := func(x float64) string { return fmt.Sprintf("%.4f", x) }
	t.AddRow("H(v*)", f(r.HSnapshot), "", "1")
	t.AddRow("H(v* | values)", f(r.HSnapshotGivenValues), "", fmt.Sprint(r.RGivenValues.Cells))
	t.AddRow("I(v*; Π | values)", f(r.PiGivenValues.PlugIn), f(r.PiGivenValues.MillerMadow), fmt.Sprint(r.PiGivenValues.Cells))
	t.AddRow("I(v*; R | values)", f(r.RGivenValues.PlugIn), f(r.RGivenValues.MillerMadow), fmt.Sprint(r.RGivenValues.Cells))
	t.AddRow("b_type = I(v*; R | Π, values)", f(r.BType.PlugIn), f(r.BType.MillerMadow), fmt.Sprint(r.BType.Cells))
	c := r.Config
	t.Notes = []string{
		fmt.Sprintf("N = %d keys of %d–%d atoms, values from a pool of %d, each co-keyed pair labelled uniformly from %v (%d distinct labellings R); seed %d.",
			c.N, c.MinAtoms, c.MaxAtoms, c.Values, c.Labels, r.Labellings, c.Seed),
		fmt.Sprintf("v* is ⊕'s snapshot (a value or ABSTAIN); the read-out g(Π, values) disagreed with it on %d keys.", r.ReadOutMismatches),
		"Conditional MI is the cell-mass-weighted MI within each conditioning cell; Miller–Madow corrects each cell's entropies by its occupied-cell count.",
	}
	return t
}

// Table lists, per class, correct/surfaces for each query class and the
// statistic its coverage matches.
func P2cTable(r P2cResult) *eval.Table {
	t := &eval.Table{ID: "p2c-lattice", Title: "Proposition 2c: which query classes each memory class answers on the canonical surfaces",
		Columns: []string{"class", "relations", "snapshot", "provenance", "relation-type", "covers"}}
	for _, row := range r.Rows {
		cells := []any{row.Class, row.Relator}
		for q := range esr.QueryTypes {
			mark := ""
			if row.Covers(q) {
				mark = " ✓"
			}
			cells = append(cells, fmt.Sprintf("%d/%d%s", row.Correct[q], row.Surfaces, mark))
		}
		cells = append(cells, row.Statistic())
		t.AddRow(cells...)
	}
	t.Notes = []string{
		"Surfaces: " + strings.Join(r.Surfaces, "; ") + ". Oracle read-out (State.Answer).",
		"Prediction: coarse-discard covers S_snap, coarse-retain S_prov, fine-ledger S_type given REFINES is recovered; under the rule scorer both u→v transitions are scored REFINES, so the type rung is lost.",
	}
	return t
}

// GapTable shows the two strict gaps: equal lower statistic, different gold.
func P2cGapTable(r P2cResult) *eval.Table {
	t := &eval.Table{ID: "p2c-gaps", Title: "Proposition 2c: the strict gaps",
		Columns: []string{"gap", "surfaces", "lower statistic (left | right)", "query", "gold (left | right)", "higher statistic (left | right)"}}
	for _, g := range r.Gaps {
		t.AddRow(g.Gap, g.Left+" vs "+g.Right, g.Statistic+": "+g.LeftStat+" | "+g.RightStat, string(g.Query),
			g.LeftGold+" | "+g.RightGold, g.UpperLeft+" | "+g.UpperRight)
	}
	return t
}

// Corollary1Sweep tabulates corollary1Noise over relation-noise levels: one
// row per p with β, κ and the gap, so the notebook shows κ growing while β
// stays 0.
func Corollary1SweepTable(n int, levels []float64, seed uint64) *eval.Table {
	t := &eval.Table{ID: "corollary1-noise", Title: "Corollary 1 under relation noise (single-source histories, snapshot)",
		Columns: []string{"p", "Acc(F)", "Acc(C)", "β", "κ", "Acc(F) − Acc(C)"}}
	for _, p := range levels {
		d := corollary1Noise(n, p, seed)
		t.AddRow(eval.NumberCell("%.1f", p), d.AccF, d.AccC, eval.SignedCell(d.Beta), eval.SignedCell(d.Kappa), eval.SignedCell(d.Gap))
	}
	t.Notes = []string{"F = fine-ledger, C = coarse-retain; oracle arms use gold relations, deployed arms the noisy ones"}
	return t
}

// ScorerTable is the pair-level comparison in the manner of the paper's
// Table 10 / Table 7 "learned pair scorer" row: per relation class, the
// precision, recall and F1 of the rule scorer and of the out-of-fold learned
// scorer on the same gold pairs, then accuracy and macro-F1.
func ScorerTable(r *relate.LearnedCV) *eval.Table {
	t := &eval.Table{
		ID:    "table10-learned-pair-scorer",
		Title: "Pair-level relation scoring: rule scorer vs learned scorer (out-of-fold)",
		Columns: []string{"relation", "gold n", "rule P", "rule R", "rule F1",
			"learned P", "learned R", "learned F1"},
	}
	for c, rel := range esr.Relations {
		ru, le := r.Rule.Class[c], r.Learned.Class[c]
		t.AddRow(rel.String(), ru.Support, ru.Precision, ru.Recall, ru.F1, le.Precision, le.Recall, le.F1)
	}
	t.AddRow("accuracy", r.Rule.N, "", "", r.Rule.Accuracy, "", "", r.Learned.Accuracy)
	t.AddRow("macro F1", r.Rule.N, "", "", r.Rule.MacroF1, "", "", r.Learned.MacroF1)
	streams := 0
	for _, f := range r.Folds {
		streams += len(f.Test)
	}
	t.Notes = []string{
		"The learned scorer here is multinomial logistic regression (L2, L-BFGS) on hand-built pair features " +
			"(the rule scorer's label one-hot, value containment/overlap, cue words, actors, time and position); " +
			"it is NOT the paper's BERT pair scorer (bert-base-uncased on a 500-pair audit set).",
		fmt.Sprintf("Learned predictions are out-of-fold: %d-fold cross-validation grouped by stream (%d streams, seed %d, λ = %g), "+
			"so no stream's pairs were seen in training; the rule scorer is scored on the same %d pairs.",
			r.K, streams, r.Seed, r.Lambda, r.Rule.N),
		"In the last two rows the accuracy / macro-F1 value is in the F1 columns.",
	}
	return t
}
