package nbhelp

import (
	"html"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/esrkit/esrkit/internal/eval"
	"github.com/esrkit/esrkit/internal/report"
)

// ReportHTML renders a report.Table: its title, the cells, and its notes
// (which say which reader family produced the numbers).
func ReportHTML(t *report.Table) string {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("<p><b>" + html.EscapeString(t.Title) + "</b></p>")
	}
	b.WriteString(TableHTML(t.Columns, t.Rows))
	if len(t.Notes) > 0 {
		b.WriteString(`<ul style="font-size:smaller">`)
		for _, n := range t.Notes {
			b.WriteString("<li>" + html.EscapeString(n) + "</li>")
		}
		b.WriteString("</ul>")
	}
	return b.String()
}

// ShowReport displays a report.Table in the current cell.
func ShowReport(t *report.Table) { out.HTML(ReportHTML(t)) }

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
		recs[i] = rec{o.QID, o.StreamID, o.Source, o.Phenomenon, o.QueryType, o.Memory, o.Reader, o.Family, o.Condition,
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
