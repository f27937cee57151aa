package nbhelp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// moduleNames indexes the module's Go declarations: every package (by its
// name) with its top-level names, and every name declared anywhere (top
// level, methods, struct fields), from the source files of the repository.
type moduleNames struct {
	pkgs map[string]map[string]bool // package name → top-level names and methods
	any  map[string]bool            // every declared name
}

func indexModule(t *testing.T, root string) moduleNames {
	t.Helper()
	m := moduleNames{pkgs: map[string]map[string]bool{}, any: map[string]bool{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "notebooks") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if strings.Contains(filepath.ToSlash(path), "/internal/") {
			// Notebooks cannot import internal packages: their names do
			// not count as reachable.
			return nil
		}
		names := m.pkgs[f.Name.Name]
		if names == nil {
			names = map[string]bool{}
			m.pkgs[f.Name.Name] = names
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncDecl:
				names[x.Name.Name], m.any[x.Name.Name] = true, true
			case *ast.TypeSpec:
				names[x.Name.Name], m.any[x.Name.Name] = true, true
			case *ast.ValueSpec:
				for _, id := range x.Names {
					m.any[id.Name] = true
					if _, top := findTop(f, x); top {
						names[id.Name] = true
					}
				}
			case *ast.Field:
				for _, id := range x.Names {
					m.any[id.Name] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// findTop reports whether a value spec is declared at the file's top level.
func findTop(f *ast.File, spec *ast.ValueSpec) (*ast.GenDecl, bool) {
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok {
			for _, s := range g.Specs {
				if s == spec {
					return g, true
				}
			}
		}
	}
	return nil, false
}

// qualified finds pkg.Name references in inline code (`nbhelp.Run(...)`,
// `tier := bench.Tiers()[2]`): a lower-case package name, an exported name.
var qualified = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.])([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*)`)

// bare is one identifier, optionally called: `loadBench` or `Run()`.
var bare = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)(?:\(.*\))?$`)

// declared matches a name a cell declares: `var name`, `name :=` and the
// names of a multiple assignment `a, b :=`.
var declared = regexp.MustCompile(`(?m)(?:^|\s)(?:var\s+([A-Za-z_][A-Za-z0-9_]*)\b|([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*:=)`)

// goWords are Go's predeclared names and keywords, which markdown may name.
var goWords = map[string]bool{"nil": true, "true": true, "false": true, "func": true, "panic": true, "string": true,
	"int": true, "float64": true, "error": true, "map": true, "append": true, "len": true, "var": true, "const": true, "go": true}

// externalPkgs are packages outside the module that notebooks use; their
// names are not checked.
var externalPkgs = map[string]bool{"gonbui": true, "widgets": true, "dom": true, "plot": true, "plotter": true, "dataframe": true,
	"series": true, "fmt": true, "strings": true, "math": true, "os": true, "sort": true, "time": true, "context": true, "rand": true,
	"mstats": true, "stat": true, "optimize": true}

// TestMarkdownNamesExist: every Go name a notebook's markdown shows in
// inline code (`lab.Table2`, `nbhelp.Run`, `loadBench`) exists: a
// qualified name in the module's package of that name, a bare name as a
// declaration of the module or a variable the notebook's own cells declare.
// Prose that names code which is not there sends a student looking for it.
func TestMarkdownNamesExist(t *testing.T) {
	m := indexModule(t, "..")
	paths, err := filepath.Glob(filepath.Join("..", "notebooks", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks (%v)", err)
	}
	for _, p := range paths {
		for _, bad := range missingNames(t, p, m) {
			t.Errorf("%s: markdown names %s", filepath.Base(p), bad)
		}
	}
}

// missingNames lists the inline-code names of a notebook's markdown that do
// not exist.
func missingNames(t *testing.T, path string, m moduleNames) []string {
	t.Helper()
	cells := readCells(t, path)
	vars := map[string]bool{}
	for _, c := range cells {
		if c.Type != "code" {
			continue
		}
		for _, d := range declared.FindAllStringSubmatch(sourceText(c.Source), -1) {
			for _, n := range strings.Split(d[1]+","+d[2], ",") {
				if n = strings.TrimSpace(n); n != "" {
					vars[n] = true
				}
			}
		}
	}
	var missing []string
	for i, c := range cells {
		if c.Type != "markdown" {
			continue
		}
		for _, span := range codeSpan.FindAllString(sourceText(c.Source), -1) {
			code := strings.TrimSpace(strings.Trim(span, "`"))
			refs := qualified.FindAllStringSubmatch(code, -1)
			for _, q := range refs {
				pkg, name := q[1], q[2]
				if externalPkgs[pkg] || vars[pkg] {
					continue
				}
				names, ok := m.pkgs[pkg]
				switch {
				case !ok:
					missing = append(missing, "`"+code+"` (cell "+itoa(i)+"): no package "+pkg+" a notebook can import")
				case !names[name]:
					missing = append(missing, "`"+code+"` (cell "+itoa(i)+"): package "+pkg+" has no "+name)
				}
			}
			if len(refs) > 0 {
				continue
			}
			if q := bare.FindStringSubmatch(code); q != nil && strings.HasSuffix(code, ")") || q != nil && looksLikeGo(q[1]) {
				name := q[1]
				if goWords[name] || vars[name] || m.any[name] {
					continue
				}
				missing = append(missing, "`"+code+"` (cell "+itoa(i)+"): no declaration of "+name+" in the module or the notebook")
			}
		}
	}
	return missing
}

// looksLikeGo reports whether a bare word in inline code is a Go name
// rather than a value, a flag or a file: mixed case (camelCase or an
// exported name with a lower-case letter after the first).
func looksLikeGo(w string) bool {
	if len(w) < 3 || strings.ContainsAny(w, "-/.") {
		return false
	}
	hasUpper, hasLower := false, false
	for i, r := range w {
		if r >= 'A' && r <= 'Z' && i > 0 {
			hasUpper = true
		}
		if r >= 'a' && r <= 'z' {
			hasLower = true
		}
	}
	first := w[0]
	return hasLower && (hasUpper || first >= 'A' && first <= 'Z')
}
