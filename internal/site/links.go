package site

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/esrkit/esrkit/internal/safefile"
)

// The report is read offline, as a folder of pages: every link inside it
// must land on a page inside it. nbconvert keeps a notebook's links as the
// notebook wrote them, relative to notebooks/: "00-quickstart.ipynb#glossary"
// (the report holds 00-quickstart.html) and "../docs/reader-model.md" (a
// repository file). LinkPages rewrites the first to the notebook's page,
// renders the second into report/docs/ (MarkdownPage) and points the link
// there, and takes the href off any other local link whose target is not
// in the report, saying so. It also puts previous/next links along the lab
// path (LabPath) at the top and bottom of every lab page.

// DocsDir is the report's folder of repository documents, as HTML.
const DocsDir = "docs"

// navIDs are the ids of the lab path's navigation bars LinkPages inserts
// (and replaces on a rerun).
var navIDs = []string{"esr-labnav-top", "esr-labnav-bottom"}

type linker struct {
	out, repo string                     // the report folder; the repository root (the notebooks folder's parent)
	docs      map[string]string          // repository document (absolute) -> its page in the report ("docs/x.html")
	byPage    map[string]string          // the reverse, to find two documents wanting one page
	queue     []string                   // documents linked to but not yet written
	ids       map[string]map[string]bool // the ids of a page of the report, read once
	images    map[string]bool            // repository images copied under FilesDir in this run
	notes     []string
}

// LinkPages rewrites the links of the report in outDir: index.html, the
// cards' pages NAME.html, and the repository documents they link to, which
// it writes under outDir/docs. notebooksDir is the folder the notebooks'
// relative links start from (the source notebooks, notebooks/); documents
// are copied only from inside its parent, the repository. It returns one
// note per link it had to take off, naming the page and the target.
func LinkPages(outDir, notebooksDir string, cards []Card) ([]string, error) {
	nbDir, err := filepath.Abs(notebooksDir)
	if err != nil {
		return nil, err
	}
	l := &linker{out: outDir, repo: filepath.Dir(nbDir), docs: map[string]string{}, byPage: map[string]string{}, ids: map[string]map[string]bool{}, images: map[string]bool{}}
	// The path's stops with a page in the report: previous/next skip the rest.
	var stops []labStop
	for _, st := range labStops(cards) {
		if _, err := os.Stat(filepath.Join(outDir, st.Name+".html")); err == nil {
			stops = append(stops, st)
		}
	}
	for _, c := range cards {
		page := c.Name + ".html"
		if _, err := os.Stat(filepath.Join(outDir, page)); err != nil {
			continue
		}
		// Every notebook page folds its optional sections and gives its
		// output tables a scroll box each; a page of the lab path gets
		// its previous/next bars too.
		nav := func(body *xhtml.Node) error { foldOptional(body); scrollTables(body); return nil }
		for i, st := range stops {
			if st.Name == c.Name {
				nav = func(body *xhtml.Node) error { foldOptional(body); scrollTables(body); return insertNav(body, stops, i) }
			}
		}
		if err := l.rewritePage(page, nbDir, nil, nav); err != nil {
			return nil, err
		}
	}
	if err := l.rewritePage("index.html", nbDir, nil, nil); err != nil {
		return nil, err
	}
	for len(l.queue) > 0 {
		doc := l.queue[0]
		l.queue = l.queue[1:]
		src, err := os.ReadFile(doc)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(l.repo, doc)
		page := l.docs[doc]
		back := relHref(path.Dir(page), "index.html")
		if err := l.rewritePage(page, filepath.Dir(doc), []byte(MarkdownPage(filepath.ToSlash(rel), string(src), back)), nil); err != nil {
			return nil, err
		}
	}
	return l.notes, nil
}

// rewritePage rewrites the links of the page at rel (inside the report;
// its content is content, or the file as it is when content is nil), whose
// relative links were written from srcDir, runs nav on its body, and
// writes it back when anything changed.
func (l *linker) rewritePage(rel, srcDir string, content []byte, nav func(*xhtml.Node) error) error {
	file := filepath.Join(l.out, filepath.FromSlash(rel))
	fresh := content != nil
	if !fresh {
		b, err := os.ReadFile(file)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		content = b
	}
	doc, err := xhtml.Parse(bytes.NewReader(content))
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == xhtml.ElementNode {
				l.rewriteElement(c, rel, srcDir)
				walk(c)
			}
			c = next
		}
	}
	walk(doc)
	if nav != nil {
		b := body(doc)
		if b == nil {
			return fmt.Errorf("%s: the page has no body", file)
		}
		if err := nav(b); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	var buf bytes.Buffer
	if err := xhtml.Render(&buf, doc); err != nil {
		return err
	}
	if !fresh && bytes.Equal(buf.Bytes(), content) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return safefile.WriteFile(file, buf.Bytes(), 0o644)
}

// rewriteElement rewrites n's href (a, area) or src (img and the like) when
// it points at a notebook or a repository file; a link whose target is not
// in the report loses its href (the text stays), an image its element.
func (l *linker) rewriteElement(n *xhtml.Node, page, srcDir string) {
	for i, a := range n.Attr {
		if a.Namespace != "" || (a.Key != "href" && a.Key != "src") {
			continue
		}
		if n.DataAtom == atom.Link || n.DataAtom == atom.Script {
			return // the page's own head: stylesheets and scripts nbconvert's template names
		}
		target, ok := l.resolve(a.Val, page, srcDir)
		if ok {
			n.Attr[i].Val = target
			return
		}
		l.notes = append(l.notes, fmt.Sprintf("%s: %s %q is not in the report (no such notebook page or repository document); the link is taken off", page, a.Key, a.Val))
		if a.Key == "href" {
			n.Attr = append(n.Attr[:i], n.Attr[i+1:]...)
			n.Attr = append(n.Attr, xhtml.Attribute{Key: "title", Val: "not in the report: " + a.Val})
			return
		}
		alt := ""
		for _, b := range n.Attr {
			if b.Key == "alt" {
				alt = b.Val
			}
		}
		if p := n.Parent; p != nil {
			p.InsertBefore(&xhtml.Node{Type: xhtml.TextNode, Data: "[" + strings.TrimSpace(alt+" (not in the report)") + "]"}, n)
			p.RemoveChild(n)
		}
		return
	}
}

// resolve maps a link written on page (from srcDir) to a link that works
// inside the report: unchanged when it is external, a fragment, or a file
// that is there; a notebook's page for NAME.ipynb; a rendered document for
// a Markdown file of the repository. ok is false when none of these holds.
func (l *linker) resolve(v, page, srcDir string) (string, bool) {
	if v == "" || strings.HasPrefix(v, "#") || strings.HasPrefix(v, "//") {
		return v, true
	}
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return v, true // external (or not a URL the report could follow): left to the sanitiser
	}
	_, frag, _ := strings.Cut(v, "#")
	pageDir := path.Dir(page)
	p := u.Path
	if strings.HasSuffix(p, ".ipynb") {
		name := path.Base(strings.TrimSuffix(p, ".ipynb")) + ".html"
		if _, err := os.Stat(filepath.Join(l.out, name)); err != nil {
			return "", false
		}
		return relHref(pageDir, name) + l.fragment(page, name, frag), true
	}
	if path.IsAbs(p) {
		return "", false
	}
	inReport := path.Join(pageDir, p)
	if !strings.HasPrefix(inReport, "../") && inReport != ".." {
		if _, err := os.Stat(filepath.Join(l.out, filepath.FromSlash(inReport))); err == nil {
			return v, true
		}
	}
	src := filepath.Join(srcDir, filepath.FromSlash(p))
	if strings.EqualFold(filepath.Ext(src), ".png") {
		target, ok := l.repoImage(src)
		if !ok {
			return "", false
		}
		return relHref(pageDir, target), true
	}
	if !strings.EqualFold(filepath.Ext(src), ".md") {
		return "", false
	}
	if in, err := safefile.Inside(src, l.repo); err != nil || !in {
		return "", false
	}
	if fi, err := os.Stat(src); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	target, ok := l.docPage(src)
	if !ok {
		return "", false
	}
	return relHref(pageDir, target) + l.fragment(page, target, frag), true
}

// fragment is "#frag" when target (a page of the report) has that id (as
// written or percent-decoded); else the one id that matches it but for
// case and spaces (nbconvert's "Glossary" for "#glossary", GitHub's slug
// for a heading), or "" (the link goes to the page's top), said in a note.
func (l *linker) fragment(page, target, frag string) string {
	if frag == "" {
		return ""
	}
	ids := l.pageIDs(target)
	dec, err := url.PathUnescape(frag)
	if err != nil {
		dec = frag
	}
	if ids[frag] || ids[dec] {
		return "#" + frag
	}
	var match []string
	for id := range ids {
		d, err := url.PathUnescape(id)
		if err != nil {
			d = id
		}
		if strings.EqualFold(d, dec) || slug(strings.ReplaceAll(d, "-", " ")) == slug(strings.ReplaceAll(dec, "-", " ")) {
			match = append(match, id)
		}
	}
	if len(match) == 1 {
		return "#" + match[0]
	}
	l.notes = append(l.notes, fmt.Sprintf("%s: %s has no id %q; the link goes to the top of the page", page, target, dec))
	return ""
}

// pageIDs are the ids (and a names) of the report's page rel: the file,
// or a document's rendering (docPage) before it is written.
func (l *linker) pageIDs(rel string) map[string]bool {
	if ids, ok := l.ids[rel]; ok {
		return ids
	}
	b, _ := os.ReadFile(filepath.Join(l.out, filepath.FromSlash(rel)))
	ids := idsOf(b)
	l.ids[rel] = ids
	return ids
}

// idsOf lists the ids of the elements of an HTML page, and the names of its a elements.
func idsOf(page []byte) map[string]bool {
	ids := map[string]bool{}
	doc, err := xhtml.Parse(bytes.NewReader(page))
	if err != nil {
		return ids
	}
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode {
			for _, a := range n.Attr {
				if a.Key == "id" || a.Key == "name" && n.DataAtom == atom.A {
					ids[a.Val] = true
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return ids
}

// docPage is the report page of the repository document src: docs/NAME.html
// for docs/NAME.md, docs/PATH.html for any other PATH.md (README.md:
// docs/README.html). It queues the document the first time.
func (l *linker) docPage(src string) (string, bool) {
	if p, ok := l.docs[src]; ok {
		return p, true
	}
	rel, err := filepath.Rel(l.repo, src)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	page := DocsDir + "/" + strings.TrimSuffix(strings.TrimPrefix(rel, DocsDir+"/"), filepath.Ext(rel)) + ".html"
	if other, taken := l.byPage[page]; taken && other != src {
		return "", false // README.md and docs/README.md: the first keeps the page
	}
	l.docs[src], l.byPage[page] = page, src
	l.queue = append(l.queue, src)
	if b, err := os.ReadFile(src); err == nil {
		l.ids[page] = idsOf([]byte(MarkdownHTML(string(b))))
	}
	return page, true
}

// maxImageBytes bounds a repository image copied into the report.
const maxImageBytes = 16 << 20

// repoImage copies the repository's PNG image src (a figure a document
// links to, such as the model card's anchor figures) into the report under
// FilesDir, at its path in the repository, and returns that path from the
// report's top. Only a regular file inside the repository whose bytes are
// a PNG's is copied: an image is shown, never run. ok is false otherwise.
func (l *linker) repoImage(src string) (string, bool) {
	if in, err := safefile.Inside(src, l.repo); err != nil || !in {
		return "", false
	}
	fi, err := os.Lstat(src)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxImageBytes {
		return "", false
	}
	rel, err := filepath.Rel(l.repo, src)
	if err != nil {
		return "", false
	}
	target := FilesDir + "/" + filepath.ToSlash(rel)
	dst := filepath.Join(l.out, filepath.FromSlash(target))
	if l.images[target] {
		return target, true // copied for an earlier link of this run
	}
	b, err := os.ReadFile(src)
	if err != nil || !bytes.HasPrefix(b, pngMagic) {
		return "", false
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", false
	}
	if err := safefile.WriteFile(dst, b, 0o644); err != nil {
		return "", false
	}
	l.images[target] = true
	return target, true
}

// FilesDir is the report's folder for repository images its pages link to.
const FilesDir = "files"

// IsOwnFiles reports whether dir holds only what repoImage writes there:
// folders and PNG files.
func IsOwnFiles(dir string) bool {
	own := true
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && !(d.Type().IsRegular() && strings.EqualFold(filepath.Ext(p), ".png")) {
			own = false
			return filepath.SkipAll
		}
		return nil
	})
	return err == nil && own
}

// pngMagic is the PNG signature (RFC 2083 §3.1).
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// relHref is the relative link from a page in folder from (inside the
// report, "." for its top) to target (a path from the report's top).
func relHref(from, target string) string {
	if from == "." || from == "" {
		return target
	}
	f, t := strings.Split(from, "/"), strings.Split(target, "/")
	for len(f) > 0 && len(t) > 1 && f[0] == t[0] {
		f, t = f[1:], t[1:]
	}
	return strings.Repeat("../", len(f)) + strings.Join(t, "/")
}

// insertNav puts the lab path's previous/next bar at the top and the
// bottom of body, for stops[i], replacing bars an earlier run put there.
// The first stop's previous and the last's next are the index's lab path.
func insertNav(body *xhtml.Node, stops []labStop, i int) error {
	var drop []*xhtml.Node
	var find func(n *xhtml.Node)
	find = func(n *xhtml.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == xhtml.ElementNode {
				for _, a := range c.Attr {
					if a.Key == "id" && (a.Val == navIDs[0] || a.Val == navIDs[1]) {
						drop = append(drop, c)
					}
				}
				find(c)
			}
		}
	}
	find(body)
	for _, n := range drop {
		n.Parent.RemoveChild(n)
	}
	prev, prevText := "index.html#lab-path", "← The lab path (index)"
	if i > 0 {
		prev, prevText = stops[i-1].Name+".html", "← Previous: "+stops[i-1].Title
	}
	next, nextText := "index.html#lab-path", "Back to the lab path (index) →"
	if i+1 < len(stops) {
		next, nextText = stops[i+1].Name+".html", "Next: "+stops[i+1].Title+" →"
		if stops[i+1].Extra && !stops[i].Extra {
			nextText = "Extra: " + stops[i+1].Title + " →"
		}
	}
	main := 0
	for _, st := range stops {
		if !st.Extra {
			main++
		}
	}
	where := fmt.Sprintf("Lab path, step %d of %d, %d min", i+1, main, stops[i].Minutes)
	if stops[i].Extra {
		where = fmt.Sprintf("Lab path, extra, %d min", stops[i].Minutes)
	}
	for k, id := range navIDs {
		frag := fmt.Sprintf(`<nav class="esr-labnav" id="%s" style="display:flex;justify-content:space-between;gap:1em;padding:6px 12px;margin:8px 0;background:#f3f6fa;border:1px solid #d5dde8;font-family:sans-serif;font-size:14px">`+
			`<a rel="prev" href="%s">%s</a><a href="index.html#lab-path">%s</a><a rel="next" href="%s">%s</a></nav>`,
			id, html.EscapeString(prev), html.EscapeString(prevText), html.EscapeString(where), html.EscapeString(next), html.EscapeString(nextText))
		nodes, err := xhtml.ParseFragment(strings.NewReader(frag), &xhtml.Node{Type: xhtml.ElementNode, Data: "body", DataAtom: atom.Body})
		if err != nil {
			return err
		}
		for _, n := range nodes {
			if k == 0 {
				body.InsertBefore(n, body.FirstChild)
			} else {
				body.AppendChild(n)
			}
		}
	}
	return nil
}

// BrokenLinks crawls every .html page under dir and lists each local
// href or src whose target is not a file inside dir, and each #fragment
// that names no id (or a's name) in its target page: "PAGE: LINK: why".
// External links (a scheme, or //host) are not followed.
func BrokenLinks(dir string) ([]string, error) {
	ids := map[string]map[string]bool{}
	type ref struct{ page, attr, val string }
	var refs []ref
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		doc, err := xhtml.Parse(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		own := map[string]bool{}
		var walk func(n *xhtml.Node)
		walk = func(n *xhtml.Node) {
			if n.Type == xhtml.ElementNode {
				for _, a := range n.Attr {
					switch {
					case a.Key == "id", a.Key == "name" && n.DataAtom == atom.A:
						own[a.Val] = true
					case a.Key == "href" || a.Key == "src":
						refs = append(refs, ref{rel, a.Key, a.Val})
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
		ids[rel] = own
		return nil
	})
	if err != nil {
		return nil, err
	}
	var broken []string
	for _, r := range refs {
		if r.val == "" || r.val == "#" || strings.HasPrefix(r.val, "//") {
			continue
		}
		u, err := url.Parse(r.val)
		if err != nil {
			broken = append(broken, fmt.Sprintf("%s: %s %q: %v", r.page, r.attr, r.val, err))
			continue
		}
		if u.Scheme != "" || u.Host != "" {
			continue
		}
		target := r.page
		if u.Path != "" {
			target = path.Join(path.Dir(r.page), u.Path)
			if target == ".." || strings.HasPrefix(target, "../") {
				broken = append(broken, fmt.Sprintf("%s: %s %q: leaves the report", r.page, r.attr, r.val))
				continue
			}
			if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil || fi.IsDir() {
				broken = append(broken, fmt.Sprintf("%s: %s %q: no file %s in the report", r.page, r.attr, r.val, target))
				continue
			}
		}
		// As browsers look a fragment up: as written, then percent-decoded
		// (nbconvert writes ids percent-encoded: id="The-%E2%8A%95-ledger").
		_, raw, _ := strings.Cut(r.val, "#")
		if u.Fragment != "" && strings.HasSuffix(target, ".html") && !ids[target][raw] && !ids[target][u.Fragment] {
			broken = append(broken, fmt.Sprintf("%s: %s %q: %s has no id %q", r.page, r.attr, r.val, target, u.Fragment))
		}
	}
	sort.Strings(broken)
	return broken, nil
}
