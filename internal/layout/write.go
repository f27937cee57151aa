package layout

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/esrkit/esrkit/esr"
)

// Stamp shows a time as a date, or with hours and minutes when it is not
// midnight UTC, so same-day events keep a visible order.
func Stamp(t esr.Time) string {
	if t.IsZero() || t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Date()
	}
	return t.Format(MinuteLayout)
}

// Cell is s made safe to stand inside one line of a render: every control
// character (a newline, a carriage return, a tab, an escape) and the
// Unicode line and paragraph separators become a visible Go-style escape
// (\n, \x1b, \u2028), so text from data can never end its row and start
// a forged one. Text without them is returned as it is. Benchmarks refuse
// such text at load (esr/bench); this guards values built in code.
func Cell(s string) string {
	i := strings.IndexFunc(s, breaksLine)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if !breaksLine(r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r) // '\n', '\x1b', '\u2028'
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// breaksLine reports whether r may not stand inside a render's line.
func breaksLine(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }

// Field is one key and value of a JSON object a render writes.
type Field struct {
	Key   string
	Value any
}

// JSONObject writes fields as one JSON object in the given order, byte for
// byte as encoding/json writes a struct with those tags ({"k":v,...}, no
// spaces, HTML escaped): the keys are the render vocabulary's names (esr),
// which a struct tag could not name.
func JSONObject(fields ...Field) []byte {
	n := 2
	for _, f := range fields {
		n += len(f.Key) + 4
		if s, ok := f.Value.(string); ok {
			n += len(s) + 2
		}
	}
	b := make([]byte, 1, n)
	b[0] = '{'
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendJSONString(b, f.Key, false), ':')
		// A string or nil (nearly every value a render writes) is written
		// here as encoding/json and jsonOneLine would write it; anything
		// else goes through them.
		if s, ok := f.Value.(string); ok {
			b = appendJSONString(b, s, true)
			continue
		}
		if f.Value == nil {
			b = append(b, "null"...)
			continue
		}
		v, _ := json.Marshal(f.Value)
		b = append(b, jsonOneLine(v)...)
	}
	return append(b, '}')
}

// appendJSONString appends s as a JSON string, byte for byte as
// json.Marshal(s) writes it (quotes, backslashes, C0 controls as \b \f \n
// \r \t or \u00XX, <, > and & as \u003c \u003e \u0026, invalid UTF-8 as
// \ufffd, U+2028 and U+2029 escaped), and with oneLine as
// jsonOneLine(json.Marshal(s)): DEL and the C1 controls as \u007f … \u009f
// too.
func appendJSONString(dst []byte, s string, oneLine bool) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' && (c != 0x7f || !oneLine) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029' || oneLine && r >= 0x80 && r <= 0x9f:
			dst = append(append(dst, s[start:i]...), '\\', 'u', hex[r>>12], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}

// jsonOneLine escapes what encoding/json leaves raw and a reader may take
// for a line break (DEL and the C1 controls, U+0085 among them) as \uXXXX:
// the same JSON value, on one line.
func jsonOneLine(v []byte) []byte {
	s := string(v)
	if !strings.ContainsFunc(s, breaksLine) {
		return v
	}
	var b strings.Builder
	for _, r := range s {
		if breaksLine(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return []byte(b.String())
}

// FirstSentence is the event text up to its first sentence end, at most max
// bytes (cut at a word boundary), with white space folded.
func FirstSentence(text string, max int) string {
	text = Cell(strings.Join(strings.Fields(text), " "))
	for i := 0; i < len(text); i++ {
		if (text[i] == '.' || text[i] == '!' || text[i] == '?') && (i+1 == len(text) || text[i+1] == ' ') && !initial(text, i) {
			if i+1 <= max {
				return text[:i+1]
			}
			break
		}
	}
	if len(text) <= max {
		return text
	}
	cut := strings.LastIndexByte(text[:max], ' ')
	if cut <= 0 {
		cut = max
	}
	return text[:cut] + " …"
}

// initial reports whether the period at i ends a one-letter initial ("L."
// in "L. Haddad"), which does not end a sentence.
func initial(text string, i int) bool {
	if text[i] != '.' || i < 1 || text[i-1] < 'A' || text[i-1] > 'Z' {
		return false
	}
	return i == 1 || text[i-2] == ' '
}

// Unordered returns indices 0..n-1 in an order that carries no time
// information: sorted by a hash of each item's id. It is deterministic, so
// renders are byte-stable, and it is the same for every class that uses it.
func Unordered(ids []string) []int {
	return HashOrder(ids, func(id string) uint64 {
		f := fnv.New64a()
		f.Write([]byte(id))
		return Mix(f.Sum64())
	})
}

// SeededOrder returns indices 0..n-1 in a permutation drawn from seed and
// salt (graphrag-abstain salts with the stream and key): items are sorted by
// a hash of (seed, salt, id), so the order is deterministic per seed, stream
// and key, and independent of time.
func SeededOrder(seed uint64, salt string, ids []string) []int {
	return HashOrder(ids, func(id string) uint64 {
		f := fnv.New64a()
		f.Write([]byte(salt))
		f.Write([]byte{0})
		f.Write([]byte(id))
		return Mix(f.Sum64() ^ Mix(seed))
	})
}

// HashOrder returns indices 0..n-1 sorted (stably) by hash(ids[i]).
func HashOrder(ids []string, hash func(string) uint64) []int {
	idx := make([]int, len(ids))
	h := make([]uint64, len(ids))
	for i, id := range ids {
		idx[i], h[i] = i, hash(id)
	}
	sort.SliceStable(idx, func(a, b int) bool { return h[idx[a]] < h[idx[b]] })
	return idx
}

// Table lays out rows as "a | b | c" (CellSep) with every column padded
// to its widest cell, the last column unpadded; each cell is escaped (Cell).
func Table(rows [][]string) string {
	if len(rows) == 0 {
		return ""
	}
	esc := make([][]string, len(rows))
	for i, r := range rows {
		esc[i] = make([]string, len(r))
		for j, c := range r {
			esc[i][j] = Cell(c)
		}
	}
	rows = esc
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for j, c := range r {
			if n := len([]rune(c)); n > width[j] {
				width[j] = n
			}
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for j, c := range r {
			if j > 0 {
				b.WriteString(" " + CellSep + " ")
			}
			b.WriteString(c)
			if j < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[j]-len([]rune(c))))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// EventLines renders events newest first as "[id date] text" lines
// (EventOpen, EventClose), the layout of the paper's Figure 1
// retrieved-text panel.
func EventLines(events []esr.Event) string {
	idx := make([]int, len(events))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ta, tb := events[idx[a]].Timestamp, events[idx[b]].Timestamp
		if !ta.Equal(tb.Time) {
			return ta.After(tb.Time)
		}
		return idx[a] > idx[b]
	})
	var b strings.Builder
	for _, i := range idx {
		e := &events[i]
		b.WriteString(EventOpen + Cell(e.ID) + " " + Stamp(e.Timestamp) + EventClose + " ")
		b.WriteString(Cell(strings.Join(strings.Fields(e.Text), " ")))
		b.WriteByte('\n')
	}
	return b.String()
}

// AtomIDs lists the ids of atoms.
func AtomIDs(atoms []*esr.Atom) []string {
	out := make([]string, len(atoms))
	for i, a := range atoms {
		out[i] = a.ID
	}
	return out
}

// KeysInOrder lists the distinct keys of atoms in first-seen order.
func KeysInOrder(atoms []esr.Atom) []esr.Key {
	seen := map[esr.Key]bool{}
	var out []esr.Key
	for i := range atoms {
		k := atoms[i].Key()
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// Mix is the SplitMix64 finaliser (Steele, Lea & Flood 2014): FNV alone keeps
// ids that differ in their last byte ("a1", "a2") in order.
func Mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
