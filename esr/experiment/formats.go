package experiment

import (
	"context"
	"fmt"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/report"
)

// FormatVariant is one column of the render-format ablation: the layout
// fine-ledger and render-only share, and the d-blind control's layout.
type FormatVariant struct {
	Name         string // row label and condition suffix
	LedgerFormat string // memory.Options.LedgerFormat
	FactFormat   string // memory.Options.FactFormat of graphrag-abstain
}

// FormatVariants are Table 17's variants: the four ledger formats against
// the dated d-blind control, then the compact ledger against the dateless
// d-blind control (how much of the render term is "dates visible at all").
var FormatVariants = []FormatVariant{
	{"compact", "compact", memory.FactsDated},
	{"verbose", "verbose", memory.FactsDated},
	{"minimal", "minimal", memory.FactsDated},
	{"json", "json", memory.FactsDated},
	{"compact vs dateless d-blind", "compact", memory.FactsDateless},
}

// formatCondition labels rows of one format variant.
func formatCondition(f string) string { return "format=" + f }

// formatRows evaluates the render-matched trio (graphrag-abstain,
// render-only, fine-ledger) on reverted-revert snapshot QAs once per format
// variant; render-only always shares fine-ledger's format.
func formatRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	var rows []eval.Outcome
	for _, v := range FormatVariants {
		opt := s.Options
		opt.LedgerFormat, opt.FactFormat = v.LedgerFormat, v.FactFormat
		r, err := Evaluate(ctx, s.Bench, eval.Config{Memories: []string{"graphrag-abstain", "render-only", "fine-ledger"},
			Readers: s.Readers, Judge: s.Judge, QueryTypes: []esr.QueryType{esr.Snapshot},
			Phenomena: []esr.Phenomenon{esr.RevertedRevert}, Options: opt, Condition: formatCondition(v.Name), Progress: s.Progress})
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// paperFormatNames are the paper's Table 17 column names.
var paperFormatNames = map[string]string{"compact": "COMP", "verbose": "VERB", "minimal": "MIN", "json": "JSON",
	"compact vs dateless d-blind": "not in the paper"}

// Table17 is the render-format ablation: per format and family, RevisionLedger
// − GraphRAG+abstain on reverted-revert and its split into render term and
// fine mechanism residual under that format.
func Table17(rows []eval.Outcome, opt StatOptions) (*report.Table, []Comparison, error) {
	t := &report.Table{Name: "table17-render-formats", Title: "Table 17: render-format ablation on reverted-revert (fine-ledger and render-only share each format)",
		Columns: []string{"format", "family", "n", "Δ RL − GRA", "render", "fine residual"}}
	var all []Comparison
	for _, v := range FormatVariants {
		f := v.Name
		cond := Condition(formatCondition(f))
		err := byFamily(Select(rows, cond), nil, func(fam string, ff Filter) error {
			sub := Select(rows, And(cond, ff))
			tot, err := Compare(sub, "RL − GRA", "fine-ledger", "graphrag-abstain", nil, opt)
			if err != nil {
				return fmt.Errorf("format %s, %s: %w", f, fam, err)
			}
			ren, err := Compare(sub, "render", "render-only", "graphrag-abstain", nil, opt)
			if err != nil {
				return fmt.Errorf("format %s, %s: %w", f, fam, err)
			}
			mech, err := Compare(sub, "fine residual", "fine-ledger", "render-only", nil, opt)
			if err != nil {
				return fmt.Errorf("format %s, %s: %w", f, fam, err)
			}
			tot.Scope, tot.Family = f, fam
			all = append(all, tot)
			t.AddRow(f+" ("+paperFormatNames[f]+")", fam, tot.N, fmtSigned(tot.Delta)+" "+fmtCI(tot.Lo, tot.Hi),
				fmtSigned(ren.Delta)+" "+fmtCI(ren.Lo, ren.Hi), fmtSigned(mech.Delta)+" "+fmtCI(mech.Lo, mech.Hi))
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	if len(t.Rows) == 0 {
		return nil, nil, fmt.Errorf("table 17: no format rows")
	}
	t.Notes = []string{fmt.Sprintf("paper (auxiliary split, DeepSeek-V3 judge): Δ RL − GRA on reverted-revert moves with the format, e.g. Qwen3-8B %s (VERB), %s (MIN), %s (JSON), %s (COMP); the paper has no dateless d-blind variant",
		PaperCell("t17/Qwen3-8B/verbose", true), PaperCell("t17/Qwen3-8B/minimal", true), PaperCell("t17/Qwen3-8B/json", true), PaperCell("t17/Qwen3-8B/compact", true)),
		"the d-blind control (graphrag-abstain) shows each atom's date in a seeded order; in the last variant it shows no dates", opt.IntervalNote(), familyNote(rows)}
	return t, all, nil
}

// FormatPlot draws Δ RL − GRA by format, one colour per family.
func FormatPlot(cs []Comparison) *plot.Plot {
	var pts []report.IntervalPoint
	for _, c := range cs {
		pts = append(pts, report.IntervalPoint{Label: c.Scope, Est: c.Delta, Lo: c.Lo, Hi: c.Hi, Series: c.Family})
	}
	return report.IntervalPlot("RevisionLedger − GraphRAG+abstain by ledger format (reverted-revert)", "paired Δ accuracy", pts, true)
}

func init() {
	addSuite(Suite{Name: "formats", Doc: "Table 17: render-format ablation (compact, verbose, minimal, json ledger renders)",
		Evaluate: formatRows,
		Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
			t, cs, err := Table17(rows, s.Stats)
			if err != nil {
				return nil, err
			}
			return &Result{Name: "formats", Rows: rows, Tables: []*report.Table{t},
				Figures: map[string]*plot.Plot{"table17-render-formats": FormatPlot(cs)}}, nil
		}})
}
