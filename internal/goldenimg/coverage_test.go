package goldenimg_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// figureFunc is an exported function or method that returns a *plot.Plot.
type figureFunc struct {
	dir, recv, name string // recv is "" for a function, "*T" or "T" for a method
}

func (f figureFunc) String() string {
	if f.recv != "" {
		return filepath.ToSlash(f.dir) + ": (" + f.recv + ")." + f.name
	}
	return filepath.ToSlash(f.dir) + ": " + f.name
}

// returnsPlot reports whether a function type's results are one *plot.Plot.
func returnsPlot(t *ast.FuncType) bool {
	if t.Results == nil || len(t.Results.List) != 1 || len(t.Results.List[0].Names) > 1 {
		return false
	}
	star, ok := t.Results.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Plot" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "plot"
}

func recvName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t, star := fd.Recv.List[0].Type, ""
	if s, ok := t.(*ast.StarExpr); ok {
		t, star = s.X, "*"
	}
	if id, ok := t.(*ast.Ident); ok {
		return star + id.Name
	}
	return ""
}

// uncovered walks the Go files under root and returns every exported
// figure function, and those without a golden test: no *golden_test.go
// file in its folder calls it (X.Name(...)) and, for a method, names its
// receiver type.
func uncovered(t *testing.T, root string) (all, missing []figureFunc) {
	t.Helper()
	type use struct{ calls, idents map[string]bool }
	uses := map[string]*use{} // folder → what its golden tests mention
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "notebooks") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		switch {
		case strings.HasSuffix(path, "golden_test.go"):
			u := uses[dir]
			if u == nil {
				u = &use{calls: map[string]bool{}, idents: map[string]bool{}}
				uses[dir] = u
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
						u.calls[sel.Sel.Name] = true
					}
				case *ast.SelectorExpr:
					u.idents[n.Sel.Name] = true
				case *ast.Ident:
					u.idents[n.Name] = true
				}
				return true
			})
		case !strings.HasSuffix(path, "_test.go"):
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && fd.Name.IsExported() && returnsPlot(fd.Type) {
					all = append(all, figureFunc{dir: dir, recv: recvName(fd), name: fd.Name.Name})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range all {
		u := uses[f.dir]
		if u == nil || !u.calls[f.name] || (f.recv != "" && !u.idents[strings.TrimPrefix(f.recv, "*")]) {
			missing = append(missing, f)
		}
	}
	return all, missing
}

// Every exported function of the module that returns a *plot.Plot has a
// golden-image test beside it.
func TestEveryFigureHasGoldenTest(t *testing.T) {
	all, missing := uncovered(t, filepath.Join("..", ".."))
	for _, f := range missing {
		t.Errorf("%s returns a *plot.Plot but no *golden_test.go in its folder calls it (goldenimg.Check)", f)
	}
	var names []string
	for _, f := range all {
		names = append(names, f.String())
	}
	// The walk finds the figures known today, so the check is not vacuous.
	for _, want := range []string{"esr/lab: StaircasePlot", "esr/lab: (*Phase).Plot", "internal/report: HeatMap"} {
		if !slices.Contains(names, want) {
			t.Errorf("the walk missed %s; found %v", want, names)
		}
	}
	t.Logf("%d figure functions: %s", len(all), strings.Join(names, "; "))
}

// The walk reports a figure function whose folder has no golden test, and
// a method whose golden test never names its receiver type.
func TestUncoveredFindsMissingTests(t *testing.T) {
	root := t.TempDir()
	write := func(path, src string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, path), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/fig.go", "package a\nimport \"gonum.org/v1/plot\"\ntype V struct{}\ntype W struct{}\n"+
		"func Fig() *plot.Plot { return nil }\nfunc Bare() *plot.Plot { return nil }\n"+
		"func (V) Plot() *plot.Plot { return nil }\nfunc (*W) Plot() *plot.Plot { return nil }\n"+
		"func helper() *plot.Plot { return nil }\nfunc Two() (*plot.Plot, error) { return nil, nil }\n")
	write("a/fig_golden_test.go", "package a_test\nfunc TestG() { a.Fig(); v := a.V{}; v.Plot() }\n")
	write("a/fig_test.go", "package a_test\nfunc TestB() { a.Bare() }\n")
	all, missing := uncovered(t, root)
	var got []string
	for _, f := range missing {
		got = append(got, f.String())
	}
	if len(all) != 4 || !slices.Equal(got, []string{"a: Bare", "a: (*W).Plot"}) {
		t.Errorf("found %v, missing %q; want 4 found, missing Bare and (*W).Plot", all, got)
	}
}
