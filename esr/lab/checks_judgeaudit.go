package lab

import (
	"context"
	"fmt"
	"strings"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/internal/report"
)

// JudgeAuditReport is a judge audit on one bench: the planted panels and
// each judge's result.
type JudgeAuditReport struct {
	Bench   string              `json:"bench"`
	Results []judge.AuditResult `json:"results"`
	Panels  []judge.Panel       `json:"-"`
}

// JudgeAudit audits every judge on the planted answers of b
// (PlantAnswers): the acceptance rate per planted kind with Wilson
// intervals and a verdict (judge.AuditVerdict), in the order of judges.
// opt.Progress, when set, counts the answers of every judge together.
func JudgeAudit(ctx context.Context, b *bench.Bench, judges []judge.Judge, opt judge.AuditOptions) (*JudgeAuditReport, error) {
	panels := judge.PlantAnswers(b)
	if len(panels) == 0 {
		return nil, fmt.Errorf("judge audit: %s has no snapshot QA with a value gold to plant answers for", b.Name())
	}
	rep := &JudgeAuditReport{Bench: b.Name(), Panels: panels}
	report := opt.Progress
	for i, j := range judges {
		if report != nil {
			// One count over every judge's answers.
			opt.Progress = func(done, total int) { report(i*total+done, len(judges)*total) }
		}
		r, err := judge.Audit(ctx, j, panels, opt)
		if err != nil {
			return nil, err
		}
		rep.Results = append(rep.Results, r)
	}
	return rep, nil
}

// Table lays the audit out: one row per planted kind (what a faithful
// judge does with it, how many were planted, each judge's acceptance rate
// with its interval), then each judge's verdict; its findings are notes.
func (a *JudgeAuditReport) Table() *eval.Table {
	rs, panels := a.Results, a.Panels
	t := &eval.Table{ID: "judge-audit", Title: "Judge audit: acceptance of planted answers on " + a.Bench,
		Columns: []string{"planted kind", "faithful judge", "n"}}
	for _, r := range rs {
		t.Columns = append(t.Columns, r.Judge)
	}
	level := 0.95
	for ki, k := range judge.Kinds {
		row := []any{string(k), judge.Expect(k), 0}
		for _, r := range rs {
			kr := r.Rates[ki]
			row[2] = kr.N
			level = r.Level
			if kr.N == 0 {
				row = append(row, "–")
				continue
			}
			row = append(row, report.Prop(kr.Rate)+" "+report.PropInterval(kr.Lo, kr.Hi))
		}
		t.AddRow(row...)
	}
	verdict := []any{"verdict", "", ""}
	for _, r := range rs {
		verdict = append(verdict, r.Verdict)
	}
	t.AddRow(verdict...)
	t.Notes = []string{
		fmt.Sprintf("cells: share of planted answers the judge accepts, with a %.0f%% Wilson interval; planted answers are built for every snapshot QA with a value gold (gold B, the key's prior distinct value A), by rules of their own (judge.PlantAnswers), never the judge's normaliser", 100*level),
		fmt.Sprintf("verdict (judge.AuditVerdict, τ = %.2f): \"accepts wrong answers\" if it accepts more than τ of outdated, abstain, unrelated, incorrect or negated answers; else \"lenient on stale answers\" if more than τ of was-now or now-previously; else \"strict\"", judge.AuditTolerance),
		"an LLM judge's rates are those of the endpoint it was run against: against the kit's local stub (internal/llmstub, internal/llmtest) they measure the stub's fixed rule and the template's reply parsing, not a model",
	}
	for _, r := range rs {
		if len(r.Findings) > 0 {
			t.Notes = append(t.Notes, r.Judge+": "+strings.Join(r.Findings, "; "))
		}
	}
	if ex := examplePanel(panels); ex != "" {
		t.Notes = append(t.Notes, ex)
	}
	return t
}

// examplePanel shows the first panel with every kind planted.
func examplePanel(panels []judge.Panel) string {
	for _, p := range panels {
		if len(p.Answers) != len(judge.Kinds) {
			continue
		}
		var parts []string
		for _, a := range p.Answers {
			parts = append(parts, fmt.Sprintf("%s: %q", a.Kind, a.Answer.Value))
		}
		return "example panel (" + p.QID + ", “" + p.QA.Question + "”): " + strings.Join(parts, "; ")
	}
	return ""
}

// Summary is one sentence per judge, generated from its audit: its
// verdict and the rates behind it.
func (a *JudgeAuditReport) Summary() string {
	var b strings.Builder
	for _, r := range a.Results {
		get := func(k judge.Kind) string {
			kr, ok := r.Rate(k)
			if !ok || kr.N == 0 {
				return "–"
			}
			return fmt.Sprintf("%.1f%%", 100*kr.Rate)
		}
		fmt.Fprintf(&b, "- **%s** is %s: it accepts %s of gold answers, %s of paraphrases, %s of \"was A, now B\", %s of hedges, %s of outdated values, %s of unrelated values and %s of \"INCORRECT\"",
			r.Judge, r.Verdict, get(judge.KindGold), get(judge.KindParaphrase), get(judge.KindWasNow), get(judge.KindHedge),
			get(judge.KindOutdated), get(judge.KindUnrelated), get(judge.KindIncorrect))
		if len(r.Findings) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(r.Findings, "; "))
		}
		b.WriteString(".\n")
	}
	return b.String()
}

// Plot draws each judge's acceptance rate per planted kind with its Wilson
// interval, one series per judge: where a judge accepts what it should
// reject (outdated, unrelated, INCORRECT) reads off the chart.
func (r *JudgeAuditReport) Plot() *plot.Plot {
	var pts []report.IntervalPoint
	for _, res := range r.Results {
		for _, k := range res.Rates {
			pts = append(pts, report.IntervalPoint{Label: string(k.Kind), Est: k.Rate, Lo: k.Lo, Hi: k.Hi, Series: res.Judge})
		}
	}
	p := report.IntervalPlot("Judge audit: acceptance of planted answers, "+r.Bench, "share accepted", pts, false)
	p.X.Tick.Label.Rotation = 0.6
	p.X.Tick.Label.XAlign = -1
	return p
}
