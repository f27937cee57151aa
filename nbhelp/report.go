package nbhelp

import (
	"html"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/esrkit/esrkit/esr/eval"
)

// reportHTML renders a eval.Table: its title, the cells, and its notes
// (which say which reader family produced the numbers).
func reportHTML(t *eval.Table) string { return reportHTMLNotes(t, t.Notes, 0) }

// reportHTMLNotes renders t with the given notes, and says how many of its
// notes were shown under an earlier table.
func reportHTMLNotes(t *eval.Table, notes []string, repeated int) string {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("<p><b>" + html.EscapeString(t.Title) + "</b></p>")
	}
	b.WriteString(TableHTML(t.Columns, t.Rows))
	if len(notes) > 0 || repeated > 0 {
		// The notes (how the numbers were made) are folded under one line
		// that says whether the readers are simulated: a page shows its
		// tables, and the detail stays one click away.
		what := "how these numbers were made"
		for _, n := range notes {
			if strings.Contains(n, "SIMULATED") {
				what += "; the readers are SIMULATED"
				break
			}
		}
		b.WriteString(`<details style="font-size:smaller"><summary>Notes (` + itoa(len(notes)+min(repeated, 1)) + `): ` + what + `</summary>`)
		b.WriteString(`<ul style="font-size:smaller">`)
		for _, n := range notes {
			b.WriteString("<li>" + html.EscapeString(n) + "</li>")
		}
		if repeated > 0 {
			what := "notes"
			if repeated == 1 {
				what = "note"
			}
			b.WriteString("<li>and " + itoa(repeated) + " " + what + " as under an earlier table</li>")
		}
		b.WriteString("</ul></details>")
	}
	return b.String()
}

// shownOnce renders t with each of its notes printed only under the first
// table of the notebook that carries it.
func shownOnce(t *eval.Table) string {
	fresh, repeated := newNotes(t.Notes)
	return reportHTMLNotes(t, fresh, repeated)
}

// ShowReport displays a eval.Table in the current cell; a note printed
// under an earlier table of the notebook is counted, not repeated.
func ShowReport(t *eval.Table) { out.HTML(shownOnce(t)) }

// foldedHTML is a eval.Table folded under a one-line summary that opens
// it: per-family detail a reader looks at after the pooled table.
func foldedHTML(t *eval.Table, summary string) string {
	if summary == "" {
		summary = t.Title
	}
	return "<details><summary>" + html.EscapeString(summary) + " (" + itoa(len(t.Rows)) + " rows; click to open)</summary>" +
		shownOnce(t) + "</details>"
}

// ShowFolded displays a table folded (foldedHTML).
func ShowFolded(t *eval.Table, summary string) { out.HTML(foldedHTML(t, summary)) }

// ShowFoldedList displays generated sentences as a list folded under a
// one-line summary: the per-class detail a page keeps for a second read.
// Each sentence is escaped (markdownToHTML keeps its code and bold).
func ShowFoldedList(sentences []string, summary string) {
	var b strings.Builder
	b.WriteString("<details><summary>" + html.EscapeString(summary) + " (" + itoa(len(sentences)) + " sentences; click to open)</summary><ul>")
	for _, s := range sentences {
		b.WriteString("<li>" + strings.TrimPrefix(strings.TrimSuffix(markdownToHTML(s), "</p>"), "<p>") + "</li>")
	}
	b.WriteString("</ul></details>")
	out.HTML(b.String())
}

// markdownToHTML escapes text and keeps its inline code and emphasis
// readable: `code` and **bold** become <code> and <b>.
func markdownToHTML(s string) string {
	s = html.EscapeString(s)
	for _, m := range []struct{ mark, open, close string }{{"`", "<code>", "</code>"}, {"**", "<b>", "</b>"}} {
		parts := strings.Split(s, m.mark)
		if len(parts)%2 == 0 {
			continue // unbalanced: leave as it is
		}
		var b strings.Builder
		for i, p := range parts {
			if i > 0 {
				if i%2 == 1 {
					b.WriteString(m.open)
				} else {
					b.WriteString(m.close)
				}
			}
			b.WriteString(p)
		}
		s = b.String()
	}
	return "<p>" + s + "</p>"
}

func itoa(n int) string { return strconv.Itoa(n) }

// OutcomesFrame puts outcome rows into a gota DataFrame for exploration
// (filter by stratum, source, family; group and count). correct, abstained
// and gold_abstain become 0/1 ints so they can be averaged; Reason is the
// reader's explanation of its answer.
func OutcomesFrame(rows []eval.Outcome) dataframe.DataFrame {
	type rec struct {
		QID, Stream, Source, Phenomenon, QueryType, Memory, Reader, Family, Condition, Answer, Gold string
		Correct, Abstained, GoldAbstain, ContextTokens                                              int
		Reason                                                                                      string
	}
	recs := make([]rec, len(rows))
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	for i, o := range rows {
		recs[i] = rec{o.QID, o.StreamID, o.Source, string(o.Phenomenon), string(o.QueryType), o.Memory.String(), o.Reader.String(), o.Family.String(), o.Variant.String(),
			o.Answer, o.Gold, b2i(o.Correct), b2i(o.Abstained), b2i(o.GoldAbstain), o.ContextTokens, o.Reason}
	}
	return dataframe.LoadStructs(recs)
}

// Where keeps the rows of df whose column col equals value (a string
// column), so notebooks can filter outcome frames without importing gota
// themselves (GoNB cannot `go get` gota: the module proxy refuses its
// version list).
func Where(df dataframe.DataFrame, col, value string) dataframe.DataFrame {
	return df.Filter(dataframe.F{Colname: col, Comparator: series.Eq, Comparando: value})
}
