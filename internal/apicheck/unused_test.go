package apicheck

import (
	"encoding/json"
	"fmt"
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
// package, test of another package or notebook spells. It is a ratchet: 26.4%
// when it was written (297 of 1125 names); issue 29's goal is 10%. Lower it
// as names are removed, never raise it.
const maxUnusedShare = 0.265

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

// unusedExports lists the exported package-level names of public packages
// that no other package (its tests included) refers to and no notebook
// spells as pkg.Name, and how many exported names there are in all.
func unusedExports(pkgs []*packages.Package, notebook map[string]bool) (unused []string, total int) {
	// By path and name: a test variant's objects are other objects than
	// the plain package's.
	usedOutside := map[string]bool{}
	for _, p := range pkgs {
		for _, obj := range p.TypesInfo.Uses {
			if obj == nil || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
				continue
			}
			if strings.TrimSuffix(obj.Pkg().Path(), "_test") != home(p) {
				usedOutside[obj.Pkg().Path()+"."+obj.Name()] = true
			}
		}
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
			seen[key] = true
			total++
			if !usedOutside[key] && !notebook[p.Types.Name()+"."+name] {
				unused = append(unused, strings.TrimPrefix(key, module+"/"))
			}
		}
	}
	sort.Strings(unused)
	return unused, total
}

// At most maxUnusedShare of the public top-level names are used nowhere but
// in their own package and its tests: a name no one outside calls is an
// implementation detail and should not be part of the API.
func TestFewUnusedExports(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: type-checks the whole module")
	}
	pkgs, err := withUses()
	if err != nil {
		t.Fatal(err)
	}
	unused, total := unusedExports(pkgs, notebookSelectors(t, "../../notebooks"))
	if total < 100 {
		t.Fatalf("found %d exported names; the walk is broken", total)
	}
	share := float64(len(unused)) / float64(total)
	t.Logf("%d of %d public top-level names (%.1f%%) are used only inside their package", len(unused), total, 100*share)
	if share > maxUnusedShare {
		t.Errorf("%.1f%% > %.1f%% of public names are unused outside their package:\n%s",
			100*share, 100*maxUnusedShare, strings.Join(unused, "\n"))
	}
}
