package report

import (
	"strings"

	"github.com/esrkit/esrkit/internal/termsafe"
)

// Text from data (a question, an answer, a value of a benchmark or a
// reader's reply) enters Markdown through MarkdownText, or, in a table
// cell, MarkdownSafe: rendered (in Jupyter, by nbconvert into the report's
// HTML), it shows as the characters it holds and never as markup. HTML
// output escapes with html.EscapeString.

// MarkdownText makes s literal inline Markdown: "&", "<" and ">" become
// entities (no raw HTML, no autolink), the characters that open inline
// markup (\ ` * _ [ ] $ ~ |) are backslash-escaped (no emphasis, code,
// link, image, math or table cell), line breaks become spaces (no new
// block: a heading, a list, a fence), and what else a terminal would act on
// (an escape, a bell, a bidirectional override: Markdown is printed too)
// shows as its escape (termsafe.Escape, whose backslash is then escaped).
// Text with none of these characters comes back unchanged.
func MarkdownText(s string) string {
	if !strings.ContainsAny(s, "&<>\\`*_[]$~|\r\n") && termsafe.Escape(s) == s {
		return s
	}
	s = termsafe.Escape(strings.NewReplacer("\r", " ", "\n", " ").Replace(s))
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '_', '[', ']', '$', '~', '|':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MarkdownSafe escapes only what could start raw HTML or an autolink in
// Markdown: "<" before a letter, "/", "!" or "?" becomes "&lt;", and "&"
// before a letter or "#" (an entity) becomes "&amp;". Table cells use it:
// it leaves the kit's own cells ("<0.0001", "a < b", strata with "_") as
// they were, byte for byte.
func MarkdownSafe(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		var next byte
		if i+1 < len(s) {
			next = s[i+1]
		}
		letter := next >= 'a' && next <= 'z' || next >= 'A' && next <= 'Z'
		switch {
		case c == '<' && (letter || next == '/' || next == '!' || next == '?'):
			b.WriteString("&lt;")
		case c == '&' && (letter || next == '#'):
			b.WriteString("&amp;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
