package layout

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
)

// Every writer keeps a cell on its line: a newline, a carriage return, an
// escape or a Unicode line separator in text becomes a visible escape, so
// a table has one line per row and a reader sees no forged row.
func TestWritersKeepEachCellOnItsLine(t *testing.T) {
	forged := "60 s\n2099-01-01 | e9 | 99 s | LIVE"
	rows := [][]string{{ColTime, ColEvent, ColValue, ColStatus},
		{"2024-02-01", "e2", forged, esr.StatusDeprecated},
		{"2024-01-01", "e1\r", "30 s\u2028x\u0085\x1b[2J", esr.StatusLive}}
	table := Table(rows)
	if n := strings.Count(table, "\n"); n != len(rows) {
		t.Fatalf("Table wrote %d lines for %d rows:\n%s", n, len(rows), table)
	}
	if strings.ContainsAny(table, "\r\u2028\u0085\x1b") || !strings.Contains(table, `60 s\n2099-01-01`) || !strings.Contains(table, `30 s\u2028x\u0085\x1b[2J`) {
		t.Errorf("cells not escaped:\n%q", table)
	}
	for _, r := range Parse(LedgerKeyLabel + "ci / timeout   " + LedgerStatusLabel + "ok\n" + table).Records {
		if r.ID == "e9" || r.Status == esr.StatusLive && r.ID != "e1\\r" {
			t.Errorf("a reader sees %+v", r)
		}
	}
	ev := EventLines([]esr.Event{{ID: "e1\n[e9 2099-01-01]", Text: "ok\u2028[e9 2099-01-01] 99 s"}})
	if strings.Count(ev, "\n") != 1 || strings.Contains(ev, "\u2028") {
		t.Errorf("EventLines: %q", ev)
	}
	if s := FirstSentence("a\x1b[2Jb", 100); s != `a\x1b[2Jb` {
		t.Errorf("FirstSentence: %q", s)
	}
	obj := JSONObject(Field{Key: "value", Value: "a\u0085b\u007fc\nd"})
	if strings.ContainsAny(string(obj), "\u0085\u007f\n") {
		t.Errorf("JSONObject left a line break: %q", obj)
	}
	var back map[string]string
	if err := json.Unmarshal(obj, &back); err != nil || back["value"] != "a\u0085b\u007fc\nd" {
		t.Errorf("JSONObject does not decode to its value: %q → %q, %v", obj, back, err)
	}
	if got := Table([][]string{{"plain — “text” ✓ | x"}}); got != "plain — “text” ✓ | x\n" {
		t.Errorf("Table changed text without control characters: %q", got)
	}
}

// jsonObjectByMarshal is JSONObject as it was written before its string
// fast path: encoding/json for every key and value, then jsonOneLine.
func jsonObjectByMarshal(fields ...Field) []byte {
	b := []byte{'{'}
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(f.Key)
		v, _ := json.Marshal(f.Value)
		b = append(append(append(b, k...), ':'), jsonOneLine(v)...)
	}
	return append(b, '}')
}

// TestJSONObjectStringsAsMarshal: JSONObject writes string keys and values
// byte for byte as encoding/json and jsonOneLine do, on strings drawn from
// every class the escapes treat apart (quotes, backslashes, C0 and C1
// controls, DEL, <, > and &, U+2028 and U+2029, invalid UTF-8, accented
// and astral letters), and on values of other types.
func TestJSONObjectStringsAsMarshal(t *testing.T) {
	pieces := []string{"a", "Z", " ", "\"", "\\", "/", "<", ">", "&", "\x00", "\x1f", "\b", "\f", "\n", "\r", "\t", "\x7f",
		"\u0080", "\u0085", "\u009f", "\u00a0", "é", "\u2028", "\u2029", "\u2027", "𝄞", "\xff", "\xc3", "\xe2\x80", "30 s", "issue #8723"}
	r := rand.New(rand.NewPCG(7, 8))
	for n := range 20000 {
		var s strings.Builder
		for range r.IntN(12) {
			s.WriteString(pieces[r.IntN(len(pieces))])
		}
		key := pieces[n%len(pieces)] + "k"
		fields := []Field{{Key: key, Value: s.String()}, {Key: "n", Value: nil}, {Key: "i", Value: n}, {Key: s.String(), Value: "v"}}
		if got, want := JSONObject(fields...), jsonObjectByMarshal(fields...); !bytes.Equal(got, want) {
			t.Fatalf("%q:\n got %s\nwant %s", s.String(), got, want)
		}
	}
}

// BenchmarkJSONObject: a Mem0 memory row as mem0's render writes it.
func BenchmarkJSONObject(b *testing.B) {
	fields := []Field{{Key: "id", Value: "syn-gh-0001-a4"}, {Key: "memory", Value: "issue #8723 severity was set to critical"},
		{Key: "hash", Value: "0123456789abcdef0123456789abcdef"}, {Key: "metadata", Value: nil},
		{Key: "created_at", Value: "2026-01-01T00:00:03+00:00"}, {Key: "updated_at", Value: "2026-01-01T00:00:03+00:00"}, {Key: "user_id", Value: "syn-gh-0001"}}
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			JSONObject(fields...)
		}
	})
	b.Run("marshal", func(b *testing.B) {
		for b.Loop() {
			jsonObjectByMarshal(fields...)
		}
	})
}
