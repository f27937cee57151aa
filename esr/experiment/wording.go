package experiment

import (
	"context"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/llm"
	"github.com/esrkit/esrkit/stats"
)

// WordingVariant is one abstain-instruction wording of the paper's Table 19
// and its analogue for scripted readers: what the reader does when several
// candidate values remain.
type WordingVariant struct {
	Name       string // terse, verbose (main), conservative
	Template   string // the LLM readers' QA template
	OnConflict string // the scripted analogue
}

// WordingVariants are Table 19's three wordings. For scripted readers:
// "verbose (main)" abstains on unresolved candidates (the paper's wording),
// "conservative" ("prefer to answer") takes the majority value, "terse"
// takes the first value it reads.
var WordingVariants = []WordingVariant{
	{"terse", llm.TemplateQATerse, reader.ConflictFirst},
	{"verbose (main)", llm.TemplateQAAbstain, reader.ConflictAbstain},
	{"conservative", llm.TemplateQAConservative, reader.ConflictMajority},
}

// wordingCondition labels rows of one wording.
func wordingCondition(v WordingVariant) string { return "wording=" + v.Name }

// wordingRows evaluates fine-ledger and graphrag-abstain on snapshot QAs
// once per wording: LLM readers ask with that wording's template, scripted
// and sim readers get the analogue conflict policy (sim readers keep their
// profile and draws); the oracle has no wording and is left out.
func wordingRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	var rows []eval.Outcome
	for _, v := range WordingVariants {
		var rs []reader.Reader
		for _, r := range s.Readers {
			if l, ok := r.(*reader.LLM); ok {
				vr, err := l.WithTemplate(v.Template)
				if err != nil {
					return nil, err
				}
				rs = append(rs, vr)
				continue
			}
			if sm, ok := r.(*reader.Sim); ok {
				// The sim analogue: the same profile and draws, its conflict
				// policy moved toward the wording (terse: take the first
				// value; conservative: never abstain; verbose: as fitted).
				p := sm.Profile()
				switch v.OnConflict {
				case reader.ConflictFirst:
					p.FirstRowBias = 1
				case reader.ConflictMajority:
					p.AbstainOnConflict = 0
				}
				vr, err := reader.NewSim(p, sm.Seed())
				if err != nil {
					return nil, err
				}
				rs = append(rs, asFamily{Reader: simRenamed{vr, sm.Name() + "~" + v.OnConflict}, family: r.Family()})
				continue
			}
			sc, ok := r.(*reader.Scripted)
			if !ok {
				continue
			}
			caps := sc.Capabilities()
			caps.OnConflict = v.OnConflict
			vr, err := reader.NewScriptedWith(strings.TrimPrefix(sc.Name(), "scripted:")+"~"+v.OnConflict, caps)
			if err != nil {
				return nil, err
			}
			rs = append(rs, asFamily{Reader: vr, family: r.Family()})
		}
		if len(rs) == 0 {
			return rows, nil
		}
		r, err := eval.Evaluate(ctx, s.Bench, eval.Config{Memories: []string{memory.FineLedger, memory.GraphRAGAbstain}, Readers: rs,
			Judge: s.Judge, QueryTypes: []esr.QueryType{esr.Snapshot}, Options: s.Options, Condition: wordingCondition(v), Progress: s.Progress})
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// Table19 is, per wording and family, GraphRAG+abstain's abstain rate and
// calibration, and RevisionLedger − GraphRAG+abstain.
func Table19(rows []eval.Outcome, opt eval.StatOptions) (*eval.Table, error) {
	t := &eval.Table{Name: "table19-abstain-wording", Title: "Table 19: robustness of the GraphRAG+abstain control to the abstain wording",
		Columns: []string{"wording", "family", "n", "GRA abstain rate", "GRA calibration", "Δ RL − GRA", "95% CI"}}
	for _, v := range WordingVariants {
		cond := wordingCondition(v)
		sub := eval.Select(rows, eval.Condition(cond))
		for _, fam := range eval.Distinct(sub, func(o *eval.Outcome) string { return o.Family }) {
			f := eval.And(eval.Condition(cond), eval.Family(fam))
			var got, gold []bool
			for _, o := range eval.Select(sub, eval.And(f, func(o *eval.Outcome) bool { return o.Memory == memory.GraphRAGAbstain })) {
				got, gold = append(got, o.Abstained), append(gold, o.GoldAbstain)
			}
			cal, err := stats.CalibrateAbstain(got, gold, 0.95)
			if err != nil {
				continue
			}
			abst := 0
			for _, g := range got {
				if g {
					abst++
				}
			}
			c, err := eval.Compare(rows, v.Name, memory.FineLedger, memory.GraphRAGAbstain, f, opt)
			if err != nil {
				continue
			}
			t.AddRow(v.Name, fam, c.N, eval.PropCell(float64(abst)/float64(len(got))), eval.PropCell(cal.Agreement), fmtSigned(c.Delta), fmtCI(c.Lo, c.Hi))
		}
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("table 19: no LLM, scripted or sim families")
	}
	t.Notes = []string{"LLM readers: the qa-abstain-terse, qa-abstain and qa-abstain-conservative templates; scripted analogue: terse = take the first value read, verbose (the paper's wording) = abstain on unresolved candidates, conservative = take the majority value; sim analogue: the same profile and draws with first-row 1 (terse), as fitted (verbose), abstain 0 (conservative); the fine-ledger arm gets the same reader variant",
		"paper: the wording moves the control's calibration over a wide band, but RevisionLedger beats GraphRAG+abstain in all six (variant, family) cells", opt.IntervalNote(), familyNote(rows)}
	return t, nil
}
