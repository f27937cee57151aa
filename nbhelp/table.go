package nbhelp

import (
	"html"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/textdiff"
)

// TableHTML renders header and typed rows as an HTML table, styling each
// cell by its kind (eval.Cell.Kind), never by reading its text: every cell
// is HTML-escaped; a number is right-aligned; a verdict is shaded green
// (right, ✓) or red (wrong, ✗), with the mark kept for greyscale and screen
// readers. Rows may be ragged. header may be nil for a table without a
// header row.
func TableHTML(header []string, rows [][]eval.Cell) string {
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
			case c.Kind.Numeric():
				b.WriteString(`<td style="text-align:right">`)
			case c.Kind == eval.KindRight:
				b.WriteString(`<td style="background:#d9f0d3">`)
			case c.Kind == eval.KindWrong:
				b.WriteString(`<td style="background:#f4cccc">`)
			default:
				b.WriteString("<td>")
			}
			b.WriteString(html.EscapeString(c.Text))
			b.WriteString("</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// sideBySideHTML lays texts out as preformatted columns under their titles,
// for comparing renders of one question.
func sideBySideHTML(titles, texts []string) string { return textdiff.ColumnsHTML(titles, texts, false) }

// ShowSideBySide displays sideBySideHTML in the current cell.
func ShowSideBySide(titles, texts []string) { out.HTML(sideBySideHTML(titles, texts)) }
