package runlog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/report"
)

// The tables Comparison.Tables returns: the file stems esr compare writes
// (those of eval.RunComparison.Tables).
const onlyTable eval.TableID = "only"

// Tables lays c out as tables: differences (with c's notes), flips, and
// the scores only one log holds (Options.Partial). Row i of the
// differences table is c.Diffs[i] and row i of the flips table c.Flips[i].
// Cells hold the logs' text as it is; each writer escapes it (text,
// Markdown, CSV, HTML).
func (c *Comparison) Tables() []*eval.Table {
	diffs := &eval.Table{ID: eval.RunDifferences, Title: fmt.Sprintf("B − A: %s (B) against %s (A)", c.B.Path, c.A.Path),
		Columns: []string{"scorer", "model A", "model B", "scope", "kind", "n", "mean A", "mean B", "B − A", "95% CI", "p", "B higher", "A higher"}}
	for _, d := range c.Diffs {
		kind := "binary"
		if d.Graded {
			kind = "graded"
		}
		diffs.AddRow(d.Scorer, d.ModelA, d.ModelB, scopeText(d.Task), kind, d.N, eval.NumberCell("%.3f", d.AccB), eval.NumberCell("%.3f", d.AccA),
			eval.SignedCell(d.Delta), ciText(d.Comparison), eval.PValueCell(d.P), d.N10, d.N01)
	}
	diffs.Notes = append([]string{c.Interval}, c.Notes...)
	flips := &eval.Table{ID: eval.RunFlips, Title: "Flips: samples whose score differs between the logs",
		Columns: []string{"scorer", "sample", "epoch", "group", "input", "target", "answer A", "answer B", "score A", "score B", "explanation A", "explanation B", "direction"}}
	for _, f := range c.Flips {
		epoch := ""
		if f.Epoch > 0 {
			epoch = strconv.Itoa(f.Epoch)
		}
		group := f.Group
		if group == f.Sample {
			group = ""
		}
		flips.AddRow(f.Scorer, f.Sample, epoch, group, clip(f.Input), clip(f.Target), clip(f.AnswerA), clip(f.AnswerB),
			scoreText(f.ScoreA), scoreText(f.ScoreB), clip(f.ExplainA), clip(f.ExplainB), string(f.Direction))
	}
	out := []*eval.Table{diffs, flips}
	if len(c.OnlyA)+len(c.OnlyB) > 0 {
		only := &eval.Table{ID: onlyTable, Title: "Scores only one log holds (left out)", Columns: []string{"log", "scorer", "model", "sample", "epoch"}}
		for _, s := range []struct {
			tag string
			us  []Unpaired
		}{{"A", c.OnlyA}, {"B", c.OnlyB}} {
			for _, u := range s.us {
				only.AddRow(s.tag, u.Scorer, u.Model, u.Sample, u.Epoch)
			}
		}
		out = append(out, only)
	}
	return out
}

// ciText is the interval, or why there is none, in a log's words (its
// samples are what esrkit's rows call questions).
func ciText(c eval.Comparison) string {
	return strings.Replace(c.CI(), "questions", "samples", 1)
}

func scopeText(task string) string {
	if task == "" {
		return "all"
	}
	return "task " + task
}

// scoreText is a score as a cell: an integer as it is, else three
// decimals.
func scoreText(x float64) string {
	if x == float64(int64(x)) {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// maxCell bounds a flip's text cells in the tables (the JSON keeps them
// whole): a prompt of a few thousand characters would bury the table.
const maxCell = 240

// clip keeps a long text's start and its end (a prompt's question is at
// its end, after the few-shot examples every sample shares), at most
// maxCell bytes, joined by " … ".
func clip(s string) string {
	if len(s) <= maxCell {
		return s
	}
	head, tail := maxCell/3, len(s)-(maxCell-maxCell/3)
	for head > 0 && !isRuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !isRuneStart(s[tail]) {
		tail++
	}
	return s[:head] + " … " + s[tail:]
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Verdict is one sentence per scorer on whether B is worse than A beyond
// margin (what --fail-on-regression decides), generated from the
// differences: "regression", "no regression" with the interval, or "no
// verdict" when there are too few samples.
func (c *Comparison) Verdict(margin float64) []string {
	var out []string
	for _, d := range c.Diffs {
		if d.Task != "" {
			continue
		}
		what := fmt.Sprintf("%s (%s → %s): B − A = %s %s over %d pairs", d.Scorer, d.ModelA, d.ModelB, report.Signed(d.Delta), ciText(d.Comparison), d.N)
		switch {
		case d.TooFew:
			out = append(out, what+": no verdict")
		case d.Below(margin) && margin == 0:
			out = append(out, what+": REGRESSION (its interval lies below 0)")
		case d.Below(margin):
			out = append(out, what+": REGRESSION (its interval lies below -"+strconv.FormatFloat(margin, 'g', -1, 64)+")")
		default:
			out = append(out, what+": no regression beyond "+strconv.FormatFloat(margin, 'g', -1, 64))
		}
	}
	return out
}

// Markdown is a summary a CI step can post as a comment: a heading, the
// verdicts (Verdict at margin), the differences, and the flips (the first
// maxMarkdownFlips; the rest are counted). Text from the logs is literal
// (eval.Table.LiteralMarkdown: no markup, no raw HTML, no new line or cell).
func (c *Comparison) Markdown(margin float64) string {
	t := c.Tables()
	var b strings.Builder
	b.WriteString("### esr compare: " + report.MarkdownText(c.B.Path) + " (B) against " + report.MarkdownText(c.A.Path) + " (A)\n\n")
	for _, v := range c.Verdict(margin) {
		b.WriteString("- " + report.MarkdownText(v) + "\n")
	}
	b.WriteString("\n" + t[0].LiteralMarkdown())
	flips := *t[1]
	if n := len(flips.Rows); n > maxMarkdownFlips {
		flips.Rows = flips.Rows[:maxMarkdownFlips]
		flips.Notes = append(flips.Notes, fmt.Sprintf("%d more flips are not shown here (esr compare --out DIR writes them all)", n-maxMarkdownFlips))
	}
	b.WriteString("\n" + flips.LiteralMarkdown())
	for _, extra := range t[2:] {
		b.WriteString("\n" + extra.LiteralMarkdown())
	}
	return b.String()
}

// maxMarkdownFlips bounds the flips a Markdown summary lists: a comment a
// CI posts has a size limit (GitHub's: 65,536 characters).
const maxMarkdownFlips = 50
