package nbhelp

import (
	"fmt"
	"html"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/textdiff"
)

// The live explorer's blocks carry fixed ids, so that a notebook reader's
// browser (and the browser test) can find them; the drill-down block is
// wrapped in ExploreDrillID only there, since a notebook may also show
// DrillHTML on its own.
const (
	ExploreViewID     = "esr-explorer-view"
	ExploreDrillID    = "esr-explorer-drill"
	exploreControlsID = "esr-explorer-controls"
)

// exploreViewHTML is the explorer's view block: the settings, the
// decomposition table, the interval plot and the generated sentence. The
// block's data-key attribute names the settings it shows.
func exploreViewHTML(v *lab.View) (string, error) {
	svg, err := plotSVG(v.Plot(), width, height)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<div id="%s" data-key="%s">`, ExploreViewID, html.EscapeString(ExploreKey(v.Settings)))
	b.WriteString(reportHTML(v.Table()))
	b.WriteString(inlineSVG(svg))
	b.WriteString(`<p class="esr-explorer-sentence">` + html.EscapeString(v.Sentence()) + `</p></div>`)
	return b.String(), nil
}

// exploreErrorHTML is the view block when the settings cannot be shown (a
// stratum without questions of the query type, say).
func exploreErrorHTML(s lab.Settings, err error) string {
	return fmt.Sprintf(`<div id="%s" data-key="%s"><p style="color:#a00"><b>No view for these settings:</b> %s</p></div>`,
		ExploreViewID, html.EscapeString(ExploreKey(s)), html.EscapeString(err.Error()))
}

// exploreKey names settings compactly: what data-key holds.
func ExploreKey(s lab.Settings) string {
	return fmt.Sprintf("%s|%s|%s|%s|sim:%s(%s)|noise=%g|seed=%d", s.Stratum, s.QueryType, s.Terms, s.Format,
		s.Reader.Name, s.Reader.Skills(), s.NoiseP, s.Seed)
}

// exploreSettingsHTML lists the settings as a two-column table.
func exploreSettingsHTML(s lab.Settings) string {
	t := &eval.Table{Columns: []string{"control", "value"}}
	t.AddRow("stratum", s.Stratum)
	t.AddRow("query type", string(s.QueryType))
	t.AddRow("compared", s.Terms)
	t.AddRow("ledger format", s.Format)
	t.AddRow("simulated reader", "sim:"+s.Reader.Name)
	for _, c := range sim.Capabilities {
		x, _ := s.Reader.Get(c.Name)
		t.AddRow("  "+c.Name, eval.NumberCell("%g", x))
	}
	t.AddRow("relation noise p", eval.NumberCell("%g", s.NoiseP))
	t.AddRow("seed", s.Seed)
	return TableHTML(t.Columns, t.Rows)
}

// DrillHTML is the explorer's drill-down block for one question (index i of
// n in the current scope): the question and its gold answer, the renders of
// the memories side by side with what each changes relative to the one on
// its left highlighted, each reader's answer with the judge's label (folded), and the
// question's arithmetic.
func DrillHTML(w *lab.WorkedQuestion, i, n int) string {
	var b strings.Builder
	q := w.QA
	fmt.Fprintf(&b, `<div class="esr-drill" data-qid="%s">`, html.EscapeString(q.QID))
	fmt.Fprintf(&b, `<p><b>Question %d of %d</b> (%s, stream %s, %s %s): “%s” gold: <b>%s</b></p>`, i+1, n,
		html.EscapeString(q.QID), html.EscapeString(q.StreamID), html.EscapeString(string(q.Phenomenon)),
		html.EscapeString(string(q.Type())), html.EscapeString(q.Question), html.EscapeString(q.GoldAnswer))
	b.WriteString(rendersHTML(w))
	b.WriteString(foldedHTML(w.AnswersTable(), "Every reader's answer on each render, with its reason"))
	b.WriteString(`<p class="esr-explorer-arithmetic">` + html.EscapeString(w.Arithmetic()) + `</p></div>`)
	return b.String()
}

// renderDiffHTML is diffColumnsHTML under a line that says what the marks
// mean.
func renderDiffHTML(titles, texts []string) string {
	return `<p style="font-size:smaller">Highlighted: what each render changes relative to the render on its left (a line added or moved, a word rewritten).</p>` +
		diffColumnsHTML(titles, texts)
}

// ShowRenders displays a worked question's renders side by side, each
// marked against the one on its left (renderDiffHTML), and says under them which features the reader
// model responds to (sim.RenderFeatures: row order, where dates stand,
// grouping, rows, status, length) change from each render to the next:
// what moved where the layout changes too much to mark line by line.
func ShowRenders(w *lab.WorkedQuestion) { out.HTML(rendersHTML(w)) }

func rendersHTML(w *lab.WorkedQuestion) string {
	var b strings.Builder
	b.WriteString(renderDiffHTML(memory.Strings(w.Memories), w.Renders))
	var items []string
	for i := 1; i < len(w.Renders); i++ {
		in := func(j int) reader.Input {
			return reader.Input{QID: w.QA.QID, Question: w.QA.Question, QueryType: w.QA.Type(), Context: w.Renders[j]}
		}
		cs := sim.Features(in(i - 1)).Changes(sim.Features(in(i)))
		var parts []string
		for _, c := range cs {
			parts = append(parts, html.EscapeString(c.Feature)+" "+html.EscapeString(c.From)+" → "+html.EscapeString(c.To))
		}
		what := "no feature the reader model reads changes"
		if len(parts) > 0 {
			what = strings.Join(parts, "; ")
		}
		items = append(items, "<li><b>"+html.EscapeString(w.Memories[i-1].String())+" → "+html.EscapeString(w.Memories[i].String())+"</b>: "+what+"</li>")
	}
	if len(items) > 0 {
		b.WriteString(`<p style="font-size:smaller">What the readers' features see change, render to render (the question's key; sim.Features):</p><ul style="font-size:smaller">` +
			strings.Join(items, "") + "</ul>")
	}
	return b.String()
}

// diffColumnsHTML is sideBySideHTML with each column after the first marked
// against the column on its left (textdiff.ColumnsHTML).
func diffColumnsHTML(titles, texts []string) string { return textdiff.ColumnsHTML(titles, texts, true) }
