package lab

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/report"
)

// renderFormat is one column of the render-format ablation: the layout
// fine-ledger and render-only share, and the d-blind control's layout.
type renderFormat struct {
	Name         string // row label and condition suffix
	LedgerFormat string // memory.Options.LedgerFormat
	FactFormat   string // memory.Options.FactFormat of graphrag-abstain
}

// renderFormats are Table 17's variants: the four ledger formats against
// the dated d-blind control, then the compact ledger against the dateless
// d-blind control (how much of the render term is "dates visible at all").
var renderFormats = []renderFormat{
	{memory.LedgerCompact, memory.LedgerCompact, memory.FactsDated},
	{memory.LedgerVerbose, memory.LedgerVerbose, memory.FactsDated},
	{memory.LedgerMinimal, memory.LedgerMinimal, memory.FactsDated},
	{memory.LedgerJSON, memory.LedgerJSON, memory.FactsDated},
	{datelessVariant, memory.LedgerCompact, memory.FactsDateless},
}

// datelessVariant names the compact ledger against the dateless d-blind
// control.
const datelessVariant = memory.LedgerCompact + " vs dateless d-blind"

// Table 17's terms: RevisionLedger − GraphRAG+abstain (termRLGRA, the
// difference other tables label "RL − GRA" too) and its split into the
// render term and the fine mechanism residual, under each format.
var (
	termRLGRA       = eval.Term{Label: "RL − GRA", A: memory.SpecOf(memory.FineLedger), B: memory.SpecOf(memory.GraphRAGAbstain)}
	table17Render   = eval.Term{Label: "render", A: memory.SpecOf(memory.RenderOnly), B: memory.SpecOf(memory.GraphRAGAbstain)}
	table17Residual = eval.Term{Label: "fine residual", A: memory.SpecOf(memory.FineLedger), B: memory.SpecOf(memory.RenderOnly)}
	table17Terms    = []eval.Term{termRLGRA, table17Render, table17Residual}
)

// paperFormatNames are the paper's Table 17 column names.
var paperFormatNames = map[string]string{memory.LedgerCompact: "COMP", memory.LedgerVerbose: "VERB", memory.LedgerMinimal: "MIN",
	memory.LedgerJSON: "JSON", datelessVariant: "not in the paper"}

// table17ByFamily is the render-format ablation per format and family:
// RevisionLedger − GraphRAG+abstain on reverted-revert and its split into
// render term and fine mechanism residual under that format. Its
// comparisons (total, render, residual per format and family) feed buildTable17
// and formatPlot.
func table17ByFamily(rows []eval.Outcome, opt eval.StatOptions) (*eval.Table, []eval.Comparison, error) {
	t := &eval.Table{ID: Table17Families, Title: "Table 17 by reader family: render-format ablation on reverted-revert (fine-ledger and render-only share each format)",
		Columns: []string{"format", "family", "n", "Δ RL − GRA", "render", "fine residual", "paper Δ RL − GRA (that family)"}}
	var all []eval.Comparison
	omitted := 0
	for _, v := range renderFormats {
		f := v.Name
		cond := eval.Variants(eval.FormatVariant(f))
		err := eval.ByFamily(eval.Select(rows, cond), nil, func(fam reader.Family, ff eval.Filter) error {
			sub := eval.Select(rows, eval.And(cond, ff))
			var terms [3]eval.Comparison
			for i, term := range table17Terms {
				c, err := eval.Compare(sub, term, nil, opt)
				if err != nil {
					return fmt.Errorf("format %s, %s: %w", f, fam, err)
				}
				c.Scope = eval.Scope{Family: fam, Variant: eval.FormatVariant(f)}
				terms[i] = c
			}
			tot, ren, mech := terms[0], terms[1], terms[2]
			all = append(all, tot, ren, mech)
			if fam != reader.Pooled && eval.AgreeEverywhere(tot, ren, mech) {
				omitted++
				return nil
			}
			t.AddRow(f+" ("+paperFormatNames[f]+")", fam, tot.N, report.Signed(tot.Delta)+" "+tot.CI(),
				report.Signed(ren.Delta)+" "+ren.CI(), report.Signed(mech.Delta)+" "+mech.CI(), paperFamilyFormat(fam, v.LedgerFormat, v.FactFormat))
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("table 17: no format rows")
	}
	t.Notes = []string{fmt.Sprintf("paper (auxiliary split, DeepSeek-V3 judge): Δ RL − GRA on reverted-revert moves with the format, e.g. Qwen3-8B %s (VERB), %s (MIN), %s (JSON), %s (COMP); the paper has no dateless d-blind variant",
		paper.Cell(paper.T17Cell("Qwen3-8B", "verbose"), true), paper.Cell(paper.T17Cell("Qwen3-8B", "minimal"), true), paper.Cell(paper.T17Cell("Qwen3-8B", "json"), true), paper.Cell(paper.T17Cell("Qwen3-8B", "compact"), true)),
		"the d-blind control (graphrag-abstain) shows each atom's date in a seeded order; in the last variant it shows no dates", opt.IntervalNote(), eval.FamilyNote(rows)}
	if omitted > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d family rows omitted: on them the three memories agree on every question (every term +0.000, no discordant pair)", omitted))
	}
	if hasFitFamily(rows) {
		t.Notes = append(t.Notes, "the paper column is that family's Table 17 value under the registry's column reading ("+paper.Table17Reading+"); the calibrated sim:fit-* readers were fitted to these cells, so they are in sample")
	}
	return t, all, nil
}

// buildTable17 pivots the pooled rows of the ablation: one column per format
// variant, one row per term (RL − GRA, render, fine residual), so the move
// of credit from render to mechanism reads across a row. Variants whose
// pooled cells are identical are named in the notes, with why they are kept.
func buildTable17(cs []eval.Comparison, rows []eval.Outcome, opt eval.StatOptions) *eval.Table {
	t := &eval.Table{ID: Table17RenderFormats, Title: "Table 17: render-format ablation on reverted-revert, pooled (fine-ledger and render-only share each format)",
		Columns: []string{"term"}}
	// cell[format][term] is the pooled comparison's cell.
	cell := map[string]map[eval.Term]string{}
	var variants []string
	for _, v := range renderFormats {
		variants = append(variants, v.Name)
		t.Columns = append(t.Columns, v.Name+" ("+paperFormatNames[v.Name]+")")
		cell[v.Name] = map[eval.Term]string{}
	}
	pooledFam := reader.Pooled
	if fams := eval.Distinct(rows, func(o *eval.Outcome) reader.Family { return o.Family }); len(fams) == 1 {
		pooledFam = fams[0]
	}
	for _, c := range cs {
		if c.Family != pooledFam || cell[c.Variant.Format] == nil {
			continue
		}
		for _, term := range table17Terms {
			if c.Of(term) {
				cell[c.Variant.Format][term] = report.Signed(c.Delta) + " " + c.CI()
			}
		}
	}
	for _, term := range table17Terms {
		row := []any{term.Label}
		for _, v := range variants {
			x := cell[v][term]
			if x == "" {
				x = "—"
			}
			row = append(row, x)
		}
		t.AddRow(row...)
	}
	t.Notes = []string{fmt.Sprintf("paper (auxiliary split, DeepSeek-V3 judge): Δ RL − GRA on reverted-revert moves with the format, e.g. Qwen3-8B %s (VERB), %s (MIN), %s (JSON), %s (COMP); the paper has no dateless d-blind variant",
		paper.Cell(paper.T17Cell("Qwen3-8B", "verbose"), true), paper.Cell(paper.T17Cell("Qwen3-8B", "minimal"), true), paper.Cell(paper.T17Cell("Qwen3-8B", "json"), true), paper.Cell(paper.T17Cell("Qwen3-8B", "compact"), true)),
		"the d-blind control (graphrag-abstain) shows each atom's date in a seeded order; in the last variant it shows no dates"}
	// Variants with identical pooled cells, grouped: with these readers the
	// layouts read alike; all are kept because an LLM reader need not.
	var groups [][]string
	done := map[string]bool{}
	for i, a := range variants {
		if done[a] || len(cell[a]) == 0 {
			continue
		}
		g := []string{a}
		for _, b := range variants[i+1:] {
			same := true
			for k, v := range cell[a] {
				if cell[b][k] != v {
					same = false
				}
			}
			if same {
				g = append(g, b)
				done[b] = true
			}
		}
		if len(g) > 1 {
			groups = append(groups, g)
		}
	}
	for _, g := range groups {
		var spread []string
		for _, v := range g {
			if p, ok := paper.Lookup(paper.T17Cell("Qwen3-8B", v)); ok {
				spread = append(spread, v+" "+report.Signed(p))
			}
		}
		note := fmt.Sprintf("%s give identical rows with these readers: they read these layouts alike. All are kept because an LLM reader need not", strings.Join(g, ", "))
		if len(spread) > 1 {
			note += " (the paper's Qwen3-8B: " + strings.Join(spread, ", ") + ")"
		}
		t.Notes = append(t.Notes, note+".")
	}
	t.Notes = append(t.Notes, opt.IntervalNote(), eval.FamilyNote(rows))
	return t
}

// formatPlot draws the pooled render term and fine residual of every
// format variant side by side, so the figure shows where the credit goes
// when the layout changes, not only the total.
func formatPlot(cs []eval.Comparison) *plot.Plot {
	fams := map[reader.Family]bool{}
	for _, c := range cs {
		fams[c.Family] = true
	}
	pooledFam := reader.Pooled
	if len(fams) == 1 {
		for f := range fams {
			pooledFam = f
		}
	}
	var pts []report.IntervalPoint
	for _, c := range cs {
		if c.Family != pooledFam || c.Of(termRLGRA) {
			continue
		}
		pts = append(pts, report.IntervalPoint{Label: c.Variant.Format, Est: c.Delta, Lo: c.Lo, Hi: c.Hi, Series: c.Label})
	}
	return report.IntervalPlot("Render term and fine residual by ledger format (reverted-revert, pooled)", "paired Δ accuracy", pts, true)
}

// paperFamilyFormat is the paper's Table 17 cell for a calibrated family
// (sim:fit-FAMILY) and ledger format under the registry's column reading,
// or "—".
func paperFamilyFormat(family reader.Family, format, facts string) eval.Cell {
	if facts == memory.FactsDateless {
		return eval.TextCell("—")
	}
	for _, fam := range paper.Families {
		if family != (reader.Family{Kind: reader.KindSim, Name: sim.FitName(fam)}) {
			continue
		}
		for i, f := range paper.Table17Readings[paper.Table17Reading] {
			if f == format {
				return eval.SignedCell(paper.Table17Columns[fam][i])
			}
		}
	}
	return eval.TextCell("—")
}

// hasFitFamily reports rows of a calibrated family.
func hasFitFamily(rows []eval.Outcome) bool {
	for i := range rows {
		if rows[i].Family.Calibrated() {
			return true
		}
	}
	return false
}
