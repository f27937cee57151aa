package eval

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/internal/report"
)

// The tables RunComparison.Tables returns, in its order (controls only
// when the comparison holds splits): the file stems esr compare writes.
const (
	RunDifferences TableID = "differences"
	RunFlips       TableID = "flips"
	runOnly        TableID = "only"
	RunControls    TableID = "controls"
)

// RunTableIDs are the ids of RunComparison.Tables's tables, in its order.
var RunTableIDs = []TableID{RunDifferences, RunFlips, runOnly, RunControls}

// flipColumns are the columns of the flips table, one per Flip field
// a reader of the table needs (the renders are in the page and the JSON).
var flipColumns = []string{"memory A", "memory B", "qid", "question", "stratum", "query type", "reader", "condition", "gold", "answer A", "answer B",
	"label A", "label B", "decision A", "decision B", "direction", "render lines changed"}

// Tables lays rc out as tables: differences (with rc's notes), flips,
// rows only in one run, and the render/mechanism splits when rc has any.
// It is the one builder of these tables: esr compare prints them, the
// comparison page and nbhelp.Compare show them. Row i of the differences
// table is rc.Diffs[i] and row i of the flips table rc.Flips[i].
func (rc *RunComparison) Tables() []*Table {
	diffs := &Table{ID: RunDifferences, Title: fmt.Sprintf("B − A: %s (B) against %s (A)", rc.B.Name, rc.A.Name),
		Columns: []string{"memory A", "memory B", "family", "scope", "n", "acc A", "acc B", "B − A", "95% CI", "p", "gained", "lost"}}
	for _, d := range rc.Diffs {
		// d is B − A: its term's A is run B's memory (RunComparison.Diffs).
		diffs.AddRow(d.B.String(), d.A.String(), d.Family.String(), d.Scope.String(), d.N, PropCell(d.AccB), PropCell(d.AccA),
			SignedCell(d.Delta), d.CI(), PValueCell(d.P), d.N10, d.N01)
	}
	diffs.Notes = append([]string{rc.Interval}, rc.Notes...)
	flips := &Table{ID: RunFlips, Title: "Flips: pairs right in one run only",
		Columns: flipColumns}
	for _, f := range rc.Flips {
		flips.AddRow(f.Pair.A.String(), f.Pair.B.String(), f.QID, f.Question, string(f.Stratum), string(f.QueryType), f.Reader.String(), f.Variant.String(),
			f.Gold, f.AnswerA, f.AnswerB, string(f.LabelA), string(f.LabelB), f.DecisionA, f.DecisionB, string(f.Direction),
			strings.Join(f.RenderChanged, "\n"))
	}
	only := &Table{ID: runOnly, Title: "Rows only one run holds (left out)",
		Columns: []string{"run", "qid", "reader", "memory", "condition"}}
	for _, s := range []struct {
		run  string
		keys []RowKey
	}{{"A", rc.OnlyA}, {"B", rc.OnlyB}} {
		for _, k := range s.keys {
			only.AddRow(s.run, k.QID, k.Reader.String(), k.Memory.String(), k.Variant.String())
		}
	}
	out := []*Table{diffs, flips, only}
	if len(rc.Controls) > 0 {
		ctl := &Table{ID: RunControls, Title: "Render or mechanism: B − A split with each memory's render-matched control",
			Columns: []string{"memory A", "memory B", "control A", "control B", "family", "n", "total", "total CI", "render", "render CI", "mechanism", "mechanism CI"},
			Notes:   []string{"render = control B − control A; mechanism = (B − control B) − (A − control A); render + mechanism = total, pair by pair"}}
		for _, s := range rc.Controls {
			ctl.AddRow(s.Pair.A.String(), s.Pair.B.String(), s.ControlA.String(), s.ControlB.String(), s.Family.String(), s.N,
				SignedCell(s.Total.Delta), report.Interval(s.Total.Lo, s.Total.Hi),
				SignedCell(s.Render.Delta), report.Interval(s.Render.Lo, s.Render.Hi),
				SignedCell(s.Mechanism.Delta), report.Interval(s.Mechanism.Lo, s.Mechanism.Hi))
		}
		out = append(out, ctl)
	}
	return out
}

// LiteralMarkdown renders t as Markdown with every title, cell and note
// shown as its characters (report.MarkdownText: no markup, no raw HTML, no
// new line or cell), for tables whose cells hold data text (a reader's
// answer and reasoning). Markdown, by contrast, keeps a cell's inline
// markup.
func (t *Table) LiteralMarkdown() string {
	var sb strings.Builder
	sb.WriteString("**" + report.MarkdownText(t.Title) + "**\n\n|")
	for _, c := range t.Columns {
		sb.WriteString(" " + report.MarkdownText(c) + " |")
	}
	sb.WriteString("\n|" + strings.Repeat("---|", len(t.Columns)) + "\n")
	for _, r := range t.Rows {
		sb.WriteString("|")
		for _, c := range r {
			sb.WriteString(" " + report.MarkdownText(c.Text) + " |")
		}
		sb.WriteString("\n")
	}
	for _, n := range t.Notes {
		sb.WriteString("\n- " + report.MarkdownText(n))
	}
	if len(t.Notes) > 0 {
		sb.WriteString("\n")
	}
	return sb.String()
}
