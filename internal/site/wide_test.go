package site

import (
	"bytes"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"
)

// A table in a cell's output gets a scroll box of its own, once (a second
// pass changes nothing, a table inside it is not boxed again); a table in
// a Markdown cell's own text is left alone.
func TestScrollTablesBoxesEachOutputTableOnce(t *testing.T) {
	page := `<html><body><main>
<div class="jp-Cell jp-MarkdownCell"><div class="jp-RenderedMarkdown"><table id="prose"><tr><td>a</td></tr></table></div></div>
<div class="jp-Cell jp-CodeCell"><div class="jp-OutputArea"><div class="jp-RenderedMarkdown jp-OutputArea-output"><p>before</p>
<table id="wide"><tr><td><table id="inner"><tr><td>x</td></tr></table></td></tr></table><p>after</p></div></div></div>
<div class="cell"><div class="output_area"><div><table id="classic"><tr><td>b</td></tr></table></div></div></div>
</main></body></html>`
	doc, err := xhtml.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	render := func() string {
		var buf bytes.Buffer
		if err := xhtml.Render(&buf, doc); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	scrollTables(body(doc))
	got := render()
	box := `<div class="` + TableScrollClass + `" style="overflow-x:auto;contain:inline-size">`
	for _, id := range []string{"wide", "classic"} {
		if !strings.Contains(got, box+`<table id="`+id+`">`) {
			t.Errorf("table %s is not in a scroll box:\n%s", id, got)
		}
	}
	if strings.Count(got, box) != 2 || strings.Contains(got, box+`<table id="prose">`) || strings.Contains(got, box+`<table id="inner">`) {
		t.Errorf("%d boxes, want 2 (not the Markdown cell's, not the inner table's):\n%s", strings.Count(got, box), got)
	}
	if !strings.Contains(got, "<p>before</p>\n"+box) || !strings.Contains(got, "</table></div><p>after</p>") {
		t.Errorf("the box is not where the table was:\n%s", got)
	}
	scrollTables(body(doc))
	if again := render(); again != got {
		t.Errorf("a second pass changed the page:\n%s", again)
	}
}
