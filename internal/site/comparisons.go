package site

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"sort"
	"strings"

	xhtml "golang.org/x/net/html"

	"github.com/esrkit/esrkit/internal/safefile"
)

// ComparisonsDir is the report's folder of comparison pages (esr compare
// --html), copied from the folder esr report is given (results/compare).
const ComparisonsDir = "compare"

// Comparison is one comparison page in the report.
type Comparison struct {
	Page  string // its path in the report, "compare/REL/compare.html"
	From  string // the folder it was copied from, relative to the source folder
	Title string // the page's title
}

// CopyComparisons copies every compare.html under srcDir that starts as
// esr compare's pages do (IsComparePage) into outDir/compare/, keeping its
// folder, and returns them in path order with one note per compare.html it
// left out or took something out of. A srcDir that does not exist holds
// none. A page is copied as SanitizeComparePage writes it: its start is no
// proof that esr compare wrote the rest (a page edited by hand keeps it),
// so its head is the kit's own, with the one script its filters need, and
// its body keeps only what the allow-lists do.
func CopyComparisons(srcDir, outDir string) ([]Comparison, []string, error) {
	if _, err := os.Stat(srcDir); errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	var out []Comparison
	var notes []string
	err := filepath.WalkDir(srcDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != comparePageName {
			return err
		}
		if !d.Type().IsRegular() {
			notes = append(notes, p+": not a regular file; not linked")
			return nil
		}
		page, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !IsComparePage(page) {
			notes = append(notes, p+": not a page esr compare --html wrote; not linked")
			return nil
		}
		page, removed, err := SanitizeComparePage(page)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v; not linked", p, err))
			return nil
		}
		if len(removed) > 0 {
			notes = append(notes, fmt.Sprintf("%s: removed %s (esr compare writes none of it)", p, strings.Join(removed, ", ")))
		}
		rel, err := filepath.Rel(srcDir, filepath.Dir(p))
		if err != nil {
			return err
		}
		c := Comparison{Page: filepath.ToSlash(filepath.Join(ComparisonsDir, rel, comparePageName)), From: filepath.ToSlash(rel), Title: pageTitle(page)}
		dst := filepath.Join(outDir, filepath.FromSlash(c.Page))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := safefile.WriteFile(dst, page, 0o644); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Page < out[j].Page })
	return out, notes, err
}

// comparePageName is the file esr compare --html writes.
const comparePageName = "compare.html"

// pageTitle is the text of page's title element.
func pageTitle(page []byte) string {
	z := xhtml.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return ""
		case xhtml.StartTagToken:
			if name, _ := z.TagName(); string(name) == "title" && z.Next() == xhtml.TextToken {
				return strings.TrimSpace(string(z.Text()))
			}
		}
	}
}

// writeComparisons writes the index's Comparisons section, nothing when
// there are none.
func writeComparisons(b *strings.Builder, cs []Comparison) {
	if len(cs) == 0 {
		return
	}
	b.WriteString(`<h2 id="comparisons">Comparisons</h2><p>Two stored runs side by side (esr compare --html), with filters and each flipped question's renders.</p><ul class="comparisons">`)
	for _, c := range cs {
		fmt.Fprintf(b, `<li><a href="%s">%s</a> <span class="sec">(%s)</span></li>`, html.EscapeString(c.Page), html.EscapeString(c.Title), html.EscapeString(c.From))
	}
	b.WriteString(`</ul>`)
}

// IsOwnComparisons reports whether dir holds only comparison pages
// (compare.html that esr compare wrote) and folders, so that esr report
// may replace it.
func IsOwnComparisons(dir string) bool {
	own := true
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		head, _ := readHead(p)
		if !d.Type().IsRegular() || d.Name() != comparePageName || !IsComparePage(head) {
			own = false
			return filepath.SkipAll
		}
		return nil
	})
	return own && err == nil
}

// readHead reads a file's first bytes.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := f.Read(head)
	return head[:n], nil
}
