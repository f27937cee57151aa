package layout

import (
	"encoding/json"
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
