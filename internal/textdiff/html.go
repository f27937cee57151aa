package textdiff

import (
	"html"
	"strconv"
	"strings"
)

// ColumnsHTML lays texts out as preformatted columns under their titles;
// with mark set, each column after the first has what it changes relative
// to the column on its left (Against) highlighted with <mark>. Titles and
// texts are escaped. The explorer's drill-down and the comparison page of
// esr compare both show renders side by side with it.
//
// The columns fit the width they are given: they share it, side by side
// while each can have minColumnPx, and wrap to a new row where they
// cannot; a line too long for its column scrolls inside the column's own
// box. (Columns that could not shrink below their longest line made the
// whole cell output, prose included, wider than a 1,400 px page.)
func ColumnsHTML(titles, texts []string, mark bool) string {
	var b strings.Builder
	b.WriteString(`<div class="esr-columns" style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start">`)
	for i, t := range texts {
		title := ""
		if i < len(titles) {
			title = titles[i]
		}
		var lines []Line
		if mark && i > 0 {
			lines = Against(texts[i-1], t)
		}
		// A column that shares little with its left neighbour has another
		// layout: marking it would highlight the whole render, so it is
		// shown plain with a caption saying so.
		relayout := lines != nil && sharedShare(lines) < minShared
		b.WriteString(`<div style="flex:1 1 ` + strconv.Itoa(minColumnPx) + `px;min-width:0"><b>` + html.EscapeString(title) + `</b>`)
		if relayout {
			b.WriteString(`<br><small>another layout than the column on its left: not marked line by line</small>`)
		}
		// Wrap only between words: a status word is never split across lines.
		b.WriteString(`<pre class="esr-render" style="font-size:11px;white-space:pre-wrap;word-break:normal;overflow-wrap:normal;overflow-x:auto;border:1px solid #ccc;padding:6px">`)
		if lines == nil || relayout {
			b.WriteString(html.EscapeString(t))
		} else {
			writeMarked(&b, lines)
		}
		b.WriteString(`</pre></div>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// minColumnPx is the width a column asks for before the columns wrap: five
// renders side by side fit a cell's output on a 1,400 px page.
const minColumnPx = 200

// minShared is the share of a column's lines that must be unchanged from
// its left neighbour for the column to be marked line by line.
const minShared = 0.3

// sharedShare is the share of lines with no change.
func sharedShare(lines []Line) float64 {
	if len(lines) == 0 {
		return 1
	}
	n := 0
	for _, l := range lines {
		if !l.Changed() {
			n++
		}
	}
	return float64(n) / float64(len(lines))
}

// writeMarked writes lines with their changed segments in <mark>.
func writeMarked(b *strings.Builder, lines []Line) {
	for li, l := range lines {
		if li > 0 {
			b.WriteString("\n")
		}
		for _, s := range l.Segments {
			if s.Changed {
				b.WriteString(`<mark style="background:#ffe08a">` + html.EscapeString(s.Text) + `</mark>`)
			} else {
				b.WriteString(html.EscapeString(s.Text))
			}
		}
	}
}
