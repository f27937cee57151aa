package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/internal/safefile"
	"github.com/esrkit/esrkit/internal/site"
)

func init() {
	register("report", "write the index page of the static report (one card per executed notebook)", runReport)
}

// runReport writes OUT/index.html and OUT/thumbs/ from the executed
// notebooks, then sanitises every page in OUT (site.SanitizePages): `make
// report` converts each notebook to OUT/NAME.html first, and anything in a
// page's body that could run script (data text a cell displayed without
// escaping) is removed, said on stderr. Last, it makes the folder one that
// reads offline (site.LinkPages): links to notebooks go to their pages,
// links to the repository's Markdown documents to copies in OUT/docs/,
// any other link out of the report is taken off (said on stderr), and
// every page of the lab path gets previous/next links. A run that fails
// leaves OUT as it was (reportUndo).
func runReport(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlags("report", stderr)
	executed := fs.String("executed", "notebooks/executed", "`DIR` of executed notebooks")
	figures := fs.String("figures", "figures", "`DIR` of the figures the notebooks saved (thumbnails)")
	out := fs.String("out", "report", "output `DIR` (index.html, thumbs/, docs/)")
	compare := fs.String("compare", "results/compare", "`DIR` searched for comparison pages (esr compare --html's compare.html), copied into OUT/compare/ and linked from the index; none when it does not exist")
	notebooks := fs.String("notebooks", "notebooks", "`DIR` of the source notebooks, where their relative links start (documents are copied from its parent, the repository)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	t := reportTarget(*out, *executed, *figures, *notebooks, *compare)
	if err := t.Check(); err != nil {
		return err
	}
	undo, err := reportUndo(*out)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			undo()
		}
	}()
	if err := t.Mark(); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(*out, site.ComparisonsDir)); err != nil {
		return err // the pages of comparisons no longer under --compare
	}
	comparisons, skipped, err := site.CopyComparisons(*compare, *out)
	if err != nil {
		return err
	}
	for _, n := range skipped {
		fmt.Fprintf(stderr, "esr report: %s\n", n)
	}
	cards, err := site.WriteIndex(*executed, *figures, *out, comparisons)
	if err != nil {
		return err
	}
	cleaned, err := site.SanitizePages(*out)
	if err != nil {
		return err
	}
	for _, page := range sortedKeys(cleaned) {
		fmt.Fprintf(stderr, "esr report: %s/%s: removed %s (text from data that a cell displayed unescaped)\n", *out, page, strings.Join(cleaned[page], ", "))
	}
	notes, err := site.LinkPages(*out, *notebooks, cards)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "esr report: %s/%s\n", *out, n)
	}
	fmt.Fprintf(stdout, "wrote %s/index.html with %d notebooks\n", *out, len(cards))
	return nil
}

// reportUndo returns what puts out back as it was when esr report fails
// after it began writing: a folder this run made is removed whole; in an
// earlier report, index.html and the comparison pages (compare/, which a
// run replaces first) are put back, byte for byte, and no page this run
// copied is left, so the index never links a page that is not there.
func reportUndo(out string) (func(), error) {
	if _, err := os.Lstat(out); errors.Is(err, os.ErrNotExist) {
		return func() { os.RemoveAll(out) }, nil
	} else if err != nil {
		return nil, err
	}
	saved := map[string][]byte{}
	for _, top := range []string{"index.html", site.ComparisonsDir} {
		err := filepath.WalkDir(filepath.Join(out, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			b, err := os.ReadFile(p)
			saved[p] = b
			return err
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return func() {
		os.RemoveAll(filepath.Join(out, site.ComparisonsDir))
		for p, b := range saved {
			os.MkdirAll(filepath.Dir(p), 0o755)
			safefile.WriteFile(p, b, 0o644)
		}
	}, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// reportTarget is esr report's output folder: index.html (recognised by
// site.IsIndex), thumbs/, docs/ (the repository documents the pages link
// to, each page marked as esr report's: site.IsOwnDocs), files/ (the
// repository PNG figures those pages link to: site.IsOwnFiles), compare/ (the
// comparison pages it copied: site.IsOwnComparisons) and the pages
// `make report` converts from the executed notebooks (NAME.html for
// NAME.ipynb), which the report sanitises and links; anything else is
// refused, as is a folder whose index.html esr report did not write.
func reportTarget(out, executed, figures, notebooks, compare string) safefile.Target {
	notebook := func(name, ext string) bool {
		base, ok := strings.CutSuffix(name, ext)
		if !ok || base == "" {
			return false
		}
		_, err := os.Stat(filepath.Join(executed, base+".ipynb"))
		return err == nil
	}
	return safefile.Target{Flag: "--out", Path: out, Writer: "esr report", Dir: true,
		Inputs: []safefile.Input{input("--executed", executed), input("--figures", figures), input("--notebooks", notebooks), input("--compare", compare)},
		// Before the marker: pages converted from the notebooks, with no
		// index or esr report's.
		Legacy: func(dir string) bool { return site.IsIndex(filepath.Join(dir, "index.html")) },
		Owned: func(name string, isDir bool) bool {
			switch {
			case isDir && name == site.DocsDir:
				return site.IsOwnDocs(filepath.Join(out, name))
			case isDir && name == site.ComparisonsDir:
				return site.IsOwnComparisons(filepath.Join(out, name))
			case isDir && name == site.FilesDir:
				return site.IsOwnFiles(filepath.Join(out, name))
			case isDir:
				return name == "thumbs" && len(safefile.Foreign(filepath.Join(out, name), func(n string, d bool) bool { return !d && notebook(n, ".png") })) == 0
			case name == "index.html":
				return site.IsIndex(filepath.Join(out, name))
			}
			return notebook(name, ".html")
		}}
}
