package nbhelp

import (
	"html"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/internal/textdiff"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// floatFormat is the strconv.FormatFloat format and precision [dataFrameHTML] uses
// for float columns (gota's own records print six decimals).
var floatFormat = struct {
	Fmt  byte
	Prec int
}{'g', 6}

// TableHTML renders header and rows as an HTML table. Every cell is HTML-escaped;
// cells that parse as numbers are right-aligned; a cell ending in ✓ (right) or
// ✗ (wrong) is shaded green or red, with the mark kept for greyscale and
// screen readers. Rows may be ragged. header may be nil for a table without a
// header row.
func TableHTML(header []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString(`<table class="nbhelp">`)
	if len(header) > 0 {
		b.WriteString("<thead><tr>")
		for _, h := range header {
			b.WriteString("<th>")
			b.WriteString(html.EscapeString(h))
			b.WriteString("</th>")
		}
		b.WriteString("</tr></thead>")
	}
	b.WriteString("<tbody>")
	for _, row := range rows {
		b.WriteString("<tr>")
		for _, c := range row {
			switch {
			case isNumber(c):
				b.WriteString(`<td style="text-align:right">`)
			case strings.HasSuffix(c, "✓"):
				b.WriteString(`<td style="background:#d9f0d3">`)
			case strings.HasSuffix(c, "✗"):
				b.WriteString(`<td style="background:#f4cccc">`)
			default:
				b.WriteString("<td>")
			}
			b.WriteString(html.EscapeString(c))
			b.WriteString("</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}

// dataFrameRecords returns df's column names and its rows as strings, formatting
// float columns with [floatFormat] (NaN for missing values).
func dataFrameRecords(df dataframe.DataFrame) (header []string, rows [][]string) {
	header = df.Names()
	rows = make([][]string, df.Nrow())
	for i := range rows {
		rows[i] = make([]string, len(header))
	}
	for j, name := range header {
		col := df.Col(name)
		if col.Type() == series.Float {
			for i, v := range col.Float() {
				rows[i][j] = strconv.FormatFloat(v, floatFormat.Fmt, floatFormat.Prec, 64)
			}
			continue
		}
		for i, v := range col.Records() {
			rows[i][j] = v
		}
	}
	return header, rows
}

// dataFrameHTML renders df as an HTML table (see [TableHTML], [dataFrameRecords]).
// A DataFrame carrying an error renders as that error.
func dataFrameHTML(df dataframe.DataFrame) string {
	if df.Err != nil {
		return `<pre class="nbhelp-error">` + html.EscapeString(df.Err.Error()) + "</pre>"
	}
	return TableHTML(dataFrameRecords(df))
}

// ShowTable displays header and rows as an HTML table.
func ShowTable(header []string, rows [][]string) { out.HTML(TableHTML(header, rows)) }

// showDataFrame displays df as an HTML table.
func showDataFrame(df dataframe.DataFrame) { out.HTML(dataFrameHTML(df)) }

// sideBySideHTML lays texts out as preformatted columns under their titles,
// for comparing renders of one question.
func sideBySideHTML(titles, texts []string) string { return textdiff.ColumnsHTML(titles, texts, false) }

// ShowSideBySide displays sideBySideHTML in the current cell.
func ShowSideBySide(titles, texts []string) { out.HTML(sideBySideHTML(titles, texts)) }
