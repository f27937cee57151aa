package browser

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// imageTimeout bounds the wait for a page's images (all inline or local).
const imageTimeout = 30 * time.Second

// checkPage loads a file in the browser and returns everything wrong with it:
// page problems, error/stderr outputs and broken images.
func checkPage(t *testing.T, b *Browser, path string) []string {
	t.Helper()
	b.ResetProblems()
	u, err := FileURL(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Navigate(u); err != nil {
		return []string{err.Error()}
	}
	var bad []string
	outs, err := b.ErrorOutputs()
	if err != nil {
		bad = append(bad, err.Error())
	}
	for _, o := range outs {
		bad = append(bad, "error output: "+o)
	}
	imgs, err := b.BrokenImages(imageTimeout)
	if err != nil {
		bad = append(bad, err.Error())
	}
	for _, i := range imgs {
		bad = append(bad, "broken image: "+i)
	}
	// Last: the checks above run scripts, and anything they provoke counts.
	for _, p := range b.Problems() {
		bad = append(bad, "page problem: "+p)
	}
	return bad
}

// TestReportPages opens every page of the static report ($ESRKIT_REPORT_DIR,
// written by `make report-html`) in Chromium over file:// and checks what a
// reader would notice: no JavaScript errors or failed loads, no error or
// stderr output in any notebook, every figure and thumbnail decodes, and every
// card of index.html opens an existing page. It keeps a screenshot of the
// index and of the notebook page with the most figures in ShotDir.
func TestReportPages(t *testing.T) {
	RequireChromium(t)
	dir := ReportDir()
	if dir == "" {
		if Strict() {
			t.Fatalf("%s=1 but %s is unset: run `make report-html` and point %s at report/", TestsEnv, ReportDirEnv, ReportDirEnv)
		}
		t.Skipf("%s unset", ReportDirEnv)
	}
	pages, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, "index.html")
	if _, err := os.Stat(index); err != nil {
		t.Fatalf("the report has no index page: %v", err)
	}
	if len(pages) < 2 {
		t.Fatalf("%s has %d HTML page(s); want index.html and at least one notebook page", dir, len(pages))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b := NewT(t, ctx)
	shots := ShotDir(t)
	start := time.Now()

	figurePage, mostFigures := "", -1 // the notebook page to photograph
	for _, p := range pages {
		t.Run(filepath.Base(p), func(t *testing.T) {
			if bad := checkPage(t, b, p); len(bad) > 0 {
				t.Errorf("%s:\n  %s", p, strings.Join(bad, "\n  "))
			}
			n, err := Eval[[2]int](b, `[document.images.length, document.querySelectorAll("svg").length]`)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d <img>, %d inline <svg> checked", n[0], n[1])
			if p != index && n[0]+n[1] > mostFigures {
				figurePage, mostFigures = p, n[0]+n[1]
			}
		})
	}

	// index.html: each card opens a page that exists; one card per notebook page.
	if bad := checkPage(t, b, index); len(bad) > 0 {
		t.Fatalf("index.html: %v", bad)
	}
	links, err := b.Links("a.card")
	if err != nil {
		t.Fatal(err)
	}
	if want := len(pages) - 1; len(links) != want {
		t.Errorf("index.html has %d card links, want %d (one per notebook page)", len(links), want)
	}
	for _, l := range links {
		u, err := url.Parse(l)
		if err != nil || u.Scheme != "file" {
			t.Errorf("card link %q is not a local file URL (%v)", l, err)
			continue
		}
		if st, err := os.Stat(u.Path); err != nil || st.IsDir() {
			t.Errorf("card link %s: no such page (%v)", l, err)
		}
	}
	if err := b.Screenshot(filepath.Join(shots, "index.png")); err != nil {
		t.Error(err)
	}
	if figurePage != "" {
		if err := b.Navigate(mustFileURL(t, figurePage)); err != nil {
			t.Fatal(err)
		}
		// MathJax (Debian's, loaded by nbconvert's page) shows a "Loading…"
		// box while it fetches fonts: let it finish for the picture.
		if err := b.WaitJS(`(() => { const m = document.getElementById("MathJax_Message"); return !m || m.style.display === "none" || m.innerText.trim() === ""; })()`, 10*time.Second); err != nil {
			t.Log(err)
		}
		if err := b.Screenshot(filepath.Join(shots, strings.TrimSuffix(filepath.Base(figurePage), ".html")+".png")); err != nil {
			t.Error(err)
		}
	}
	t.Logf("checked %d report pages in %s; screenshots in %s", len(pages), time.Since(start).Round(time.Millisecond), shots)
}

func mustFileURL(t *testing.T, path string) string {
	t.Helper()
	u, err := FileURL(path)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// Markup that nbconvert's lab template writes for an error output (checked on
// a converted page); see errorOutputSelector.
const nbconvertErrorCell = `<div class="jp-Cell jp-CodeCell jp-Notebook-cell"><div class="jp-Cell-outputWrapper">
<div class="jp-OutputArea jp-Cell-outputArea"><div class="jp-OutputArea-child">
<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="application/vnd.jupyter.stderr">
<pre><span class="ansi-red-fg">panic: boom</span>
goroutine 1</pre></div></div></div></div></div>`

// TestChecksSeeBreakage proves the report checks can fail: pages with an error
// output, a broken image, an empty SVG, a JavaScript exception, a
// console.error and a missing script each get reported, and a clean page
// does not.
func TestChecksSeeBreakage(t *testing.T) {
	RequireChromium(t)
	dir := t.TempDir()
	page := func(name, body string) string {
		p := filepath.Join(dir, name)
		html := `<!DOCTYPE html><html><head><meta charset="utf-8"><title>` + name + `</title></head><body>` + body + `</body></html>`
		if err := os.WriteFile(p, []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A 1×1 PNG, a figure as inline SVG and an SVG image without intrinsic
	// size: what healthy pages contain, which must not be reported.
	const png1x1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
	clean := page("clean.html", `<p>fine</p><img alt="dot" src="data:image/png;base64,`+png1x1+`">
<svg width="100" height="50" viewBox="0 0 100 50"><path d="M0 0L100 50"/></svg>
<img alt="svg figure" src="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxMCAxMCI+PHJlY3Qgd2lkdGg9IjEwIiBoZWlnaHQ9IjEwIi8+PC9zdmc+" width="40">
<a class="card" href="clean.html">self</a>`)

	cases := []struct {
		name, body, want string
	}{
		{"error-output.html", nbconvertErrorCell, "error output: cell 0: panic: boom"},
		{"stderr-classic.html", `<div class="cell"><div class="output_subarea output_stderr"><pre>warning: x</pre></div></div>`, "error output: cell 0: warning: x"},
		{"broken-image.html", `<img alt="figure" src="data:image/png;base64,bm90IGEgcG5n">`, "broken image: img figure"},
		{"missing-image.html", `<img alt="thumb" src="thumbs/missing.png">`, "broken image: img thumb"},
		{"empty-svg.html", `<svg width="100" height="50"></svg>`, "broken image: svg (100x50): no shapes"},
		{"js-exception.html", `<script>undefinedFunction();</script>`, "page problem: exception: Uncaught ReferenceError: undefinedFunction is not defined"},
		{"console-error.html", `<script>console.error("bad thing", 42);</script>`, "page problem: console.error: bad thing 42"},
		{"missing-script.html", `<script src="missing.js"></script>`, "page problem: network: request failed (net::ERR_FILE_NOT_FOUND)"},
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	b := NewT(t, ctx)

	if bad := checkPage(t, b, clean); len(bad) > 0 {
		t.Errorf("clean page reported as broken:\n  %s", strings.Join(bad, "\n  "))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := checkPage(t, b, page(c.name, c.body))
			found := false
			for _, s := range bad {
				found = found || strings.HasPrefix(s, c.want)
			}
			if !found {
				t.Errorf("%s: want a report starting %q, got:\n  %s", c.name, c.want, strings.Join(bad, "\n  "))
			}
		})
	}

	// Ignore drops known noise from Problems but keeps it in the console log.
	b.Ignore("expected noise")
	b.ResetProblems()
	if err := b.Do(`console.error("expected noise")`); err != nil {
		t.Fatal(err)
	}
	if p := b.Problems(); len(p) != 0 {
		t.Errorf("ignored console.error still a problem: %v", p)
	}
	if log := strings.Join(b.ConsoleLog(), "\n"); !strings.Contains(log, "expected noise (ignored)") {
		t.Errorf("ignored message missing from the console log:\n%s", log)
	}
}
