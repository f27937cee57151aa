// Package termsafe makes text from data or from a server safe to print on
// a terminal: the one rule every command applies to such text before it
// reaches standard output or standard error.
//
// A terminal acts on some characters instead of showing them: an escape
// (ESC, and the C1 control CSI, U+009B) starts a sequence that colours
// text, moves the cursor, clears the screen or sets the window's title; a
// bell rings; a carriage return or a backspace writes over what was shown;
// a bidirectional override (U+202E) shows the text after it reversed; and
// the Unicode line and paragraph separators (U+2028, U+2029) break a line
// where a reader sees none. Escape shows each of them as a Go-style escape
// (\x1b, \a, \u202e, \u2028), as does each byte that is not UTF-8 (\x9b:
// a terminal in a legacy encoding reads 0x9b as CSI).
package termsafe

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unsafe reports whether a terminal may act on r instead of showing it: a
// control character (C0, DEL or C1, the line feed and the tab among them),
// a bidirectional control (Unicode's Bidi_Control: the embeddings,
// overrides, isolates and marks), or a line or paragraph separator.
func Unsafe(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}

// Escape returns s with every Unsafe character and every byte that is not
// UTF-8 shown as a Go-style escape (strconv.QuoteRune's: \n, \x1b, \u202e;
// a stray byte as \xNN). Text with none of them is returned as it is.
func Escape(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])>>4, 16) + strconv.FormatUint(uint64(s[i])&15, 16))
		case Unsafe(r):
			q := strconv.QuoteRune(r) // '\x1b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Lines is Escape for text of several lines, an error message say: each
// line is escaped and the line feeds between them are kept.
func Lines(s string) string {
	if firstUnsafe(s) < 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Escape(l)
	}
	return strings.Join(lines, "\n")
}

// firstUnsafe is the index of the first byte of s that Escape changes, -1
// when there is none.
func firstUnsafe(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i
			}
		}
		if Unsafe(r) {
			return i
		}
	}
	return -1
}
