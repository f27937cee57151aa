package experiment

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/theory"
	"github.com/esrkit/esrkit/internal/report"
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
	gold, pred := theory.AuditRelations(b, r)
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
func Table4(audits []RelationAudit, name string) *report.Table {
	t := &report.Table{Name: "table4-relation-audit-" + name, Title: "Table 4: atom-pair relation audit on " + name + " gold relations",
		Columns: []string{"scorer", "pairs", "acc", "macro-F1", "α̂FC", "α̂SM", "refine recall"}}
	for _, a := range audits {
		t.AddRow(a.Scorer, a.N, fmtProp(a.Accuracy), fmtProp(a.MacroF1), fmtProp(a.FalseContradict), fmtProp(a.SupersedeMiss), fmtProp(a.RefineRecall))
	}
	n := int(Paper["t4/N"])
	t.AddRow("paper: rule scorer", n, PaperCell("t4/rule/acc", false), PaperCell("t4/rule/macro-F1", false),
		PaperCell("t4/rule/alphaFC", false), PaperCell("t4/rule/alphaSM", false), PaperCell("t4/rule/refine-recall", false))
	t.AddRow("paper: DeepSeek-supervised audit", n, PaperCell("t4/deepseek/acc", false), PaperCell("t4/deepseek/macro-F1", false),
		"–", "–", PaperCell("t4/deepseek/refine-recall", false))
	t.Notes = []string{fmt.Sprintf("α̂FC: share of gold SAME_STATE/SUPERSEDES pairs predicted CONTRADICTS; α̂SM: share of gold SUPERSEDES pairs not predicted SUPERSEDES")}
	return t
}
