package eval

import (
	"strings"
	"unicode/utf8"

	"github.com/esrkit/esrkit/internal/termsafe"
)

// Text renders the table as plain text for a terminal: the title, the
// columns padded to their widest cell (in runes) with two spaces between
// them, a rule under the header, and the notes as "- " lines. Every piece
// of text is escaped for the terminal first (termsafe.Escape: cells hold
// text from data, which may hold an escape sequence or a line break).
func (t *Table) Text() string {
	t = t.escaped()
	width := make([]int, len(t.Columns))
	measure := func(cells []string) {
		for i, c := range cells {
			if i < len(width) {
				width[i] = max(width[i], utf8.RuneCountInString(c))
			}
		}
	}
	measure(t.Columns)
	for _, r := range t.Rows {
		measure(texts(r))
	}
	var b strings.Builder
	if t.Title != "" {
		b.WriteString(t.Title + "\n\n")
	}
	line := func(cells []string) {
		var l strings.Builder
		for i, c := range cells {
			if i > 0 {
				l.WriteString("  ")
			}
			l.WriteString(c)
			if i < len(width) {
				l.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)))
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	line(t.Columns)
	rule := make([]string, len(width))
	for i, w := range width {
		rule[i] = strings.Repeat("-", w)
	}
	line(rule)
	for _, r := range t.Rows {
		line(texts(r))
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
	}
	for _, n := range t.Notes {
		b.WriteString("- " + n + "\n")
	}
	return b.String()
}

// escaped is a copy of t with every title, column, cell and note escaped
// for a terminal (termsafe.Escape).
func (t *Table) escaped() *Table {
	e := &Table{ID: t.ID, Title: termsafe.Escape(t.Title)}
	for _, c := range t.Columns {
		e.Columns = append(e.Columns, termsafe.Escape(c))
	}
	for _, r := range t.Rows {
		row := make([]Cell, len(r))
		for i, c := range r {
			row[i] = Cell{c.Kind, termsafe.Escape(c.Text)}
		}
		e.Rows = append(e.Rows, row)
	}
	for _, n := range t.Notes {
		e.Notes = append(e.Notes, termsafe.Escape(n))
	}
	return e
}
