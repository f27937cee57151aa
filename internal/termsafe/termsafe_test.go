package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscapeShowsWhatATerminalWouldActOn(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text, ünïcode, emoji 🙂 and a zero-width joiner 👩\u200d🔬", "plain text, ünïcode, emoji 🙂 and a zero-width joiner 👩\u200d🔬"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"\x1b]0;title\a", `\x1b]0;title\a`},
		{"bell\a, back\b, cr\r, lf\n, tab\t, del\x7f", `bell\a, back\b, cr\r, lf\n, tab\t, del\x7f`},
		{"csi \u009b2J, nel \u0085", `csi \u009b2J, nel \u0085`},
		{"abc\u202edef \u2066iso\u2069 \u200fmark", `abc\u202edef \u2066iso\u2069 \u200fmark`},
		{"line\u2028sep\u2029para", `line\u2028sep\u2029para`},
		{"raw \x9b byte, \xff and a cut \xe2\x80", `raw \x9b byte, \xff and a cut \xe2\x80`},
		{"a real \ufffd replacement character", "a real \ufffd replacement character"},
	} {
		got := Escape(c.in)
		if got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
		if !utf8.ValidString(got) || strings.IndexFunc(got, Unsafe) >= 0 {
			t.Errorf("Escape(%q) = %q still holds what a terminal acts on", c.in, got)
		}
		if Escape(got) != got {
			t.Errorf("Escape is not stable on its output %q", got)
		}
	}
}

func TestLinesKeepsLineFeedsAndEscapesTheRest(t *testing.T) {
	in := "first \x1b[2J line\nsecond\u202e line\r\n"
	if got, want := Lines(in), "first \\x1b[2J line\nsecond\\u202e line\\r\n"; got != want {
		t.Errorf("Lines(%q) = %q, want %q", in, got, want)
	}
	if s := "two\nplain lines"; Lines(s) != s {
		t.Errorf("Lines changed %q", s)
	}
}

func FuzzEscapeLeavesNothingATerminalActsOn(f *testing.F) {
	for _, s := range []string{"", "a\x1bb", "\u202e", "\xff\xfe", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if !utf8.ValidString(got) || strings.IndexFunc(got, Unsafe) >= 0 {
			t.Fatalf("Escape(%q) = %q", s, got)
		}
		if strings.IndexFunc(s, Unsafe) < 0 && utf8.ValidString(s) && got != s {
			t.Fatalf("Escape changed safe text %q to %q", s, got)
		}
	})
}
