package esr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// NormalizeValue maps a value's surface form to a canonical form so that
// restatements compare equal: lower case, inner white space folded to one
// space, surrounding quotes, brackets and final punctuation dropped, and a
// number followed by a unit written with the unit's short symbol
// ("30 seconds", "30s", "30 sec" → "30 s"). Paraphrases that need world
// knowledge ("half a minute") are the judge's business, not the ledger's.
func NormalizeValue(v string) string {
	if isCanonical(v) {
		return v
	}
	v = strings.TrimFunc(v, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("\"'`“”‘’()[]{}.,;:!?", r)
	})
	if v == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(len(v))
	space := false
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRuneInString(v[i:])
		i += n
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return normalizeQuantity(b.String())
}

// unitSymbols maps unit spellings to the symbol NormalizeValue writes.
var unitSymbols = map[string]string{
	"s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
	"ms": "ms", "millisecond": "ms", "milliseconds": "ms",
	"m": "min", "min": "min", "mins": "min", "minute": "min", "minutes": "min",
	"h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
	"d": "d", "day": "d", "days": "d",
	"kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb",
	"%": "%", "percent": "%",
}

// normalizeQuantity rewrites "<number> <unit>" (with or without the space) to
// "<number> <symbol>"; any other value is returned unchanged.
func normalizeQuantity(v string) string {
	i := 0
	for i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i] == '.' || v[i] == ',') {
		i++
	}
	if i == 0 || i == len(v) {
		return v
	}
	num := strings.ReplaceAll(v[:i], ",", "")
	unit := strings.TrimSpace(v[i:])
	if sym, ok := unitSymbols[unit]; ok {
		return num + " " + sym
	}
	return v
}

// StateOf is the comparable state of a value with a polarity: the normalised
// value, prefixed with "¬" when the polarity is negative.
func StateOf(value string, p Polarity) string {
	n := NormalizeValue(value)
	if p == Negative {
		return "¬" + n
	}
	return n
}

// isCanonical reports values NormalizeValue would return unchanged, checked
// in one pass without allocating: lower-case ASCII letters, digits and inner
// punctuation, single inner spaces, no trimmable edge, and no
// "<number><unit>" form.
func isCanonical(v string) bool {
	if v == "" {
		return true
	}
	if edge(v[0]) || edge(v[len(v)-1]) {
		return false
	}
	digitsFirst := v[0] >= '0' && v[0] <= '9'
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 0x80 || c >= 'A' && c <= 'Z' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			return false
		case c == ' ' && v[i-1] == ' ':
			return false
		}
	}
	return !digitsFirst || quantityCanonical(v)
}

// quantityCanonical reports a value starting with a digit that
// normalizeQuantity leaves as it is: not a quantity at all, or already
// "<number> <symbol>" without thousands separators.
func quantityCanonical(v string) bool {
	i := 0
	for i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i] == '.' || v[i] == ',') {
		i++
	}
	if i == len(v) {
		return true
	}
	sep := i < len(v) && v[i] == ' '
	unit := v[i:]
	if sep {
		unit = v[i+1:]
	}
	sym, ok := unitSymbols[unit]
	if !ok {
		return true // not a quantity: normalizeQuantity returns it unchanged
	}
	return sep && sym == unit && strings.IndexByte(v[:i], ',') < 0
}

// edge reports bytes NormalizeValue trims from either end.
func edge(c byte) bool {
	return c == ' ' || c >= 0x80 || strings.IndexByte("\"'`()[]{}.,;:!?\t\n\r\v\f", c) >= 0
}
