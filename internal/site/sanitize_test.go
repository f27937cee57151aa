package site

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/esrkit/esrkit/internal/report"
)

// page is a report page as nbconvert's template writes it: its own scripts
// in the head, each output in a div.
func page(outputs ...string) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>t</title><script src="file:///usr/share/javascript/requirejs/require.min.js"></script>
<script type="text/x-mathjax-config">MathJax.Hub.Config({tex2jax: {inlineMath: [['$','$']]}});</script></head>
<body class="jp-Notebook">
`)
	for _, o := range outputs {
		b.WriteString(`<div class="jp-OutputArea-output jp-RenderedMarkdown" data-mime-type="text/markdown"><p>visible ` + o + "</p></div>\n")
	}
	b.WriteString(`<div class="jp-RenderedImage"><img src="data:image/png;base64,iVBORw0KGgo=" alt="figure"><a href="https://example.org/x#y">a link</a> <a href="#sec">here</a></div>
</body></html>
`)
	return []byte(b.String())
}

// hostileOutputs are outputs that run script in a browser unless removed,
// among them the parser-differential (mXSS) classics.
var hostileOutputs = []string{
	`<script>window.__xss=1</script>`,
	`<img src=x onerror="window.__xss=1">`,
	`<svg onload="window.__xss=1"><circle r="1"/></svg>`,
	`<a href="jav&#x09;ascript:window.__xss=1">click</a>`,
	`<a href=" JAVASCRIPT:window.__xss=1">click</a>`,
	`<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>`,
	`<object data="data:text/html,<script>parent.__xss=1</script>"></object>`,
	`<embed src="javascript:window.__xss=1">`,
	`<svg><a xlink:href="javascript:window.__xss=1"><text y="9">x</text></a></svg>`,
	`<svg><a><animate attributeName="href" values="javascript:window.__xss=1"/><text y="9">x</text></a></svg>`,
	`<math><maction actiontype="statusline" href="javascript:window.__xss=1">x</maction></math>`,
	`<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">`,
	`<base href="javascript:/">`,
	`<form action="javascript:window.__xss=1"><button>go</button></form>`,
	`<button formaction="javascript:window.__xss=1">go</button>`,
	`<details open ontoggle="window.__xss=1">d</details>`,
	`<div style="background:url(javascript:window.__xss=1)">s</div>`,
	`<svg><style><img src=x onerror="window.__xss=1"></style></svg>`,
	`<noscript><p title="</noscript><img src=x onerror=window.__xss=1>"></noscript>`,
	`<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1></style></mglyph></table></mtext></math>`,
	`</p></div></div></body><script>window.__xss=1</script>`,
	`<svg><![CDATA[><img src=x onerror=window.__xss=1>]]></svg>`,
	`<a href="data:text/html,<script>alert(1)</script>">d</a>`,
	`<img srcset="javascript:window.__xss=1 1x, x.png 2x">`,
	`<template><script>window.__xss=1</script></template>`,
	`<link rel="import" href="data:text/html,x">`,
	// Removing the script means writing the tree out; read back, the rebuilt
	// table moves the style into MathML, where its text is an element.
	`<script>x</script><math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1></style></mglyph></table></mtext></math>`,
}

// selectOutputs are markup the standard's parser (x/net/html) drops or
// moves but a browser may keep: Chromium's customizable select keeps
// elements inside a select that the older rules ignore. What the bytes hold,
// not what one parser builds from them, is what a browser runs.
var selectOutputs = []string{
	`<select><img src=x onerror="window.__xss=1"></select>`,
	`<select><svg onload="window.__xss=1"></svg></select>`,
	`<select><iframe srcdoc="<script>parent.__xss=1</script>"></iframe></select>`,
	`<select><button onclick="window.__xss=1" autofocus onfocus="window.__xss=1">b</button></select>`,
	`<select><style>@import url(javascript:x)</style><img src=x onerror="window.__xss=1"></select>`,
	`<table><select><img src=x onerror="window.__xss=1"></select></table>`,
	`<select><option><img src=x onerror="window.__xss=1"></option></select>`,
	`<select><div><a href="javascript:window.__xss=1">x</a></div></select>`,
	// A second body (or html) tag's attributes are added to the page's own.
	`</p></div><body onload="window.__xss=1">`,
	`<html onmouseover="window.__xss=1">`,
}

// tokenDangers lists what in data, read tag by tag as a tokenizer reads it
// (before any tree is built, so whatever a browser's tree builder keeps or
// drops), could run script outside the page's head: a start tag of an
// element that runs or loads script, an event handler attribute, srcdoc, or
// a URL of a scheme that is not allowed.
func tokenDangers(data []byte) []string {
	z := html.NewTokenizer(bytes.NewReader(data))
	var found []string
	inHead := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return found
		}
		tok := z.Token()
		if tok.Type == html.EndTagToken && tok.Data == "head" {
			inHead = false
		}
		if tok.Type != html.StartTagToken && tok.Type != html.SelfClosingTagToken {
			continue
		}
		if tok.Data == "head" {
			inHead = true
		}
		if inHead && tok.Data != "html" {
			continue
		}
		if dropElements[tok.Data] {
			found = append(found, "<"+tok.Data+">")
		}
		for _, a := range tok.Attr {
			key := strings.ToLower(a.Key)
			if strings.HasPrefix(key, "on") || key == "srcdoc" || key == "formaction" ||
				(urlAttrs[key] && key != "srcset" && !safeURL(a.Val)) || key == "srcset" && !safeSrcset(a.Val) {
				found = append(found, tok.Data+" "+a.Key+"="+a.Val)
			}
		}
	}
}

// dangerous lists what in the body of a parsed page could run script.
func dangerous(t *testing.T, data []byte) []string {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := body(doc)
	if b == nil {
		t.Fatal("no body")
	}
	var found []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if dropElements[strings.ToLower(n.Data)] {
				found = append(found, "<"+n.Data+">")
			}
			for _, a := range n.Attr {
				key := a.Key
				if a.Namespace != "" {
					key = a.Namespace + ":" + key
				}
				if strings.HasPrefix(strings.ToLower(a.Key), "on") || key == "srcdoc" || urlAttrs[key] && key != "srcset" && !safeURL(a.Val) ||
					key == "srcset" && !safeSrcset(a.Val) || key == "style" && unsafeStyle(a.Val) {
					found = append(found, n.Data+" "+key+"="+a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(b)
	return found
}

// Item 11, the report's second wall: every hostile output is
// removed from the body; the head's own scripts, the text, the figure and
// the links stay; a clean page loses nothing, and sanitising a sanitised
// page changes nothing.
func TestSanitize(t *testing.T) {
	clean := page("a question with $10 and <b>bold</b>")
	out, removed, err := Sanitize(clean)
	if err != nil || removed != nil {
		t.Fatalf("a clean page: removed %v, err %v", removed, err)
	}
	for _, keep := range []string{"a question with $10 and <b>bold</b>", `<body class="jp-Notebook">`} {
		if !bytes.Contains(out, []byte(keep)) {
			t.Errorf("the clean page lost %s:\n%s", keep, out)
		}
	}
	if again, removed, err := Sanitize(out); err != nil || removed != nil || !bytes.Equal(again, out) {
		t.Errorf("sanitising the sanitised clean page: removed %v, err %v, changed %v", removed, err, !bytes.Equal(again, out))
	}
	for _, h := range hostileOutputs {
		in := page(h)
		out, removed, err := Sanitize(in)
		if err != nil {
			t.Errorf("%s: %v", h, err)
			continue
		}
		if len(dangerous(t, in)) > 0 && len(removed) == 0 {
			t.Errorf("%s: nothing removed", h)
		}
		if left := dangerous(t, out); len(left) > 0 {
			t.Errorf("%s: left %v in\n%s", h, left, out)
		}
		if left := tokenDangers(out); len(left) > 0 {
			t.Errorf("%s: the written bytes hold %v:\n%s", h, left, out)
		}
		for _, keep := range []string{`require.min.js"></script>`, "text/x-mathjax-config", "visible", `src="data:image/png;base64,iVBORw0KGgo="`,
			`href="https://example.org/x#y"`, `href="#sec"`} {
			if !bytes.Contains(out, []byte(keep)) {
				t.Errorf("%s: the page lost %s", h, keep)
			}
		}
	}
}

// A page is written as the standard's parser reads it, never as given:
// markup that x/net/html drops without a trace (an img inside a select)
// but a browser keeps is gone from the bytes, as are handlers that a second
// body or html tag adds to the page's own element.
func TestSanitizeWritesWhatTheParserKept(t *testing.T) {
	for _, h := range selectOutputs {
		in := page(h)
		out, _, err := Sanitize(in)
		if err != nil {
			t.Errorf("%s: %v", h, err)
			continue
		}
		if left := tokenDangers(out); len(left) > 0 {
			t.Errorf("%s: the written bytes hold %v:\n%s", h, left, out)
		}
		if left := dangerous(t, out); len(left) > 0 {
			t.Errorf("%s: left %v", h, left)
		}
		for _, keep := range []string{`require.min.js"></script>`, "text/x-mathjax-config", "visible", `class="jp-Notebook"`} {
			if !bytes.Contains(out, []byte(keep)) {
				t.Errorf("%s: the page lost %s", h, keep)
			}
		}
	}
}

// FuzzSanitize: whatever an output holds, the written page carries no
// script element, event handler, srcdoc or script URL, read either as the
// standard's parser builds it or tag by tag (as a browser whose tree
// builder keeps more would see it), and sanitising it again removes
// nothing. A page Sanitize refuses (an error) is never written, so it is
// safe too. The same holds of a comparison page that esr report copies
// (SanitizeComparePage) with the output put into its head, a flip's
// template and its body, whose one script is the kit's own.
func FuzzSanitize(f *testing.F) {
	for _, h := range append(append([]string{}, hostileOutputs...), selectOutputs...) {
		f.Add(h)
	}
	comparison := ComparePage(hostileComparison(f))
	f.Fuzz(func(t *testing.T, output string) {
		if out, _, err := SanitizeComparePage(editedComparePage(comparison, output)); err == nil {
			if left := comparePageDangers(t, out); len(left) > 0 {
				t.Fatalf("the written comparison page holds %v:\n%s", left, out)
			}
			if again, removed, err := SanitizeComparePage(out); err != nil || len(removed) > 0 || !bytes.Equal(again, out) {
				t.Fatalf("sanitising the written comparison page again: removed %v, err %v:\n%s", removed, err, out)
			}
		}
		out, _, err := Sanitize(page(output))
		if err != nil {
			return
		}
		if left := tokenDangers(out); len(left) > 0 {
			t.Fatalf("the written bytes hold %v:\n%s", left, out)
		}
		if left := dangerous(t, out); len(left) > 0 {
			t.Fatalf("the written page holds %v:\n%s", left, out)
		}
		if _, removed, err := Sanitize(out); err != nil || len(removed) > 0 {
			t.Fatalf("sanitising the written page again: removed %v, err %v:\n%s", removed, err, out)
		}
	})
}

// The allow-lists keep the kit's own figures whole: each plot kind, inline
// as the notebooks show it (report.SVG, as nbhelp's inline SVG), loses no
// element or attribute.
func TestSanitizeKeepsTheKitsFigures(t *testing.T) {
	pts := []report.IntervalPoint{
		{Label: "coarse", Series: "family A", Est: 0.2, Lo: 0.1, Hi: 0.3},
		{Label: "fine\nledger", Series: report.Pooled, Est: 0.4, Lo: 0.3, Hi: 0.5},
		{Label: "fine\nledger", Series: report.PaperSeries, Est: 0.45, Lo: 0.45, Hi: 0.45},
	}
	heat := report.HeatCells{X: []float64{0, 1}, Y: []float64{0, 1}, Z: [][]float64{{0.1, -0.2}, {0.3, 0}},
		Labels: [][]string{{"+0.1", "-0.2"}, {"+0.3", "0"}}}
	series := map[string][]report.XYInterval{"a": {{X: 0, Est: 0.1, Lo: 0, Hi: 0.2}, {X: 1, Est: 0.3, Lo: 0.2, Hi: 0.4}}}
	for name, p := range map[string]*plot.Plot{
		"interval": report.IntervalPlot("title <x>", "Δ accuracy", pts, true),
		"bar":      report.BarPlot("bars", "accuracy", pts[:2]),
		"line":     report.LinePlot("lines", "p", "Δ", series, []string{"a"}, true),
		"heat":     report.HeatMap("heat", "x", "y", heat),
	} {
		svg, err := report.SVG(p, 16*vg.Centimeter, 10*vg.Centimeter)
		if err != nil {
			t.Fatal(err)
		}
		inline := "<div>" + string(svg[bytes.Index(svg, []byte("<svg")):]) + "</div>"
		if _, removed, err := Sanitize(page(inline)); err != nil || len(removed) > 0 {
			t.Errorf("%s plot: removed %v, err %v", name, removed, err)
		}
	}
}
