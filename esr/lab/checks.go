package lab

import (
	"errors"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/stats"
)

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
