package judge

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// This file turns an answer into canonical tokens for the exact judge:
// folded case and accents, no punctuation, no articles, quantities as one
// token in base units ("30 s", "30 seconds", "half a minute", "30000 ms" →
// q:30:s) and dates as one token ("2015-02-03", "3 February 2015",
// "February 3, 2015" → d:2015-02-03).

// foldRune maps accented Latin letters to their base letter.
var foldRune = func() map[rune]rune {
	m := map[rune]rune{}
	for base, accented := range map[rune]string{
		'a': "àáâãäåāăą", 'c': "çćĉċč", 'd': "ďđ", 'e': "èéêëēĕėęě", 'g': "ĝğġģ", 'h': "ĥħ",
		'i': "ìíîïĩīĭįı", 'j': "ĵ", 'k': "ķ", 'l': "ĺļľŀł", 'n': "ñńņňŉ", 'o': "òóôõöøōŏő",
		'r': "ŕŗř", 's': "śŝşšș", 't': "ţťŧț", 'u': "ùúûüũūŭůűų", 'w': "ŵ", 'y': "ýÿŷ", 'z': "źżž",
	} {
		for _, r := range accented {
			m[r] = base
		}
	}
	return m
}()

// fold lowercases s and strips accents; "ß" becomes "ss", "æ" "ae", "œ" "oe".
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		if f, ok := foldRune[r]; ok {
			r = f
		}
		switch r {
		case 'ß':
			b.WriteString("ss")
		case 'æ':
			b.WriteString("ae")
		case 'œ':
			b.WriteString("oe")
		case '’', '‘', '`':
			b.WriteByte('\'')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// rawTokens splits folded text into words: letters and digits, keeping
// '.', ',', '-', '/' and ':' only between digits (decimals, thousands,
// dates, times), dropping thousands commas, and splitting "%" off as its
// own token. Apostrophes inside words are dropped ("don't" → "dont").
func rawTokens(s string) []string {
	var out []string
	var cur strings.Builder
	var version bool
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
		version = false
	}
	rs := []rune(s)
	isDigit := func(i int) bool { return i >= 0 && i < len(rs) && rs[i] >= '0' && rs[i] <= '9' }
	isAlnum := func(i int) bool { return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i])) }
	// A version string ("2.12.1+dfsg-5+deb12u4", "0~rc1-2") is one token:
	// once a token that starts with a digit meets '+' or '~' before an
	// alphanumeric, it keeps '+', '~', '.', '-' and ':' between
	// alphanumerics, so that "4.96-15+deb12u11" is not "4.96-15" and more.
	startsDigit := func() bool { return cur.Len() > 0 && cur.String()[0] >= '0' && cur.String()[0] <= '9' }
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur.WriteRune(r)
		case (r == '+' || r == '~') && startsDigit() && isAlnum(i-1) && isAlnum(i+1):
			version = true
			cur.WriteRune(r)
		case version && (r == '.' || r == '-' || r == ':') && isAlnum(i-1) && isAlnum(i+1):
			cur.WriteRune(r)
		case (r == '.' || r == '-' || r == '/' || r == ':') && isDigit(i-1) && isDigit(i+1):
			cur.WriteRune(r)
		case r == ',' && isDigit(i-1) && isDigit(i+1) && isDigit(i+2) && isDigit(i+3) && !isDigit(i+4):
			// thousands separator: dropped
		case r == '\'' && cur.Len() > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
			// apostrophe inside a word
		case r == '%':
			flush()
			out = append(out, "%")
		default:
			flush()
		}
	}
	flush()
	return out
}

var articles = map[string]bool{"a": true, "an": true, "the": true}

// unitBase maps unit spellings to (base unit, factor to the base unit).
var unitBase = map[string]struct {
	base   string
	factor float64
}{
	"ms": {"s", 0.001}, "millisecond": {"s", 0.001}, "milliseconds": {"s", 0.001}, "msec": {"s", 0.001},
	"s": {"s", 1}, "sec": {"s", 1}, "secs": {"s", 1}, "second": {"s", 1}, "seconds": {"s", 1},
	"m": {"s", 60}, "min": {"s", 60}, "mins": {"s", 60}, "minute": {"s", 60}, "minutes": {"s", 60},
	"h": {"s", 3600}, "hr": {"s", 3600}, "hrs": {"s", 3600}, "hour": {"s", 3600}, "hours": {"s", 3600},
	"d": {"s", 86400}, "day": {"s", 86400}, "days": {"s", 86400},
	"wk": {"s", 604800}, "week": {"s", 604800}, "weeks": {"s", 604800},
	"b": {"B", 1}, "byte": {"B", 1}, "bytes": {"B", 1},
	"kb": {"B", 1e3}, "mb": {"B", 1e6}, "gb": {"B", 1e9}, "tb": {"B", 1e12},
	"kib": {"B", 1024}, "mib": {"B", 1 << 20}, "gib": {"B", 1 << 30}, "tib": {"B", 1 << 40},
	"%": {"%", 1}, "percent": {"%", 1}, "pct": {"%", 1},
}

// wordNumbers are number words a quantity may be written with.
var wordNumbers = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
	"forty": 40, "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100, "half": 0.5, "a": 1, "an": 1,
}

var months = map[string]int{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
	"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
	"sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}

func number(tok string) (float64, bool) {
	if tok == "" || !(tok[0] >= '0' && tok[0] <= '9') {
		return 0, false
	}
	v, err := strconv.ParseFloat(tok, 64)
	return v, err == nil
}

// splitNumberUnit splits "30s" into "30", "s" when the tail is a unit.
func splitNumberUnit(tok string) (string, string, bool) {
	i := 0
	for i < len(tok) && (tok[i] >= '0' && tok[i] <= '9' || tok[i] == '.') {
		i++
	}
	if i == 0 || i == len(tok) {
		return "", "", false
	}
	if _, ok := unitBase[tok[i:]]; !ok {
		return "", "", false
	}
	return tok[:i], tok[i:], true
}

func quantityToken(v float64, unit string) string {
	u := unitBase[unit]
	return "q:" + strconv.FormatFloat(v*u.factor, 'g', 12, 64) + ":" + u.base
}

func year(tok string) (int, bool) {
	if len(tok) != 4 {
		return 0, false
	}
	y, err := strconv.Atoi(tok)
	return y, err == nil && y >= 1000 && y <= 2999
}

func day(tok string) (int, bool) {
	tok = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(tok, "st"), "nd"), "rd"), "th")
	d, err := strconv.Atoi(tok)
	return d, err == nil && d >= 1 && d <= 31
}

func dateToken(y, m, d int) string {
	switch {
	case m == 0:
		return "d:" + strconv.Itoa(y)
	case d == 0:
		return "d:" + strconv.Itoa(y) + "-" + twoDigits(m)
	}
	return "d:" + strconv.Itoa(y) + "-" + twoDigits(m) + "-" + twoDigits(d)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// isoDate reads "2015-02-03", "2015/02/03", "2015-02" and
// "2015-02-03T00:00:00" (the T part is cut earlier by tokenising).
func isoDate(tok string) (string, bool) {
	tok = strings.ReplaceAll(tok, "/", "-")
	parts := strings.Split(tok, "-")
	if len(parts) < 2 || len(parts) > 3 {
		return "", false
	}
	y, ok := year(parts[0])
	if !ok {
		return "", false
	}
	m, err := strconv.Atoi(parts[1])
	if err != nil || m < 0 || m > 12 || len(parts[1]) > 2 {
		return "", false
	}
	d := 0
	if len(parts) == 3 {
		d, err = strconv.Atoi(parts[2])
		if err != nil || d < 0 || d > 31 || len(parts[2]) > 2 {
			return "", false
		}
	}
	if m == 0 {
		d = 0
	}
	return dateToken(y, m, d), true
}

// phrases are quantities written as words, replaced before tokenising;
// a phrase comes before any it contains.
var phrases = []struct{ from, to string }{
	{"half a minute", "30 s"}, {"half an hour", "30 min"}, {"half a day", "12 h"},
	{"a quarter of an hour", "15 min"}, {"quarter of an hour", "15 min"},
}

// canonMemo keeps canonTokens' results by value: an evaluation judges the
// same golds and answers for every memory and reader. It stops growing at
// canonMemoMax values; the slices it hands out are shared and only read.
var (
	canonMemo  sync.Map // string → []string
	canonMemoN atomic.Int64
)

const canonMemoMax = 1 << 17

// canonTokens is the canonical token sequence of a value (see the file
// comment), from canonMemo when it was made before.
func canonTokens(s string) []string {
	if t, ok := canonMemo.Load(s); ok {
		return t.([]string)
	}
	t := canonTokensOf(s)
	if canonMemoN.Load() < canonMemoMax {
		if _, had := canonMemo.LoadOrStore(strings.Clone(s), t); !had {
			canonMemoN.Add(1)
		}
	}
	return t
}

// canonTokensOf makes canonTokens' sequence.
func canonTokensOf(s string) []string {
	s = fold(s)
	// "30s" → "30 s" happens per token below; a few phrases first.
	for _, p := range phrases {
		s = strings.ReplaceAll(s, p.from, p.to)
	}
	in := rawTokens(s)
	var out []string
	for i := 0; i < len(in); i++ {
		t := in[i]
		next := func(k int) string {
			if i+k < len(in) {
				return in[i+k]
			}
			return ""
		}
		// Dates written with words: "3 february 2015", "february 3 2015",
		// "february 2015".
		if m, ok := months[t]; ok {
			if d, ok := day(next(1)); ok {
				if y, ok := year(next(2)); ok {
					out = append(out, dateToken(y, m, d))
					i += 2
					continue
				}
			}
			if y, ok := year(next(1)); ok {
				out = append(out, dateToken(y, m, 0))
				i++
				continue
			}
		}
		if d, ok := day(t); ok {
			if m, ok := months[next(1)]; ok {
				if y, ok := year(next(2)); ok {
					out = append(out, dateToken(y, m, d))
					i += 2
					continue
				}
			}
		}
		if iso, ok := isoDate(t); ok {
			out = append(out, iso)
			continue
		}
		// Quantities: "30 s", "30s", "thirty seconds", "a minute".
		if num, unit, ok := splitNumberUnit(t); ok {
			v, _ := strconv.ParseFloat(num, 64)
			out = append(out, quantityToken(v, unit))
			continue
		}
		v, isNum := number(t)
		if !isNum {
			v, isNum = wordNumbers[t]
		}
		if isNum {
			if _, ok := unitBase[next(1)]; ok && !(next(1) == "m" && t == "a") {
				if (t == "a" || t == "an") && !isLongUnit(next(1)) {
					// "a s" is not "one second"; keep the article.
				} else {
					out = append(out, quantityToken(v, next(1)))
					i++
					continue
				}
			}
		}
		out = append(out, t)
	}
	// Articles go, unless nothing else is left.
	kept := out[:0:0]
	for _, t := range out {
		if !articles[t] {
			kept = append(kept, t)
		}
	}
	if len(kept) > 0 {
		return kept
	}
	return out
}

// isLongUnit: a unit written as a word ("minute"), which may follow "a".
func isLongUnit(u string) bool {
	return utf8.RuneCountInString(u) > 3 || u == "day" || u == "hour"
}

// special reports quantity and date tokens.
func special(t string) bool { return strings.HasPrefix(t, "q:") || strings.HasPrefix(t, "d:") }

func equalTokens(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// indexTokens is the first position of needle in hay, or -1.
func indexTokens(hay, needle []string) int {
	if len(needle) == 0 || len(needle) > len(hay) {
		return -1
	}
outer:
	for i := 0; i+len(needle) <= len(hay); i++ {
		for j := range needle {
			if hay[i+j] != needle[j] {
				continue outer
			}
		}
		return i
	}
	return -1
}
