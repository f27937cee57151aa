package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/esrkit/esrkit/internal/site"
)

// reportFixture lays out what `make report-html` gives esr report: a
// repository with notebooks/ (where the notebooks' links start), README.md
// and docs/, the executed notebooks, and report/ holding one page per
// notebook as nbconvert writes it (head scripts from a CDN, heading ids with
// anchor links, the notebook's links kept as written: to
// 00-quickstart.ipynb#glossary and to ../docs/*.md).
func reportFixture(t *testing.T) (root, executed, out string) {
	t.Helper()
	root = t.TempDir()
	executed, out = filepath.Join(root, "notebooks", "executed"), filepath.Join(root, "report")
	for _, d := range []string{executed, out, filepath.Join(root, "docs"), filepath.Join(root, "figures")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# esrkit\n\nSee [the reader model](docs/reader-model.md#what-a-reader-sees) and <script>alert(1)</script>.\n\n## Setup and the two commands\n\nRun `make reproduce`.\n")
	write("docs/reader-model.md", "# The reader model\n\n## What a reader sees\n\nThe [length anchor](../figures/evidence-length-x.png), [another](../figures/not-a-png.png). Back to [the README](../README.md#setup-and-the-two-commands), "+
		"the [quickstart](../notebooks/00-quickstart.ipynb#glossary) and [judges](judges.md).\n")
	write("docs/judges.md", "# Judges\n\n| judge | bias |\n|---|---|\n| a \\| b | [x](reader-model.md) |\n")
	write("figures/evidence-length-x.png", "\x89PNG\r\n\x1a\n fake image bytes")
	write("figures/not-a-png.png", "<svg onload=alert(1)>")
	notebooks := []struct{ name, title, first string }{
		{"00-quickstart", "§0 · Quickstart", "Start here."},
		{"02-esr", "§2 · ESR", "The memory."},
		{"40-explorer", "§4 · The explorer", "Move the sliders."},
		{"41-render-confound", "§4.1 · Most gain is render", "**Reading path (about 25 minutes):** the readers, one question."},
		{"43-provenance", "§4.3 · Provenance", "Retention or typing."},
		{"45-deployed", "§4.5 · Deployed systems", "Graphiti and Mem0."},
		{"D-debian", "Appendix D · Debian", "Real histories."},
		{"E-checks", "Appendix E · Checks", "Judges."},
	}
	for _, nb := range notebooks {
		b, _ := json.Marshal(map[string]any{"cells": []map[string]any{
			{"cell_type": "markdown", "source": "# " + nb.title + "\n\n" + nb.first},
			{"cell_type": "markdown", "source": "Words from the [glossary](00-quickstart.ipynb#glossary)."},
		}})
		write(filepath.Join("notebooks", "executed", nb.name+".ipynb"), string(b))
		id := strings.ReplaceAll(nb.title, " ", "-")
		extra := ""
		if nb.name == "00-quickstart" {
			extra = `<div class="jp-Cell"><a id="glossary"></a><h2 id="Glossary">Glossary<a class="anchor-link" href="#Glossary">¶</a></h2>` +
				`<h2 id="The-%E2%8A%95-ledger">The ⊕ ledger</h2></div>`
		}
		write(filepath.Join("report", nb.name+".html"), fmt.Sprintf(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title>
<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js"></script>
<style>body{margin:0}</style></head>
<body class="jp-Notebook"><main>
<div class="jp-Cell"><h1 id="%s">%s<a class="anchor-link" href="#%s">¶</a></h1>
<p>Words from the <a href="00-quickstart.ipynb#glossary">glossary</a>; the <a href="../docs/reader-model.md">reader model</a>
(<a href="../docs/reader-model.md#what-a-reader-sees">what it sees</a>); the <a href="../README.md#setup-and-the-two-commands">setup</a>;
a plan that was never written: <a href="../docs/missing.md">missing</a>;
<a href="00-quickstart.ipynb#the--ledger">the ledger</a> (GitHub's id for nbconvert's heading); <a href="00-quickstart.ipynb#nowhere">a heading that went</a>; <a href="https://github.com/getzep/graphiti/issues/1865">an issue</a>.</p>
</div>%s</main></body></html>
`, html.EscapeString(nb.title), html.EscapeString(id), html.EscapeString(nb.title), html.EscapeString(id), extra))
	}
	return root, executed, out
}

// navLinks are the rel=prev and rel=next hrefs of the page's top lab
// navigation bar.
func navLinks(t *testing.T, page string) (prev, next string) {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var inNav func(n *html.Node, on bool)
	inNav = func(n *html.Node, on bool) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if a.Key == "id" && a.Val == "esr-labnav-top" {
					on = true
				}
			}
			if on && n.Data == "a" {
				rel, href := "", ""
				for _, a := range n.Attr {
					switch a.Key {
					case "rel":
						rel = a.Val
					case "href":
						href = a.Val
					}
				}
				switch rel {
				case "prev":
					prev = href
				case "next":
					next = href
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			inNav(c, on)
		}
	}
	inNav(doc, false)
	return prev, next
}

// esr report turns the folder nbconvert left into one that reads offline:
// every href and src on every page (index, notebook pages, the copied
// documents) lands on a file of the report, every #fragment on an id of
// its page; each lab page links to the previous and next page of the lab
// path; the index lists the path with minutes per page. A rerun accepts
// everything it wrote as its own and changes nothing.
func TestReportLinksResolveAndLabPagesChain(t *testing.T) {
	root, executed, out := reportFixture(t)
	args := []string{"report", "--executed", executed, "--figures", filepath.Join(root, "figures"), "--out", out, "--notebooks", filepath.Join(root, "notebooks")}
	_, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("esr report: exit %d: %s", code, errOut)
	}
	broken, err := site.BrokenLinks(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Errorf("broken link: %s", b)
	}
	// The link to a document that does not exist is taken off, and said.
	if !strings.Contains(errOut, `"../docs/missing.md" is not in the report`) {
		t.Errorf("stderr does not name the link it took off:\n%s", errOut)
	}
	// A fragment that names no id of its page: the nbconvert id it means, or
	// none (the page's top), said.
	if !strings.Contains(errOut, `00-quickstart.html has no id "nowhere"; the link goes to the top of the page`) {
		t.Errorf("stderr does not name the fragment it took off:\n%s", errOut)
	}
	// A repository PNG a document links to is copied into the report and
	// linked there; a file named .png that is not one is taken off.
	if b, err := os.ReadFile(filepath.Join(out, "files", "figures", "evidence-length-x.png")); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("the linked figure was not copied into the report: %v", err)
	}
	if rm, _ := os.ReadFile(filepath.Join(out, "docs", "reader-model.html")); !bytes.Contains(rm, []byte(`href="../files/figures/evidence-length-x.png"`)) {
		t.Errorf("the model card does not link the copied figure:\n%s", rm)
	}
	if _, err := os.Stat(filepath.Join(out, "files", "figures", "not-a-png.png")); err == nil || !strings.Contains(errOut, `"../figures/not-a-png.png" is not in the report`) {
		t.Errorf("a file that is not a PNG was copied or its link kept (stat err %v):\n%s", err, errOut)
	}
	for _, doc := range []string{"docs/reader-model.html", "docs/README.html", "docs/judges.html"} {
		if _, err := os.Stat(filepath.Join(out, doc)); err != nil {
			t.Errorf("the report has no %s: %v", doc, err)
		}
	}
	page, _ := os.ReadFile(filepath.Join(out, "41-render-confound.html"))
	for _, want := range []string{`href="00-quickstart.html#glossary"`, `href="00-quickstart.html#The-%E2%8A%95-ledger"`, `href="00-quickstart.html">a heading that went`, `href="docs/reader-model.html#what-a-reader-sees"`, `href="docs/README.html#setup-and-the-two-commands"`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("41's page lacks %s", want)
		}
	}
	if readme, _ := os.ReadFile(filepath.Join(out, "docs", "README.html")); !bytes.Contains(readme, []byte("&lt;script&gt;alert(1)&lt;/script&gt;")) || bytes.Contains(readme, []byte("<script>alert")) {
		t.Errorf("README's raw HTML is not escaped:\n%s", readme)
	}

	// Previous/next along the path: 00 → 41 → 40 → 43 → 45 → E, then D as an
	// extra; the first's previous and the last's next are the index's path.
	path := []string{"00-quickstart", "41-render-confound", "40-explorer", "43-provenance", "45-deployed", "E-checks", "D-debian"}
	for i, name := range path {
		prev, next := navLinks(t, filepath.Join(out, name+".html"))
		wantPrev, wantNext := "index.html#lab-path", "index.html#lab-path"
		if i > 0 {
			wantPrev = path[i-1] + ".html"
		}
		if i+1 < len(path) {
			wantNext = path[i+1] + ".html"
		}
		if prev != wantPrev || next != wantNext {
			t.Errorf("%s: previous %q next %q, want %q and %q", name, prev, next, wantPrev, wantNext)
		}
	}
	if prev, next := navLinks(t, filepath.Join(out, "02-esr.html")); prev != "" || next != "" {
		t.Errorf("02-esr is off the path but links %q and %q", prev, next)
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.html"))
	for _, want := range []string{`id="lab-path"`, "A 90-minute lab",
		`<a href="41-render-confound.html">Most gain is render</a> (<span class="minutes">25 min</span>, as the page states)`,
		`<a href="00-quickstart.html">Quickstart</a> (<span class="minutes">10 min</span>, as the report&#39;s lab table estimates)`,
		`<a href="D-debian.html">Debian</a> (<span class="minutes">15 min</span>`} {
		if !bytes.Contains(index, []byte(want)) {
			t.Errorf("the index lacks %s", want)
		}
	}

	// A rerun on its own output: accepted, and nothing changes (one bar each).
	before := map[string][]byte{}
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			before[p], _ = os.ReadFile(p)
		}
		return err
	})
	if _, errOut, code := runCLI(t, args...); code != 0 {
		t.Fatalf("esr report on its own output: exit %d: %s", code, errOut)
	}
	for p, b := range before {
		if now, _ := os.ReadFile(p); !bytes.Equal(now, b) {
			t.Errorf("the rerun changed %s", p)
		}
	}
	if n := bytes.Count(before[filepath.Join(out, "43-provenance.html")], []byte(`id="esr-labnav-top"`)); n != 1 {
		t.Errorf("43's page has %d top bars", n)
	}
	// A file in docs/ that esr report did not write is not overwritten.
	os.WriteFile(filepath.Join(out, "docs", "notes.txt"), []byte("mine"), 0o644)
	if _, errOut, code := runCLI(t, args...); code == 0 || !strings.Contains(errOut, "not an earlier output of esr report") {
		t.Errorf("esr report over a foreign file in docs/: exit %d: %s", code, errOut)
	}
}
