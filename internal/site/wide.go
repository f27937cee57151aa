package site

import (
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TableScrollClass marks the box a report page puts around each table of a
// cell's output.
const TableScrollClass = "esr-table-scroll"

// scrollTables puts each table of a notebook page's cell outputs in a box
// of its own that scrolls sideways, sized to the output and not to the
// table (contain:inline-size): a table wider than the page (esr compare's
// flips, seventeen columns) then scrolls in its box, and the prose around
// it keeps the page's width. Without the box the table's width set the
// whole output's, prose included. Tables already in such a box are left
// as they are, so running it twice changes nothing.
func scrollTables(body *xhtml.Node) {
	var tables []*xhtml.Node
	var walk func(n *xhtml.Node, inOutput bool)
	walk = func(n *xhtml.Node, inOutput bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != xhtml.ElementNode {
				continue
			}
			if hasClass(c, TableScrollClass) {
				continue
			}
			if c.DataAtom == atom.Table {
				if inOutput {
					tables = append(tables, c)
				}
				continue // a table inside a table scrolls with its table
			}
			walk(c, inOutput || hasClass(c, "jp-OutputArea-output") || hasClass(c, "output_area"))
		}
	}
	walk(body, false)
	for _, t := range tables {
		box := &xhtml.Node{Type: xhtml.ElementNode, Data: "div", DataAtom: atom.Div,
			Attr: []xhtml.Attribute{{Key: "class", Val: TableScrollClass}, {Key: "style", Val: "overflow-x:auto;contain:inline-size"}}}
		t.Parent.InsertBefore(box, t)
		t.Parent.RemoveChild(t)
		box.AppendChild(t)
	}
}

// hasClass reports whether element n has class c.
func hasClass(n *xhtml.Node, c string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" {
			for _, f := range strings.Fields(a.Val) {
				if f == c {
					return true
				}
			}
		}
	}
	return false
}
