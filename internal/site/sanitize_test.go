package site

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
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

// Item 11 (issue 30), the report's second wall: every hostile output is
// removed from the body; the head's own scripts, the text, the figure and
// the links stay; a page with nothing hostile is not rewritten at all.
func TestSanitize(t *testing.T) {
	clean := page("a question with $10 and <b>bold</b>")
	out, removed, err := Sanitize(clean)
	if err != nil || removed != nil || !bytes.Equal(out, clean) {
		t.Fatalf("a clean page: removed %v, err %v, changed %v", removed, err, !bytes.Equal(out, clean))
	}
	for _, h := range hostileOutputs {
		in := page(h)
		if len(dangerous(t, in)) == 0 {
			// Parsed as a browser parses it (x/net/html follows the HTML
			// standard), the markup is text: nothing to remove, and the page
			// is served as written (the browser test loads it).
			if out, removed, err := Sanitize(in); err != nil || removed != nil || !bytes.Equal(out, in) {
				t.Errorf("%s: %v %v", h, removed, err)
			}
			continue
		}
		out, removed, err := Sanitize(in)
		if err != nil {
			t.Errorf("%s: %v", h, err)
			continue
		}
		if len(removed) == 0 {
			t.Errorf("%s: nothing removed", h)
		}
		if left := dangerous(t, out); len(left) > 0 {
			t.Errorf("%s: left %v in\n%s", h, left, out)
		}
		for _, keep := range []string{`require.min.js"></script>`, "text/x-mathjax-config", "visible", `src="data:image/png;base64,iVBORw0KGgo="`,
			`href="https://example.org/x#y"`, `href="#sec"`} {
			if !bytes.Contains(out, []byte(keep)) {
				t.Errorf("%s: the page lost %s", h, keep)
			}
		}
	}
}
