package textdiff

import (
	"strings"
	"testing"
)

// marked writes a line with its changed segments in [brackets].
func marked(lines []Line) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, s := range l.Segments {
			if s.Changed {
				b.WriteString("[" + s.Text + "]")
			} else {
				b.WriteString(s.Text)
			}
		}
	}
	return b.String()
}

func TestAgainst(t *testing.T) {
	for _, c := range []struct{ name, base, text, want string }{
		{"identical", "a b\nc", "a b\nc", "a b\nc"},
		{"status column edited", "2020 | CEO | Ann | LIVE\n2019 | CEO | Bob | LIVE",
			"2020 | CEO | Ann | LIVE\n2019 | CEO | Bob | DEPRECATED",
			"2020 | CEO | Ann | LIVE\n2019 | CEO | Bob | [DEPRECATED]"},
		{"line added", "x\nz", "x\ny\nz", "x\n[y]\nz"},
		{"line dropped", "x\ny\nz", "x\nz", "x\nz"},
		{"moved line is marked", "a 1\nb 2\nc 3", "c 3\na 1\nb 2", "[c 3]\na 1\nb 2"},
		{"unrelated rewrite is marked whole", "FACTS about the thing", "status: unresolved (2 values)",
			"[status: unresolved (2 values)]"},
		{"empty base", "", "one\ntwo", "[one]\n[two]"},
	} {
		got := marked(Against(c.base, c.text))
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestAgainstKeepsText: the segments give the text back, whatever the base.
func TestAgainstKeepsText(t *testing.T) {
	texts := []string{"", "a", "a\n", "x | y | z\n\nw", "é ü — ∅\n  indented  "}
	for _, base := range texts {
		for _, text := range texts {
			lines := Against(base, text)
			parts := make([]string, len(lines))
			for i, l := range lines {
				parts[i] = l.Text()
			}
			if got := strings.Join(parts, "\n"); got != text {
				t.Errorf("Against(%q, %q) gives back %q", base, text, got)
			}
			if base == text {
				for _, l := range lines {
					if l.Changed() {
						t.Errorf("Against(%q, itself) marks %q", text, l.Text())
					}
				}
			}
		}
	}
}

func TestTokens(t *testing.T) {
	got := strings.Join(tokens("ab12  c|d-é"), "/")
	if want := "ab12/  /c/|/d/-/é"; got != want {
		t.Errorf("tokens = %q, want %q", got, want)
	}
}
