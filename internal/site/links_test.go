package site

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"
)

// Documents copied into the report render their Markdown, escape
// everything else, keep GitHub's heading ids, and drop links that could
// run script.
func TestMarkdownHTMLEscapesAndKeepsHeadingIDs(t *testing.T) {
	got := MarkdownHTML("# Setup and the two commands\n\n## Setup and the two commands\n\nRun `make <x>` and **see** *this* [the guide](docs/a.md#b), <https://example.org/>.\n" +
		"<script>alert(1)</script> [bad](javascript:alert(1))\n\n- one\n- two `|`\n\n| a | b |\n|---|---|\n| x \\| y | <b>z</b> |\n\n```\n<pre> & code\n```\n")
	for _, want := range []string{
		`<h1 id="setup-and-the-two-commands">`, `<h2 id="setup-and-the-two-commands-1">`,
		"<code>make &lt;x&gt;</code>", "<strong>see</strong> <em>this</em>", `<a href="docs/a.md#b">the guide</a>`,
		`<a href="https://example.org/">https://example.org/</a>`, "&lt;script&gt;alert(1)&lt;/script&gt; bad",
		"<li>one</li>", "<li>two <code>|</code></li>", "<td>x | y</td><td>&lt;b&gt;z&lt;/b&gt;</td>", "<pre><code>&lt;pre&gt; &amp; code</code></pre>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %s in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<script") || strings.Contains(got, "javascript:") {
		t.Errorf("markup from the document reached the page:\n%s", got)
	}
}

// A page states its minutes as "about N minutes" (41 today) or in brackets;
// other numbers of minutes on the page are not its length.
func TestStatedMinutes(t *testing.T) {
	for _, c := range []struct {
		md   string
		want int
	}{
		{"**Reading path (about 25 minutes):** the readers", 25},
		{"A lab page (15 min).", 15},
		{"Time: ~10 minutes", 10},
		{"About 8-minute read", 8},
		{"The fit takes 2 minutes of CPU.", 0},
		{"No time stated.", 0},
	} {
		if got := statedMinutes(c.md); got != c.want {
			t.Errorf("statedMinutes(%q) = %d, want %d", c.md, got, c.want)
		}
	}
}

// The crawler itself finds each kind of break: a missing page, a missing
// fragment (also on the same page), a link leaving the folder; and passes
// external links and ids that exist.
func TestBrokenLinksFindsEachKindOfBreak(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
	os.WriteFile(filepath.Join(dir, "a.html"), []byte(`<html><body><h2 id="top">t</h2><a name="old"></a>
<a href="b.html#x">ok</a><a href="#top">ok</a><a href="#old">ok</a><a href="https://example.org/none.html">ext</a><img src="data:image/png;base64,AA==">
<a href="missing.html">1</a><a href="b.html#nope">2</a><a href="#gone">3</a><a href="../outside.html">4</a><img src="thumbs/x.png"></body></html>`), 0o644)
	os.WriteFile(filepath.Join(dir, "b.html"), []byte(`<html><body><p id="x">x</p></body></html>`), 0o644)
	os.WriteFile(filepath.Join(dir, "docs", "c.html"), []byte(`<html><body><a href="../a.html#top">ok</a><a href="../b.html#y">5</a></body></html>`), 0o644)
	broken, err := BrokenLinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`missing.html`, `b.html#nope`, `#gone`, `../outside.html`, `thumbs/x.png`, `../b.html#y`}
	if len(broken) != len(want) {
		t.Errorf("found %d broken links, want %d:\n%s", len(broken), len(want), strings.Join(broken, "\n"))
	}
	for _, w := range want {
		if !slices.ContainsFunc(broken, func(b string) bool { return strings.Contains(b, `"`+w+`"`) }) {
			t.Errorf("%s is not reported broken:\n%s", w, strings.Join(broken, "\n"))
		}
	}
}

// On the report `make test` builds (make report-html, ESRKIT_REPORT_DIR):
// no broken link on any page, and each lab page whose notebook was
// converted has a previous and a next link.
func TestReportDirHasNoBrokenLinks(t *testing.T) {
	dir := os.Getenv("ESRKIT_REPORT_DIR")
	if dir == "" {
		t.Skip("ESRKIT_REPORT_DIR names the report to crawl (make test sets it)")
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		t.Skipf("no report in %s: %v", dir, err)
	}
	broken, err := BrokenLinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Errorf("broken link: %s", b)
	}
	for _, st := range LabPath {
		b, err := os.ReadFile(filepath.Join(dir, st.Notebook+".html"))
		if err != nil {
			continue
		}
		for _, want := range []string{`id="esr-labnav-top"`, `rel="prev" href=`, `rel="next" href=`} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s.html lacks %s", st.Notebook, want)
			}
		}
	}
}

// Whatever a document holds, its page has only the elements MarkdownHTML
// makes, and links whose URLs the sanitiser keeps.
func FuzzMarkdownHTMLMakesOnlyItsOwnMarkup(f *testing.F) {
	for _, s := range []string{"<script>alert(1)</script>", "[x](javascript:alert(1))", "<img src=x onerror=alert(1)>",
		"**[a](b)**", "| a | <b> |\n|---|---|\n| `<i>` | [x](<javascript:y>) |", "```\n</code></pre><script>\n```", "<https://x\" onmouseover=\"y>"} {
		f.Add(s)
	}
	made := map[string]bool{"p": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "ul": true, "ol": true, "li": true,
		"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "a": true, "code": true, "pre": true,
		"strong": true, "em": true, "blockquote": true, "html": true, "head": true, "body": true}
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := xhtml.Parse(strings.NewReader(MarkdownHTML(src)))
		if err != nil {
			t.Fatal(err)
		}
		var walk func(n *xhtml.Node)
		walk = func(n *xhtml.Node) {
			if n.Type == xhtml.ElementNode {
				if !made[n.Data] {
					t.Fatalf("<%s> from %q", n.Data, src)
				}
				for _, a := range n.Attr {
					if a.Key != "id" && a.Key != "href" || a.Key == "href" && !safeURL(a.Val) {
						t.Fatalf("%s=%q on <%s> from %q", a.Key, a.Val, n.Data, src)
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
	})
}
