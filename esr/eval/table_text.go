package eval

import (
	"strings"
	"unicode/utf8"
)

// Text renders the table as plain text for a terminal: the title, the
// columns padded to their widest cell (in runes) with two spaces between
// them, a rule under the header, and the notes as "- " lines.
func (t *Table) Text() string {
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
		measure(r)
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
		line(r)
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
	}
	for _, n := range t.Notes {
		b.WriteString("- " + n + "\n")
	}
	return b.String()
}
