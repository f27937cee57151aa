package lab

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/stats"
	"gonum.org/v1/plot"
)

// checksSuite is the "checks" experiment of `esr run` and the notebooks.
var checksSuite = Suite{Name: SuiteChecks, Doc: "Appendix G/H: Table 20 (permutation + Holm per family), Table 16 (abstain calibration), Table 19 (abstain wording)",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		rows, err := s.Evaluate(ctx, memory.Specs(memory.FineLedger, memory.GraphRAGAbstain), []esr.QueryType{esr.Snapshot}, s.Options, eval.Variant{})
		if err != nil {
			return nil, err
		}
		w, err := wordingRows(ctx, s)
		return append(rows, w...), err
	},
	Report: checksReport}

// checksReport is Appendix G: Table 20 (permutation + Holm per family),
// Table 16 (abstain calibration and κ per family) and Table 19 (the abstain
// wording) with its verdict (table19Verdict) as the table's sentence.
func checksReport(rows []eval.Outcome, s Setup) (*Result, error) {
	res := &Result{Name: "checks", Rows: rows, Figures: map[FigureID]*plot.Plot{}}
	main := eval.Select(rows, eval.Variants(eval.Variant{}))
	t, err := buildTable20(main, 0.05)
	res.Add(Table20PermutationHolm, t, err)
	t, err = buildTable16(main)
	res.Add(Table16AbstainCalibration, t, err)
	t, err = buildTable19(rows, s.Stats)
	res.Add(Table19AbstainWording, t, err)
	var verdict []string // none when no (wording, family) cell has both arms
	if v := table19Verdict(rows, s.Stats); v != "" {
		verdict = []string{v}
	}
	res.Verdicts = map[TableID][]string{Table19AbstainWording: verdict}
	return res, nil
}

// wordingRows evaluates fine-ledger and graphrag-abstain on snapshot QAs
// once per wording: LLM readers ask with that wording's template, scripted
// and sim readers get the analogue conflict policy (sim readers keep their
// profile and draws); the oracle has no wording and is left out.
func wordingRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	var rows []eval.Outcome
	for _, v := range wordingVariants {
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
			if sm, ok := r.(*sim.Sim); ok {
				// The sim analogue: the same profile and draws, its conflict
				// policy moved toward the wording (terse: take the first
				// value; conservative: never abstain; verbose: as fitted).
				p := sm.Profile()
				switch v.OnConflict {
				case sim.ConflictFirst:
					p.FirstRowBias = 1
				case sim.ConflictMajority:
					p.AbstainOnConflict = 0
				}
				vr, err := sim.New(p, sm.Seed())
				if err != nil {
					return nil, err
				}
				rs = append(rs, asFamilyOf(renameSim(vr, sm.Spec().Name+"~"+v.OnConflict), r.Family()))
				continue
			}
			sc, ok := r.(*sim.Scripted)
			if !ok {
				continue
			}
			caps := sc.Capabilities()
			caps.OnConflict = v.OnConflict
			vr, err := sim.NewScriptedWith(sc.Spec().Name+"~"+v.OnConflict, caps)
			if err != nil {
				return nil, err
			}
			rs = append(rs, asFamilyOf(vr, r.Family()))
		}
		if len(rs) == 0 {
			return rows, nil
		}
		r, err := eval.Evaluate(ctx, s.Bench, eval.Config{Memories: memory.Specs(memory.FineLedger, memory.GraphRAGAbstain), Readers: rs,
			Judge: s.Judge, QueryTypes: []esr.QueryType{esr.Snapshot}, Options: s.Options, Variant: wordingCondition(v), Progress: s.Progress})
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// buildTable20 is, per family, RevisionLedger − GraphRAG+abstain on each stratum
// (snapshot) with the exact two-sided paired permutation p-value and Holm's
// step-down over the family's tests at alpha (paper Appendix G, Table 20).
func buildTable20(rows []eval.Outcome, alpha float64) (*eval.Table, error) {
	t := &eval.Table{ID: Table20PermutationHolm, Title: fmt.Sprintf("Table 20: RL − GraphRAG+abstain per stratum, permutation p with Holm (α = %.2f) per family", alpha),
		Columns: []string{"family", "stratum", "n", "Δ", "p", "Holm-adjusted p", "reject"}}
	fams := eval.Distinct(rows, func(o *eval.Outcome) reader.Family { return o.Family })
	for _, fam := range fams {
		var ps []float64
		var cells [][]any
		for _, p := range esr.Phenomena {
			xa, xb := eval.Paired(rows, memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.GraphRAGAbstain), eval.And(eval.Family(fam), eval.SnapshotIn(p)))
			if len(xa) == 0 {
				continue
			}
			r, err := stats.PairedPermutationExact(xa, xb)
			if err != nil {
				return nil, err
			}
			ps = append(ps, r.P)
			cells = append(cells, []any{fam, string(p), r.N, eval.SignedCell(r.Estimate), eval.PValueCell(r.P)})
		}
		if len(ps) == 0 {
			continue
		}
		reject, adj, err := stats.Holm(ps, alpha)
		if err != nil {
			return nil, err
		}
		for i, c := range cells {
			mark := eval.TextCell("×")
			if reject[i] {
				mark = eval.VerdictCell("", true)
			}
			t.AddRow(append(c, eval.PValueCell(adj[i]), mark)...)
		}
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("table 20: no paired fine-ledger / graphrag-abstain rows")
	}
	t.Notes = []string{paperTable20Note(), eval.FamilyNote(rows)}
	return t, nil
}

// buildTable16 is per-family abstain calibration (agreement of binary abstain
// decisions with gold abstain labels) and Cohen's κ on the same table, for
// RevisionLedger and GraphRAG+abstain on snapshot rows (Appendix G).
func buildTable16(rows []eval.Outcome) (*eval.Table, error) {
	t := &eval.Table{ID: Table16AbstainCalibration, Title: "Table 16: abstain calibration and κ per family (snapshot)",
		Columns: []string{"family", "n", "RL cal.", "GRA cal.", "RL κ", "GRA κ"}}
	for _, fam := range eval.Distinct(rows, func(o *eval.Outcome) reader.Family { return o.Family }) {
		var cells []any
		n := 0
		var cal, kap [2]eval.Cell
		for i, m := range memory.Specs(memory.FineLedger, memory.GraphRAGAbstain) {
			var got, gold []bool
			for _, o := range eval.Select(rows, eval.And(eval.Family(fam), eval.QueryType(esr.Snapshot), func(o *eval.Outcome) bool { return o.Memory == m })) {
				got, gold = append(got, o.Abstained), append(gold, o.GoldAbstain)
			}
			cal[i], kap[i] = eval.TextCell("—"), eval.TextCell("—")
			if len(got) == 0 {
				continue
			}
			c, err := stats.CalibrateAbstain(got, gold, 0.95)
			switch {
			case errors.Is(err, stats.ErrKappaUndefined):
				kap[i] = eval.TextCell("undefined")
			case err != nil:
				return nil, fmt.Errorf("table 16, %s, %s: %w", fam, m, err)
			default:
				kap[i] = eval.NumberCell("%.3f", c.Kappa.Kappa)
			}
			n = len(got)
			cal[i] = eval.PropCell(c.Agreement)
		}
		cells = append(cells, fam, n, cal[0], cal[1], kap[0], kap[1])
		t.AddRow(cells...)
	}
	t.Notes = []string{"κ is 0 when a memory never (or always) abstains while gold varies: its agreement is then chance agreement; κ is undefined only when decisions and gold labels are all the same (0/0); paper Table 16 families: Llama-3.1-8B, Mistral-7B, Qwen2.5-7B, Qwen3-8B, Qwen3-14B", eval.FamilyNote(rows)}
	if hasFitFamily(rows) {
		t.Notes = append(t.Notes, "the calibrated sim:fit-* readers were fitted to the paper's Table 16 (calibration and κ of RL and GRA, strata weighted to the paper's main set), so this table is in sample for them; its cells differ from the fitted values because it is unweighted and drawn, not expected")
	}
	return t, nil
}

// paperTable20Note states the paper's Table 20 p-values and how many Holm
// rejects at α = 0.05, computed here from the registry's p-values.
func paperTable20Note() string {
	note := "paper (auxiliary high-noise split):"
	for i, fam := range []string{"Llama", "Mistral"} {
		ps := paper.Table20[fam]
		reject, _, err := stats.Holm(ps, 0.05)
		if err != nil {
			continue
		}
		n := 0
		var cells []string
		for j, p := range ps {
			cells = append(cells, fmt.Sprint(p))
			if reject[j] {
				n++
			}
		}
		if i > 0 {
			note += ";"
		}
		note += fmt.Sprintf(" %s p = {%s}, Holm rejects %d of %d", fam, strings.Join(cells, ", "), n, len(ps))
	}
	return note
}
