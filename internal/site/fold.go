package site

import (
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// OptionalPrefix starts the heading of a notebook section that a page's
// reader may skip: "## Optional · Table 3 …". On a report page such a
// section (its heading's cell and every cell up to the next cell with a
// level-1 or level-2 heading) is folded under its heading, so the page
// shows what answers its title and keeps the rest one click away. The
// notebook itself is unchanged: in Jupyter every section is open.
const OptionalPrefix = "Optional"

// foldOptional folds each optional section of a notebook page's body in a
// closed <details class="esr-optional">, its summary the section's heading.
// Cells are nbconvert's (lab template "jp-Cell", classic "cell") siblings.
func foldOptional(body *xhtml.Node) {
	for _, parent := range cellParents(body) {
		var cells []*xhtml.Node
		for c := parent.FirstChild; c != nil; c = c.NextSibling {
			if isCell(c) {
				cells = append(cells, c)
			}
		}
		for i := 0; i < len(cells); i++ {
			title, ok := sectionHeading(cells[i])
			if !ok || !strings.HasPrefix(title, OptionalPrefix) {
				continue
			}
			j := i + 1
			for j < len(cells) {
				if _, next := sectionHeading(cells[j]); next {
					break
				}
				j++
			}
			d := &xhtml.Node{Type: xhtml.ElementNode, Data: "details", DataAtom: atom.Details,
				Attr: []xhtml.Attribute{{Key: "class", Val: "esr-optional"}, {Key: "style", Val: "margin:8px 0;border-left:3px solid #d5dde8;padding-left:8px"}}}
			s := &xhtml.Node{Type: xhtml.ElementNode, Data: "summary", DataAtom: atom.Summary,
				Attr: []xhtml.Attribute{{Key: "style", Val: "cursor:pointer;font-family:sans-serif;font-size:15px;padding:4px 0"}}}
			s.AppendChild(&xhtml.Node{Type: xhtml.TextNode, Data: title + " (folded on this page: click to open)"})
			d.AppendChild(s)
			parent.InsertBefore(d, cells[i])
			for _, c := range cells[i:j] {
				parent.RemoveChild(c)
				d.AppendChild(c)
			}
			i = j - 1
		}
	}
}

// isCell reports whether n is one of nbconvert's notebook cells.
func isCell(n *xhtml.Node) bool {
	return n.Type == xhtml.ElementNode && n.DataAtom == atom.Div && (hasClass(n, "jp-Cell") || hasClass(n, "cell"))
}

// cellParents are the elements under n that hold cells, each once.
func cellParents(n *xhtml.Node) []*xhtml.Node {
	var out []*xhtml.Node
	seen := map[*xhtml.Node]bool{}
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if isCell(c) {
				if !seen[n] {
					seen[n] = true
					out = append(out, n)
				}
				continue
			}
			walk(c)
		}
	}
	walk(n)
	return out
}

// sectionHeading is the text of the first h1 or h2 inside cell (without
// nbconvert's "¶" anchor), and whether it has one.
func sectionHeading(cell *xhtml.Node) (string, bool) {
	var h *xhtml.Node
	var find func(n *xhtml.Node)
	find = func(n *xhtml.Node) {
		for c := n.FirstChild; c != nil && h == nil; c = c.NextSibling {
			if c.Type == xhtml.ElementNode && (c.DataAtom == atom.H1 || c.DataAtom == atom.H2) {
				h = c
				return
			}
			find(c)
		}
	}
	find(cell)
	if h == nil {
		return "", false
	}
	var b strings.Builder
	var text func(n *xhtml.Node)
	text = func(n *xhtml.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == xhtml.TextNode {
				b.WriteString(c.Data)
			}
			text(c)
		}
	}
	text(h)
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(b.String()), "¶")), true
}
