package apicheck

import (
	"encoding/json"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

// maxUnusedShare bounds the share of public top-level names that no other
// package's code (its tests not counted) or notebook uses. The names are
// the API's: declared in a public package's non-test files (a test
// function or an export_test.go hook is no name a user imports). A type (or
// an alias naming one) counts as used when a used API hands it out, as a
// function's result or an exported field's type (reachedTypes); the
// stricter count, names spelled somewhere outside, is logged beside it.
// 26.4% when the test was written (297 of 1125, test functions and test
// users counted); 15.2% (165 of 1089) when it first counted only real
// names and non-test users; 9.8% (98 of 995) once names only their own
// package and tests used were unexported (tests reach them through
// export_test.go hooks).
const maxUnusedShare = 0.10

// withUses is the module with tests and type information: what
// unusedExports needs to see who refers to what.
var withUses = sync.OnceValues(func() ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo |
		packages.NeedImports | packages.NeedSyntax, Dir: "../..", Tests: true}
	pkgs, err := packages.Load(cfg, module+"/...")
	if err == nil && packages.PrintErrors(pkgs) > 0 {
		err = fmt.Errorf("packages did not load")
	}
	return pkgs, err
})

// home is the package path a loaded package counts as: a test variant
// ("p [p.test]") and an external test package ("p_test") are p's own.
func home(p *packages.Package) string {
	return strings.TrimSuffix(p.PkgPath, "_test")
}

// notebookSelectors returns every "pkg.Name" spelled in a code cell of the
// notebooks in dir, pkg being the last element of an import path.
func notebookSelectors(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.ipynb"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no notebooks in %s (%v)", dir, err)
	}
	sel := regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*)`)
	out := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				CellType string   `json:"cell_type"`
				Source   []string `json:"source"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range nb.Cells {
			if c.CellType != "code" {
				continue
			}
			for _, m := range sel.FindAllStringSubmatch(strings.Join(c.Source, ""), -1) {
				out[m[1]+"."+m[2]] = true
			}
		}
	}
	return out
}

// unusedExports lists the exported package-level names declared in the
// non-test files of public packages that no other package's non-test code
// refers to and no notebook
// spells as pkg.Name, and how many exported names there are in all.
// spelled counts a name as used only where it is written; otherwise a type
// also counts as used when a used API hands it out (reachedTypes): the
// caller of theory.P1Fibre holds a theory.P1Result without spelling it.
func unusedExports(pkgs []*packages.Package, notebook map[string]bool, spelled bool) (unused []string, total int) {
	// By path and name: a test variant's objects are other objects than
	// the plain package's.
	usedOutside := map[string]bool{}
	var seeds []types.Object
	for _, p := range pkgs {
		for id, obj := range p.TypesInfo.Uses {
			if obj == nil || obj.Pkg() == nil || strings.TrimSuffix(obj.Pkg().Path(), "_test") == home(p) {
				continue
			}
			if strings.HasSuffix(p.Fset.Position(id.Pos()).Filename, "_test.go") {
				continue // a test is no user: a name only tests call is not API
			}
			if obj.Parent() == obj.Pkg().Scope() {
				usedOutside[obj.Pkg().Path()+"."+obj.Name()] = true
			}
			seeds = append(seeds, obj) // top-level names, methods and fields
		}
		if !public(p.PkgPath) || strings.HasSuffix(p.PkgPath, "_test") || strings.HasSuffix(p.ID, ".test") {
			continue
		}
		for _, name := range p.Types.Scope().Names() {
			if notebook[p.Types.Name()+"."+name] {
				seeds = append(seeds, p.Types.Scope().Lookup(name))
			}
		}
	}
	reached := map[string]bool{}
	if !spelled {
		reached = reachedTypes(seeds)
	}
	seen := map[string]bool{}
	for _, p := range pkgs {
		if !public(p.PkgPath) || strings.HasSuffix(p.PkgPath, "_test") || strings.HasSuffix(p.ID, ".test") {
			continue
		}
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			key := p.PkgPath + "." + name
			if !obj.Exported() || seen[key] {
				continue
			}
			// A name a _test.go file declares (a test function, an
			// export_test.go hook) is no part of the API a user imports.
			if strings.HasSuffix(p.Fset.Position(obj.Pos()).Filename, "_test.go") {
				continue
			}
			seen[key] = true
			total++
			// An alias names what its target is: reached when the target is
			// (judge.Config names the llm.Setup reader.Parse takes).
			if tn, ok := obj.(*types.TypeName); ok && tn.IsAlias() && !spelled {
				if n, ok := types.Unalias(tn.Type()).(*types.Named); ok && n.Obj().Pkg() != nil && reached[n.Obj().Pkg().Path()+"."+n.Obj().Name()] {
					reached[key] = true
				}
			}
			if !usedOutside[key] && !notebook[p.Types.Name()+"."+name] && !reached[key] {
				unused = append(unused, strings.TrimPrefix(key, module+"/"))
			}
		}
	}
	sort.Strings(unused)
	return unused, total
}

// reachedTypes returns the module's named types a used API hands out, by
// "path.Name": those in the signature or type of a used object, and,
// transitively, in the exported fields and methods of a reached type.
func reachedTypes(seeds []types.Object) map[string]bool {
	reached := map[string]bool{}
	var visit func(t types.Type)
	visit = func(t types.Type) {
		switch t := t.(type) {
		case *types.Named:
			obj := t.Obj()
			if obj.Pkg() == nil || !strings.HasPrefix(obj.Pkg().Path(), module) {
				return
			}
			key := obj.Pkg().Path() + "." + obj.Name()
			if reached[key] {
				return
			}
			reached[key] = true
			for i := 0; i < t.NumMethods(); i++ {
				if m := t.Method(i); m.Exported() {
					visit(m.Type())
				}
			}
			visit(t.Underlying())
		case *types.Alias:
			visit(types.Unalias(t))
		case *types.Pointer:
			visit(t.Elem())
		case *types.Slice:
			visit(t.Elem())
		case *types.Array:
			visit(t.Elem())
		case *types.Map:
			visit(t.Key())
			visit(t.Elem())
		case *types.Chan:
			visit(t.Elem())
		case *types.Signature:
			for i := 0; i < t.Params().Len(); i++ {
				visit(t.Params().At(i).Type())
			}
			for i := 0; i < t.Results().Len(); i++ {
				visit(t.Results().At(i).Type())
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				if f := t.Field(i); f.Exported() {
					visit(f.Type())
				}
			}
		case *types.Interface:
			for i := 0; i < t.NumMethods(); i++ {
				visit(t.Method(i).Type())
			}
		}
	}
	for _, o := range seeds {
		if o != nil {
			visit(o.Type())
		}
	}
	return reached
}

// At most maxUnusedShare of the public top-level names are used nowhere but
// in their own package and its tests: a name no one outside calls is an
// implementation detail and should not be part of the API.
func TestFewUnusedExports(t *testing.T) {
	recordModuleInputs(t)
	if testing.Short() {
		t.Skip("-short: type-checks the whole module")
	}
	pkgs, err := withUses()
	if err != nil {
		t.Fatal(err)
	}
	nb := notebookSelectors(t, "../../notebooks")
	strict, _ := unusedExports(pkgs, nb, true)
	unused, total := unusedExports(pkgs, nb, false)
	if total < 100 {
		t.Fatalf("found %d exported names; the walk is broken", total)
	}
	share := float64(len(unused)) / float64(total)
	t.Logf("%d of %d public top-level names (%.1f%%) are used only inside their package or by tests; %d (%.1f%%) counting a type as used only where it is spelled",
		len(unused), total, 100*share, len(strict), 100*float64(len(strict))/float64(total))
	if share > maxUnusedShare {
		t.Errorf("%.1f%% > %.1f%% of public names are unused outside their package:\n%s",
			100*share, 100*maxUnusedShare, strings.Join(unused, "\n"))
	}
}
