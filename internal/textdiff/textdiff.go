// Package textdiff marks what a text changes relative to a base text, line by
// line and, within a line that was edited rather than added, word by word. It
// serves the explorer's drill-down, which highlights what each memory's render
// changes relative to the render beside it (a status column, a reordered row,
// a dropped line).
//
// Lines are aligned by a longest common subsequence; an unmatched line of the
// text is paired with the unmatched base line in the same gap, in order, and
// the pair is compared token by token (runs of letters and digits, runs of
// spaces, single other characters). A pair that shares less than half of its
// tokens is marked whole: a word diff of unrelated lines only adds noise.
//
// A subsequence's table holds one entry per pair of lines (or tokens), so it
// is bounded (maxCells): past the bound a line pair is marked whole instead
// of compared word by word, and lines are aligned by the lines the two
// texts share at their start and end only. Memory and time stay bounded
// whatever a render holds (one value of 12,000 words asked 4.6 GB of the
// word diff).
package textdiff

import (
	"strings"
	"unicode"
)

// Segment is a run of a line's text; Changed when it is not in the base.
type Segment struct {
	Text    string
	Changed bool
}

// Line is one line of the text as segments. Whole reports that the line has
// no counterpart in the base (added, moved, or rewritten beyond a word diff).
type Line struct {
	Segments []Segment
	Whole    bool
}

// Changed reports whether any part of the line differs from the base.
func (l Line) Changed() bool {
	for _, s := range l.Segments {
		if s.Changed {
			return true
		}
	}
	return l.Whole
}

// Text is the line without marks.
func (l Line) Text() string {
	var b strings.Builder
	for _, s := range l.Segments {
		b.WriteString(s.Text)
	}
	return b.String()
}

// Against returns text's lines marked against base. Concatenating the
// segments of the lines, joined by "\n", gives text back.
func Against(base, text string) []Line {
	bl, tl := strings.Split(base, "\n"), strings.Split(text, "\n")
	pairs := alignLines(bl, tl)
	out := make([]Line, 0, len(tl))
	bi, ti := 0, 0
	flush := func(bEnd, tEnd int) {
		gap := bl[bi:bEnd]
		for k := 0; ti < tEnd; k, ti = k+1, ti+1 {
			if k < len(gap) {
				out = append(out, words(gap[k], tl[ti]))
			} else {
				out = append(out, whole(tl[ti]))
			}
		}
	}
	for _, p := range pairs {
		flush(p[0], p[1])
		out = append(out, Line{Segments: []Segment{{Text: tl[ti]}}})
		bi, ti = p[0]+1, p[1]+1
	}
	flush(len(bl), len(tl))
	return out
}

// whole marks every character of s.
func whole(s string) Line {
	return Line{Segments: []Segment{{Text: s, Changed: true}}, Whole: true}
}

// words marks the tokens of t that are not in b, or all of t when the two
// lines share less than half of t's tokens.
func words(b, t string) Line {
	bt, tt := tokens(b), tokens(t)
	if (len(bt)+1)*(len(tt)+1) > maxCells {
		return whole(t)
	}
	pairs := lcs(bt, tt)
	if 2*len(pairs) < len(tt) {
		return whole(t)
	}
	kept := make([]bool, len(tt))
	for _, p := range pairs {
		kept[p[1]] = true
	}
	var l Line
	for i, tok := range tt {
		ch := !kept[i]
		if n := len(l.Segments); n > 0 && l.Segments[n-1].Changed == ch {
			l.Segments[n-1].Text += tok
			continue
		}
		l.Segments = append(l.Segments, Segment{Text: tok, Changed: ch})
	}
	if len(l.Segments) == 0 {
		l.Segments = []Segment{{}}
	}
	return l
}

// tokens splits s into runs of letters and digits, runs of spaces, and single
// other characters.
func tokens(s string) []string {
	var out []string
	class := func(r rune) int {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			return 1
		case unicode.IsSpace(r):
			return 2
		}
		return 0
	}
	start, prev := 0, -1
	for i, r := range s {
		c := class(r)
		if i > start && (c != prev || c == 0) {
			out = append(out, s[start:i])
			start = i
		}
		prev = c
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// maxCells bounds a longest common subsequence's table: (n+1)(m+1) int32
// entries for n and m lines or tokens, at most 16 MiB.
const maxCells = 1 << 22

// alignLines pairs the lines of a and b that stay: a longest common
// subsequence, or, when its table would pass maxCells, the lines a and b
// share at their start and end (each text's middle left unpaired).
func alignLines(a, b []string) [][2]int {
	if (len(a)+1)*(len(b)+1) <= maxCells {
		return lcs(a, b)
	}
	var out [][2]int
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		out = append(out, [2]int{pre, pre})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for k := suf; k > 0; k-- {
		out = append(out, [2]int{len(a) - k, len(b) - k})
	}
	return out
}

// lcs returns the index pairs (i in a, j in b) of a longest common
// subsequence of a and b, in increasing order. Its table has
// (len(a)+1)(len(b)+1) entries: callers keep that within maxCells.
func lcs(a, b []string) [][2]int {
	n, m := len(a), len(b)
	w := m + 1
	// dp[i*w+j]: LCS length of a[i:] and b[j:].
	dp := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i] == b[j]:
				dp[i*w+j] = dp[(i+1)*w+j+1] + 1
			case dp[(i+1)*w+j] >= dp[i*w+j+1]:
				dp[i*w+j] = dp[(i+1)*w+j]
			default:
				dp[i*w+j] = dp[i*w+j+1]
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			out = append(out, [2]int{i, j})
			i++
			j++
		case dp[(i+1)*w+j] >= dp[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return out
}
