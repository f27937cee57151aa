package site

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/esrkit/esrkit/internal/safefile"
)

// The report's second wall. Text from data is escaped where it enters a
// notebook's Markdown or HTML (report.MarkdownText, html.EscapeString); if
// a cell forgets to, nbconvert copies the markup into the page verbatim.
// Sanitize removes, from the body of a page that nbconvert wrote, everything
// that can run script: script-like elements, event handler attributes and
// URLs of a scheme that is not http, https, mailto or a data: image. The
// page's own scripts (require.js, MathJax and its configuration) are in its
// head, which nbconvert's template writes and no output reaches, and stay.

// dropElements are removed with everything in them.
var dropElements = map[string]bool{
	"script": true, "iframe": true, "frame": true, "frameset": true, "object": true, "embed": true, "applet": true,
	"base": true, "meta": true, "link": true, "template": true, "portal": true, "form": true,
	// SVG animation can set an attribute (an href) to a javascript: URL.
	"animate": true, "set": true, "animatemotion": true, "animatetransform": true, "handler": true, "listener": true,
}

// urlAttrs are attributes whose value is a URL (or a list of them).
var urlAttrs = map[string]bool{
	"href": true, "src": true, "action": true, "formaction": true, "data": true, "poster": true, "background": true,
	"lowsrc": true, "dynsrc": true, "cite": true, "codebase": true, "ping": true, "srcset": true, "xlink:href": true,
}

// safeURL reports whether a URL attribute's value may stay: relative, a
// fragment, or of scheme http, https or mailto, or a data: URL of a raster
// image (the notebooks' PNG figures).
func safeURL(v string) bool {
	// Browsers ignore ASCII whitespace and control characters inside a
	// scheme ("jav&#x09;ascript:"): so does this check.
	var b strings.Builder
	for _, r := range v {
		if r > ' ' && r != 0x7f {
			b.WriteRune(r)
		}
	}
	u := strings.ToLower(b.String())
	colon := strings.IndexByte(u, ':')
	if colon < 0 || strings.ContainsAny(u[:colon], "/?#") {
		return true // no scheme: relative
	}
	switch scheme := u[:colon]; scheme {
	case "http", "https", "mailto":
		return true
	case "data":
		for _, t := range []string{"data:image/png", "data:image/jpeg", "data:image/gif", "data:image/webp"} {
			if strings.HasPrefix(u, t+";") || strings.HasPrefix(u, t+",") {
				return true
			}
		}
	}
	return false
}

// unsafeStyle reports whether a style attribute could run script (old
// engines' expression(), javascript: URLs, bindings).
func unsafeStyle(v string) bool {
	v = strings.ToLower(strings.Join(strings.Fields(v), ""))
	for _, bad := range []string{"javascript:", "vbscript:", "expression(", "-moz-binding", "behavior:"} {
		if strings.Contains(v, bad) {
			return true
		}
	}
	return false
}

// clean removes from n's subtree what can run script, and reports what it
// removed (nil: nothing).
func clean(n *html.Node) []string {
	var removed []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode && dropElements[strings.ToLower(c.Data)] {
				removed = append(removed, "<"+c.Data+">")
				n.RemoveChild(c)
				c = next
				continue
			}
			if c.Type == html.ElementNode {
				kept := c.Attr[:0]
				for _, a := range c.Attr {
					key := strings.ToLower(a.Key)
					if a.Namespace != "" {
						key = strings.ToLower(a.Namespace) + ":" + key
					}
					switch {
					case strings.HasPrefix(strings.ToLower(a.Key), "on"),
						key == "srcdoc",
						key == "srcset" && !safeSrcset(a.Val),
						urlAttrs[key] && key != "srcset" && !safeURL(a.Val),
						key == "style" && unsafeStyle(a.Val):
						removed = append(removed, c.Data+" "+a.Key)
						continue
					}
					kept = append(kept, a)
				}
				c.Attr = kept
			}
			walk(c)
			c = next
		}
	}
	walk(n)
	return removed
}

// safeSrcset checks each URL of a srcset list ("URL 1x, URL 2x").
func safeSrcset(v string) bool {
	for _, item := range strings.Split(v, ",") {
		if f := strings.Fields(item); len(f) > 0 && !safeURL(f[0]) {
			return false
		}
	}
	return true
}

// body is the page's body element, or nil.
func body(doc *html.Node) *html.Node {
	var find func(n *html.Node) *html.Node
	find = func(n *html.Node) *html.Node {
		if n.Type == html.ElementNode && n.DataAtom == atom.Body {
			return n
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if b := find(c); b != nil {
				return b
			}
		}
		return nil
	}
	return find(doc)
}

// Sanitize returns page with everything that can run script removed from
// its body (see the package's second wall), and what was removed; a page
// with nothing to remove comes back unchanged, byte for byte. The result is
// parsed again as a browser parses it and cleaned again until nothing is
// left: writing a tree out and reading it back can move markup (a style
// whose text becomes an element once the table around it is rebuilt), so a
// page is only returned when its own bytes parse to a clean body. A page
// that is not clean after a few rounds is an error, never written.
func Sanitize(page []byte) (out []byte, removed []string, err error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, nil, err
	}
	b := body(doc)
	if b == nil {
		return page, nil, nil
	}
	if removed = clean(b); len(removed) == 0 {
		return page, nil, nil
	}
	var left []string
	for range 5 {
		var buf bytes.Buffer
		if err := html.Render(&buf, doc); err != nil {
			return nil, nil, err
		}
		if doc, err = html.Parse(bytes.NewReader(buf.Bytes())); err != nil {
			return nil, nil, err
		}
		b := body(doc)
		if b == nil {
			return buf.Bytes(), removed, nil
		}
		if left = clean(b); len(left) == 0 {
			return buf.Bytes(), removed, nil
		}
		removed = append(removed, left...)
	}
	return nil, nil, fmt.Errorf("the sanitised page still holds %s after five rounds", strings.Join(left, ", "))
}

// SanitizePages runs Sanitize over every .html file in dir (the report:
// nbconvert's pages and the index), rewriting the pages that held
// something (atomically) and leaving the others as they are. It returns,
// per rewritten page, what was removed.
func SanitizePages(dir string) (map[string][]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	out := map[string][]string{}
	for _, f := range files {
		page, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		clean, removed, err := Sanitize(page)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if len(removed) == 0 {
			continue
		}
		if err := safefile.WriteFile(f, clean, 0o644); err != nil {
			return nil, err
		}
		out[filepath.Base(f)] = removed
	}
	return out, nil
}
