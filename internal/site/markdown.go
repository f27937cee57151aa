package site

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"unicode"
)

// The report copies the repository documents its pages link to (README.md,
// docs/*.md) as HTML, so that no link leaves report/. MarkdownPage renders
// the Markdown those documents use (headings, paragraphs, lists, tables,
// block quotes, fenced code, inline code, links, bold, *emphasis*) and nothing more:
// every character of the source is escaped, so raw HTML in a document
// shows as text and never as markup, and a link keeps its URL only when it
// is relative or http(s)/mailto (safeURL). Headings get GitHub's ids, so
// README.md#setup-and-the-two-commands keeps its fragment.

// MarkdownPage renders src as a standalone page titled title, marked as
// esr report's (indexMark), with back, a link to the report's index.
func MarkdownPage(title, src, back string) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8">` + indexMark + `<title>` + html.EscapeString(title) + `</title><style>
body{font-family:sans-serif;margin:2em auto;max-width:900px;line-height:1.45}
pre{background:#f6f6f6;padding:8px;overflow-x:auto}code{background:#f6f6f6}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}
</style></head><body>`)
	fmt.Fprintf(&b, `<nav class="esr-docnav"><a href="%s">← the report's index</a></nav>`, html.EscapeString(back))
	b.WriteString(MarkdownHTML(src))
	b.WriteString("</body></html>\n")
	return b.String()
}

var (
	headingLine = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	bulletLine  = regexp.MustCompile(`^\s*[-*+]\s+(.*)$`)
	orderedLine = regexp.MustCompile(`^\s*\d+[.)]\s+(.*)$`)
	tableSep    = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)
)

// MarkdownHTML renders Markdown blocks to escaped HTML (see MarkdownPage).
func MarkdownHTML(src string) string {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var b strings.Builder
	ids := map[string]int{}
	var para []string
	flush := func() {
		if len(para) > 0 {
			b.WriteString("<p>" + inlineMD(strings.Join(para, "\n")) + "</p>\n")
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			flush()
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			flush()
			fence := trimmed[:3]
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), fence); i++ {
				code = append(code, lines[i])
			}
			b.WriteString("<pre><code>" + html.EscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
		case headingLine.MatchString(trimmed):
			flush()
			m := headingLine.FindStringSubmatch(trimmed)
			id := slug(plainMD(m[2]))
			if n := ids[id]; n > 0 {
				ids[id]++
				id = fmt.Sprintf("%s-%d", id, n)
			} else {
				ids[id] = 1
			}
			fmt.Fprintf(&b, "<h%d id=\"%s\">%s</h%d>\n", len(m[1]), html.EscapeString(id), inlineMD(m[2]), len(m[1]))
		case strings.HasPrefix(trimmed, "|") && i+1 < len(lines) && tableSep.MatchString(lines[i+1]):
			flush()
			b.WriteString("<table><thead><tr>")
			for _, c := range tableCells(trimmed) {
				b.WriteString("<th>" + inlineMD(c) + "</th>")
			}
			b.WriteString("</tr></thead><tbody>\n")
			for i += 2; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				b.WriteString("<tr>")
				for _, c := range tableCells(strings.TrimSpace(lines[i])) {
					b.WriteString("<td>" + inlineMD(c) + "</td>")
				}
				b.WriteString("</tr>\n")
			}
			i--
			b.WriteString("</tbody></table>\n")
		case bulletLine.MatchString(line) || orderedLine.MatchString(line):
			flush()
			re, tag := bulletLine, "ul"
			if !bulletLine.MatchString(line) {
				re, tag = orderedLine, "ol"
			}
			b.WriteString("<" + tag + ">\n")
			var item []string
			end := func() {
				if len(item) > 0 {
					b.WriteString("<li>" + inlineMD(strings.Join(item, "\n")) + "</li>\n")
					item = nil
				}
			}
			for ; i < len(lines); i++ {
				l := lines[i]
				if m := re.FindStringSubmatch(l); m != nil {
					end()
					item = append(item, m[1])
				} else if m := bulletLine.FindStringSubmatch(l); m != nil { // a nested list, flattened
					end()
					item = append(item, m[1])
				} else if m := orderedLine.FindStringSubmatch(l); m != nil {
					end()
					item = append(item, m[1])
				} else if strings.TrimSpace(l) != "" && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) {
					item = append(item, strings.TrimSpace(l))
				} else {
					break
				}
			}
			end()
			i--
			b.WriteString("</" + tag + ">\n")
		case strings.HasPrefix(trimmed, ">"):
			flush()
			var q []string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), ">"); i++ {
				q = append(q, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i]), ">")))
			}
			i--
			b.WriteString("<blockquote><p>" + inlineMD(strings.Join(q, "\n")) + "</p></blockquote>\n")
		default:
			para = append(para, trimmed)
		}
	}
	flush()
	return b.String()
}

// tableCells splits a table row "| a | b |" into its cells ("\|" stays in a cell).
func tableCells(row string) []string {
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cur.WriteByte('|')
			i++
		case row[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(row[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// inlineMD renders inline Markdown: `code`, [text](url), <url>, **bold**,
// and backslash escapes; everything else is escaped text.
func inlineMD(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_[]()#+-.!|<>{}", s[i+1]) >= 0:
			b.WriteString(html.EscapeString(s[i+1 : i+2]))
			i += 2
			continue
		case c == '`':
			n := 1
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			ticks := s[i : i+n]
			if end := strings.Index(s[i+n:], ticks); end >= 0 {
				b.WriteString("<code>" + html.EscapeString(strings.TrimSpace(s[i+n:i+n+end])) + "</code>")
				i += n + end + n
				continue
			}
		case c == '[':
			if text, url, n, ok := mdLink(s[i:]); ok {
				if safeURL(url) {
					fmt.Fprintf(&b, `<a href="%s">%s</a>`, html.EscapeString(url), inlineMD(text))
				} else {
					b.WriteString(inlineMD(text))
				}
				i += n
				continue
			}
		case c == '<':
			if end := strings.IndexByte(s[i:], '>'); end > 0 {
				u := s[i+1 : i+end]
				if (strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) && !strings.ContainsAny(u, " \n\"") {
					fmt.Fprintf(&b, `<a href="%s">%s</a>`, html.EscapeString(u), html.EscapeString(u))
					i += end + 1
					continue
				}
			}
		case c == '*' && strings.HasPrefix(s[i:], "**"):
			if end := strings.Index(s[i+2:], "**"); end > 0 {
				b.WriteString("<strong>" + inlineMD(s[i+2:i+2+end]) + "</strong>")
				i += end + 4
				continue
			}
		case c == '*' && i+1 < len(s) && s[i+1] != ' ':
			if end := strings.IndexByte(s[i+1:], '*'); end > 0 && s[i+end] != ' ' {
				b.WriteString("<em>" + inlineMD(s[i+1:i+1+end]) + "</em>")
				i += end + 2
				continue
			}
		}
		b.WriteString(html.EscapeString(s[i : i+1]))
		i++
	}
	return b.String()
}

// mdLink reads "[text](url)" or "[text](url "title")" at the start of s:
// the text, the URL and how many bytes it took.
func mdLink(s string) (text, url string, n int, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				if i+1 >= len(s) || s[i+1] != '(' {
					return "", "", 0, false
				}
				end := strings.IndexByte(s[i+2:], ')')
				if end < 0 {
					return "", "", 0, false
				}
				target := strings.TrimSpace(s[i+2 : i+2+end])
				if sp := strings.IndexAny(target, " \t"); sp >= 0 {
					target = target[:sp] // drop a title
				}
				target = strings.TrimSuffix(strings.TrimPrefix(target, "<"), ">")
				return s[1:i], target, i + 2 + end + 1, true
			}
		}
	}
	return "", "", 0, false
}

// plainMD is a heading's text without its markup (for its id).
func plainMD(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '[' {
			if text, _, n, ok := mdLink(s[i:]); ok {
				b.WriteString(plainMD(text))
				i += n - 1
				continue
			}
		}
		if strings.IndexByte("`*_", s[i]) < 0 {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// slug is GitHub's heading id: lower case, letters, digits, "-" and "_"
// kept, spaces turned into "-", everything else dropped.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
