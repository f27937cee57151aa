package layout

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// piecePattern is cl100k_base's pre-split without its look-ahead, the
// pattern nextPiece scans by hand: the reference it is tested against.
var piecePattern = regexp.MustCompile(`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+`)

func scanPieces(s string) []string {
	var ps []string
	for len(s) > 0 {
		k := nextPiece(s)
		ps = append(ps, s[:k])
		s = s[k:]
	}
	return ps
}

// patternPieces splits s with the regexp, and reports whether its matches
// tile s (the pattern leaves no byte unmatched).
func patternPieces(s string) ([]string, bool) {
	ps := piecePattern.FindAllString(s, -1)
	return ps, strings.Join(ps, "") == s
}

// trickyPieces exercise each alternative and its backtracking: contractions
// in any case (and the long s (?i) folds to), a mark or tab glued to a
// letter run, digit runs past three, a space before marks, marks before
// line breaks, white space ending in line breaks, Unicode digits and
// spaces, \v (not in RE2's \s), invalid UTF-8.
var trickyPieces = []string{
	"", "a", "'s", "'S", "'ſ", "'re", "'RE", "'r", "'rx", "'ll", "'l", "'Ll", "'d'", "''s", "'",
	"don't", "we've", "I'M", "x'VE y",
	"|issue", "\tword", " word", "  word", "\nword", "\r\nword", "-x", "'x",
	"1234567", "12a", "a12", "²³⁴⁵", "Ⅻ", "٣٤٥٦",
	" |", " | ", "  |", " |\n\n", "|\r\n x", "...\n", " \n", " \n ", "\n \n  ", "\t\n\t", " \f ", "\r",
	"\v", "\vab", " \v", "\u00a0x", "a\u00a0b", "\u2003\u2003", "x\u200by",
	"\xff", "\xffab", "a\xff\xfe", " \xff", "\xe2\x82", "é", "e\u0301", "日本語", "Ωμέγα 42",
	"2024-03-01 | LIVE | DEPRECATED", "| d1 | status=30 s |\n|---|---|",
}

func TestNextPieceMatchesPattern(t *testing.T) {
	for _, s := range trickyPieces {
		want, tiles := patternPieces(s)
		if !tiles {
			t.Fatalf("the pattern does not tile %q: %q", s, want)
		}
		if got := scanPieces(s); !slices.Equal(got, want) {
			t.Errorf("%q:\nscan    %q\npattern %q", s, got, want)
		}
	}
	// Real text: every event of the bundled benchmarks (Debian changelog
	// entries, synthetic issue threads, Wikidata values).
	n := 0
	for _, s := range benchTexts(t) {
		want, _ := patternPieces(s)
		if got := scanPieces(s); !slices.Equal(got, want) {
			t.Fatalf("event text %q:\nscan    %q\npattern %q", s, got, want)
		}
		n++
	}
	if n < 1000 {
		t.Fatalf("checked %d event texts, want at least 1000 from data/", n)
	}
}

// benchTexts are the text fields of the events of every bundled benchmark.
func benchTexts(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "data", "*", "streams.jsonl"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no data/*/streams.jsonl (%v)", err)
	}
	var texts []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			var row struct {
				Events []struct {
					Text string `json:"text"`
				} `json:"events"`
			}
			if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
				tb.Fatalf("%s: %v", f, err)
			}
			for _, e := range row.Events {
				texts = append(texts, e.Text)
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			tb.Fatal(err)
		}
	}
	return texts
}

func FuzzNextPiece(f *testing.F) {
	for _, s := range trickyPieces {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, tiles := patternPieces(s)
		if !tiles {
			t.Skip() // not a piece sequence: nothing to compare
		}
		if got := scanPieces(s); !slices.Equal(got, want) {
			t.Errorf("%q:\nscan    %q\npattern %q", s, got, want)
		}
	})
}

// BenchmarkCountTokens times CountTokens on the Debian changelog entries
// against the regexp it replaced (sub-benchmark "pattern", the baseline):
// compare the two ns/op of one run.
func BenchmarkCountTokens(b *testing.B) {
	texts := benchTexts(b)
	text := strings.Join(texts[:min(len(texts), 2000)], "\n")
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			CountTokens(text)
		}
	})
	b.Run("pattern", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			n := 0
			for _, p := range piecePattern.FindAllString(text, -1) {
				n += pieceTokens(p)
			}
		}
	})
}

func TestCompactEquals(t *testing.T) {
	for _, s := range append(trickyPieces, factHeader, datedFactHeader, " "+factHeader+" ", "id | entity | attribute | value", "id|entity|attribute|value|time\t", factHeader+"x", "\xff"+factHeader) {
		for _, want := range []string{factHeader, datedFactHeader, "", "a"} {
			if got := compactEquals(s, want); got != (compact(s) == want) {
				t.Errorf("compactEquals(%q, %q) = %v, compact gives %q", s, want, got, compact(s))
			}
		}
	}
}

// compact drops white space: the copy compactEquals avoids building.
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
