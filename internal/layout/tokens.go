package layout

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CountTokens approximates what a BPE tokenizer counts: the text is split
// as cl100k_base splits it before merging (so pipes, digits and punctuation
// are pieces of their own, and a date is six or seven pieces, not one
// word), and each piece costs one token, except that a letter run costs one
// more token per nine letters (one per three when it is upper case: LIVE,
// DEPRECATED are split finer) and a letter run glued to a mark ("|issue")
// costs the mark too. On the bundled synthetic bench's renders it is within
// 6% of cl100k_base's count on average for every memory class and format
// (TestCountTokensAgreesWithBPE); it needs no vocabulary file.
func CountTokens(s string) int {
	n := 0
	for len(s) > 0 {
		k := nextPiece(s)
		n += pieceTokens(s[:k])
		s = s[k:]
	}
	return n
}

// The pre-split is cl100k_base's pattern without the look-ahead RE2 lacks,
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+
//
// (contractions, a letter run with one leading mark or space, digit runs of
// at most three, a punctuation run, line breaks, white space), matched
// leftmost-first as Go's regexp does, with \s its ASCII class [\t\n\f\r ]
// and an invalid byte read as U+FFFD. nextPiece scans it by hand: the regexp
// took three quarters of an evaluation's time (BenchmarkCountTokens), and
// TestNextPieceMatchesPattern and FuzzNextPiece hold the two to the same
// pieces.

// nextPiece is the length in bytes of the piece at the start of s (s not
// empty).
func nextPiece(s string) int {
	r, w := utf8.DecodeRuneInString(s)
	// 's 't 're 've 'm 'll 'd, any case.
	if r == '\'' && len(s) > 1 {
		if strings.HasPrefix(s[1:], "ſ") { // (?i) folds s to the long s too
			return 1 + len("ſ")
		}
		switch s[1] | 0x20 {
		case 's', 't', 'm', 'd':
			return 2
		case 'r', 'v':
			if len(s) > 2 && s[2]|0x20 == 'e' {
				return 3
			}
		case 'l':
			if len(s) > 2 && s[2]|0x20 == 'l' {
				return 3
			}
		}
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	if unicode.IsLetter(r) {
		return w + letterRun(s[w:])
	}
	if r != '\r' && r != '\n' && !unicode.IsNumber(r) {
		if n := letterRun(s[w:]); n > 0 {
			return w + n
		}
	}
	// \p{N}{1,3}
	if unicode.IsNumber(r) {
		n := w
		for i := 1; i < 3 && n < len(s); i++ {
			r2, w2 := utf8.DecodeRuneInString(s[n:])
			if !unicode.IsNumber(r2) {
				break
			}
			n += w2
		}
		return n
	}
	// ␠?[^\s\p{L}\p{N}]+[\r\n]*
	start := 0
	if r == ' ' {
		start = 1
	}
	if n := markRun(s[start:]); n > 0 {
		n += start
		for n < len(s) && (s[n] == '\r' || s[n] == '\n') {
			n++
		}
		return n
	}
	// \s*[\r\n]+ (through the run's last line break), else \s+. Here r is
	// white space: every other rune matched above.
	end, lastBreak := 0, -1
	for end < len(s) && isSpace(s[end]) {
		if s[end] == '\r' || s[end] == '\n' {
			lastBreak = end
		}
		end++
	}
	if lastBreak >= 0 {
		return lastBreak + 1
	}
	return end
}

// letterRun is the length in bytes of the \p{L}+ run at the start of s.
func letterRun(s string) int {
	n := 0
	for n < len(s) {
		r, w := utf8.DecodeRuneInString(s[n:])
		if !unicode.IsLetter(r) {
			break
		}
		n += w
	}
	return n
}

// markRun is the length in bytes of the [^\s\p{L}\p{N}]+ run at the start
// of s.
func markRun(s string) int {
	n := 0
	for n < len(s) {
		if isSpace(s[n]) {
			break
		}
		r, w := utf8.DecodeRuneInString(s[n:])
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			break
		}
		n += w
	}
	return n
}

// isSpace is RE2's \s: [\t\n\f\r ].
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// pieceTokens is the token cost of one pre-split piece.
func pieceTokens(p string) int {
	r, _ := utf8.DecodeRuneInString(p)
	if unicode.IsLetter(r) || r == ' ' {
		if w := strings.TrimPrefix(p, " "); w != "" {
			if r0, _ := utf8.DecodeRuneInString(w); unicode.IsLetter(r0) {
				return letterTokens(w)
			}
		}
	}
	if unicode.IsPunct(r) || unicode.IsSymbol(r) {
		if rest := strings.TrimLeftFunc(p, func(r rune) bool { return !unicode.IsLetter(r) }); rest != "" && rest != p {
			return 1 + letterTokens(rest)
		}
	}
	return 1
}

// letterTokens is the cost of a run of letters.
func letterTokens(w string) int {
	l := utf8.RuneCountInString(w)
	if l > 1 && upper(w) {
		return 1 + (l-1)/3
	}
	return 1 + (l-1)/9
}

// upper reports whether strings.ToUpper(w) == w for a letter run w,
// without building the upper-cased copy.
func upper(w string) bool {
	for _, r := range w {
		if unicode.ToUpper(r) != r {
			return false
		}
	}
	return true
}
