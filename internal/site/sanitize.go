package site

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
// Sanitize keeps, in the body of a page that nbconvert wrote, only the
// elements and attributes allowlist.go lists, with URLs of scheme http,
// https or mailto or a data: image, and writes the page out again as the
// standard's parser read it. The page's own scripts (require.js, MathJax and
// its configuration) are in its head, which nbconvert's template writes and
// no output reaches, and stay.

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

// clean takes out of n's subtree, and of n's own attributes, what the
// allow-lists (and also, keepElement's) do not keep, and reports what it
// took out (nil: nothing). Comments go too, silently: they cannot run
// script, but nothing in a report needs them and they are where parsers
// disagree.
func clean(n *html.Node, also map[string]bool) []string {
	removed := cleanAttrs(n)
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			switch c.Type {
			case html.CommentNode:
				n.RemoveChild(c)
			case html.ElementNode:
				keep, drop := keepElement(c.Namespace, strings.ToLower(c.Data), also)
				switch {
				case drop:
					removed = append(removed, "<"+c.Data+">")
					n.RemoveChild(c)
				case !keep:
					// Unwrapped: its children take its place and are
					// cleaned in turn.
					removed = append(removed, "<"+c.Data+"> (its text kept)")
					if c.FirstChild != nil {
						next = c.FirstChild
					}
					for g := c.FirstChild; g != nil; g = c.FirstChild {
						c.RemoveChild(g)
						n.InsertBefore(g, c)
					}
					n.RemoveChild(c)
				default:
					removed = append(removed, cleanAttrs(c)...)
					walk(c)
				}
			}
			c = next
		}
	}
	walk(n)
	return removed
}

// cleanAttrs takes out of n's attributes those the allow-lists do not keep,
// and reports them.
func cleanAttrs(n *html.Node) []string {
	var removed []string
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		key := strings.ToLower(a.Key)
		if a.Namespace != "" {
			key = strings.ToLower(a.Namespace) + ":" + key
		}
		if !keepAttr(n.Namespace, key, a.Val) {
			removed = append(removed, n.Data+" "+key)
			continue
		}
		kept = append(kept, a)
	}
	n.Attr = kept
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

// Sanitize returns page with what can run script taken out of its body
// (see the package's second wall), and what was taken out. The page comes
// back as the standard's parser (x/net/html) read it, written out again,
// never as given: a parser that reads the given bytes otherwise builds
// something else from them (Chromium's customizable select keeps an img
// with its onerror that the standard's select drops without a trace, so
// nothing is found to remove). Written out, the page is parsed and cleaned
// again until nothing is left to take out: writing a tree out and reading
// it back can move markup (a style whose text becomes an element once the
// table around it is rebuilt). A page that is not clean after a few rounds,
// or has no body (a frameset), is an error, never written.
func Sanitize(page []byte) (out []byte, removed []string, err error) {
	return sanitize(page, nil, html.Render)
}

// SanitizeComparePage is Sanitize for a comparison page (ComparePage's)
// from a folder esr report is given: its marker proves nothing, so the
// page's head, which Sanitize trusts as nbconvert's, is written anew as
// ComparePage writes it (the kit's own style and its one script, the
// page's title as text), and its body keeps what a notebook page's body
// keeps and the templates that hold the flips' renders, their contents
// cleaned alike. The page ComparePage writes loses nothing.
func SanitizeComparePage(page []byte) (out []byte, removed []string, err error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, nil, err
	}
	if !bytes.HasPrefix(page, []byte(compareHead(headTitle(doc)))) {
		removed = append(removed, "the page's head (written anew as esr compare writes it)")
	}
	out, left, err := sanitize(page, map[string]bool{"template": true}, func(w io.Writer, doc *html.Node) error {
		b := body(doc)
		if b == nil {
			return errors.New("the page has no body")
		}
		if _, err := io.WriteString(w, compareHead(headTitle(doc))); err != nil {
			return err
		}
		if err := html.Render(w, b); err != nil {
			return err
		}
		_, err := io.WriteString(w, "</html>")
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return out, append(removed, left...), nil
}

// headTitle is the text of the title element of doc's head.
func headTitle(doc *html.Node) string {
	var find func(n *html.Node, inHead bool) string
	find = func(n *html.Node, inHead bool) string {
		if n.Type == html.ElementNode && n.DataAtom == atom.Body {
			return ""
		}
		if inHead && n.Type == html.ElementNode && n.DataAtom == atom.Title {
			var b strings.Builder
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.TextNode {
					b.WriteString(c.Data)
				}
			}
			return b.String()
		}
		inHead = inHead || n.Type == html.ElementNode && n.DataAtom == atom.Head
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if t := find(c, inHead); t != "" {
				return t
			}
		}
		return ""
	}
	return find(doc, false)
}

// sanitize is Sanitize with the elements of dropElements the page keeps
// (also) and how its cleaned tree is written out (write).
func sanitize(page []byte, also map[string]bool, write func(io.Writer, *html.Node) error) (out []byte, removed []string, err error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, nil, err
	}
	left, err := cleanPage(doc, also)
	if err != nil {
		return nil, nil, err
	}
	removed = left
	for range 5 {
		var buf bytes.Buffer
		if err := write(&buf, doc); err != nil {
			return nil, nil, err
		}
		if doc, err = html.Parse(bytes.NewReader(buf.Bytes())); err != nil {
			return nil, nil, err
		}
		if left, err = cleanPage(doc, also); err != nil {
			return nil, nil, err
		}
		if len(left) == 0 {
			return buf.Bytes(), removed, nil
		}
		removed = append(removed, left...)
	}
	return nil, nil, fmt.Errorf("the sanitised page still holds %s after five rounds", strings.Join(left, ", "))
}

// cleanPage cleans doc's body and the attributes of its html element (a
// second <html> or <body> tag in an output adds its attributes to the
// page's own elements).
func cleanPage(doc *html.Node, also map[string]bool) ([]string, error) {
	b := body(doc)
	if b == nil {
		return nil, errors.New("the page has no body")
	}
	removed := clean(b, also)
	if h := b.Parent; h != nil && h.Type == html.ElementNode {
		removed = append(removed, cleanAttrs(h)...) // its head is the page's own
	}
	return removed, nil
}

// SanitizePages runs Sanitize over every .html file in dir (the report:
// nbconvert's pages and the index), rewriting (atomically) each page whose
// sanitised bytes differ from its own. It returns, per page, what was
// removed.
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
		if bytes.Equal(clean, page) {
			continue
		}
		if err := safefile.WriteFile(f, clean, 0o644); err != nil {
			return nil, err
		}
		if len(removed) > 0 {
			out[filepath.Base(f)] = removed
		}
	}
	return out, nil
}
