package site

import (
	"bytes"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"
)

// An optional section (its heading's cell up to the next cell with a
// level-1 or level-2 heading) is folded under its heading; the cells
// around it, and a level-3 heading inside it, are left as they are.
func TestFoldOptionalFoldsASectionUpToTheNextHeading(t *testing.T) {
	page := `<html><body><main>
<div class="jp-Cell"><h2 id="A">Table 2¶</h2></div>
<div class="jp-Cell"><pre>shown</pre></div>
<div class="jp-Cell"><h2 id="Optional-B">Optional · Table 3<a class="anchor-link">¶</a></h2></div>
<div class="jp-Cell"><pre>folded one</pre></div>
<div class="jp-Cell"><h3>a sub-heading</h3></div>
<div class="jp-Cell"><pre>folded two</pre></div>
<div class="jp-Cell"><h2 id="C">Try it¶</h2></div>
<div class="jp-Cell"><pre>shown too</pre></div>
</main></body></html>`
	doc, err := xhtml.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	foldOptional(body(doc))
	var buf bytes.Buffer
	if err := xhtml.Render(&buf, doc); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	open := strings.Index(got, `<details class="esr-optional"`)
	end := strings.Index(got, "</details>")
	if open < 0 || end < open {
		t.Fatalf("no fold:\n%s", got)
	}
	inside, after := got[open:end], got[end:]
	for _, want := range []string{"<summary", "Optional · Table 3 (folded on this page: click to open)", "folded one", "a sub-heading", "folded two"} {
		if !strings.Contains(inside, want) {
			t.Errorf("the fold lacks %q:\n%s", want, inside)
		}
	}
	if strings.Contains(inside, "shown") || strings.Contains(inside, "Try it") || !strings.Contains(after, "Try it") || !strings.Contains(got[:open], "shown</pre>") {
		t.Errorf("the fold took cells outside its section:\n%s", got)
	}
	if strings.Count(got, "<details") != 1 {
		t.Errorf("%d folds, want 1", strings.Count(got, "<details"))
	}
}
