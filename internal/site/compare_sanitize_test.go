package site

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"
)

// editedComparePage is page (a comparison page) with markup inserted in
// its head, in its first template (a flip's renders) and at the end of its
// body: a hand edit that keeps the page's start, esr compare's marker.
func editedComparePage(page []byte, markup string) []byte {
	s := string(page)
	s = strings.Replace(s, "</head>", markup+"</head>", 1)
	s = strings.Replace(s, `<template id="r0">`, `<template id="r0">`+markup, 1)
	s = strings.Replace(s, "</body>", markup+"</body>", 1)
	return []byte(s)
}

// comparePageDangers lists what in a written comparison page could run
// script other than the kit's own: a head that is not the one ComparePage
// writes (the mark, an escaped title, the style and the one script), or in
// the rest, read as a tokenizer and as the standard's parser read it,
// anything tokenDangers or dangerous find (templates aside: the page keeps
// them, their contents cleaned like the body).
func comparePageDangers(t *testing.T, page []byte) []string {
	t.Helper()
	var found []string
	end := bytes.Index(page, []byte("</head>"))
	if end < 0 {
		return []string{"no head"}
	}
	head := string(page[:end+len("</head>")])
	start := `<!DOCTYPE html><html><head><meta charset="utf-8">` + compareMark + `<title>`
	tail := `</title><style>` + compareCSS + `</style><script>` + compareJS + `</script></head>`
	if !strings.HasPrefix(head, start) || !strings.HasSuffix(head, tail) || len(head) < len(start)+len(tail) ||
		strings.ContainsAny(head[len(start):len(head)-len(tail)], "<>") {
		found = append(found, "a head that is not the kit's: "+head)
	}
	z := xhtml.NewTokenizer(bytes.NewReader(page))
	scripts := 0
	for tt := z.Next(); tt != xhtml.ErrorToken; tt = z.Next() {
		if name, _ := z.TagName(); (tt == xhtml.StartTagToken || tt == xhtml.SelfClosingTagToken) && string(name) == "script" {
			scripts++
		}
	}
	if scripts != 1 {
		found = append(found, "script start tags: "+strings.Repeat("I", scripts))
	}
	for _, d := range append(tokenDangers(page), dangerous(t, page)...) {
		if d != "<template>" {
			found = append(found, d)
		}
	}
	return found
}

// esr report copies a comparison page as the kit writes it, whatever a hand
// edit that kept the page's start (esr compare's marker) put into it: a
// script, an event handler, a javascript: link and an external frame in the
// body or in a flip's template, or a script in the head, are gone, said in
// a note, and the page holds exactly one script, the kit's own; its flips,
// filters and renders stay.
func TestReportCopiesAnEditedComparePageWithOnlyTheKitsScript(t *testing.T) {
	own := ComparePage(hostileComparison(t))
	edit := `<script>window.pwned=3</script><img src=x onerror="window.pwned=4"><a href="javascript:window.pwned=5">x</a>` +
		`<iframe src="https://example.org/frame"></iframe>`
	src, out := t.TempDir(), t.TempDir()
	for name, page := range map[string][]byte{"mine": own, "edited": editedComparePage(own, edit)} {
		if err := os.MkdirAll(filepath.Join(src, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name, comparePageName), page, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs, notes, err := CopyComparisons(src, out)
	if err != nil || len(cs) != 2 {
		t.Fatalf("CopyComparisons: %v, %d pages", err, len(cs))
	}
	if len(notes) != 1 || !strings.Contains(notes[0], filepath.Join("edited", comparePageName)) ||
		!strings.Contains(notes[0], "<script>") || !strings.Contains(notes[0], "img onerror") || !strings.Contains(notes[0], "<iframe>") ||
		!strings.Contains(notes[0], "head") {
		t.Errorf("notes %q: want one naming the edited page and what it lost", notes)
	}
	// Copied again (a report made from a report's comparisons), nothing is
	// taken out and no byte changes.
	out2 := t.TempDir()
	if cs2, notes2, err := CopyComparisons(filepath.Join(out, ComparisonsDir), out2); err != nil || len(cs2) != 2 || len(notes2) > 0 {
		t.Errorf("copying the copies: %v, %d pages, notes %q", err, len(cs2), notes2)
	}
	for _, c := range cs {
		got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(c.Page)))
		if err != nil {
			t.Fatal(err)
		}
		if left := comparePageDangers(t, got); len(left) > 0 {
			t.Errorf("%s: %v", c.Page, left)
		}
		for _, bad := range []string{"window.pwned=3", "window.pwned=4", "javascript:", "example.org"} {
			if bytes.Contains(got, []byte(bad)) {
				t.Errorf("%s holds %q", c.Page, bad)
			}
		}
		s := string(got)
		if !IsComparePage(got) || strings.Count(s, `<tr class="flip"`) != strings.Count(string(own), `<tr class="flip"`) ||
			strings.Count(s, "<template ") != strings.Count(string(own), "<template ") || !strings.Contains(s, `<mark style="background:#ffe08a">`) ||
			!strings.Contains(s, `data-renders="r0"`) || !strings.Contains(s, `id="f-direction"`) {
			t.Errorf("%s lost some of the kit's page:\n%s", c.Page, got)
		}
		if again, err := os.ReadFile(filepath.Join(out2, filepath.FromSlash(c.Page))); err != nil || !bytes.Equal(again, got) {
			t.Errorf("%s: copied again it changes (%v)", c.Page, err)
		}
	}
}
