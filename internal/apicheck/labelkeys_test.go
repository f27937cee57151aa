package apicheck

import (
	"go/ast"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// No printed label is a lookup key into the paper's registry: a paper.Key
// (or paper.ParseKey's argument) built outside esr/paper never reads a
// .Label. Comparisons and terms carry their registry key (eval.Term.Key,
// eval.Comparison.Key) for that; a label is what tables print and may
// change without moving a number.
func TestNoLabelLookups(t *testing.T) {
	recordModuleInputs(t)
	if testing.Short() {
		t.Skip("-short: type-checks the whole module")
	}
	pkgs, err := withUses()
	if err != nil {
		t.Fatal(err)
	}
	paperPath := module + "/esr/paper"
	readsLabel := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(m ast.Node) bool {
			if s, ok := m.(*ast.SelectorExpr); ok && s.Sel.Name == "Label" {
				found = true
			}
			return !found
		})
		return found
	}
	for _, p := range pkgs {
		if home(p) == paperPath {
			continue
		}
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CompositeLit:
					if tv, ok := p.TypesInfo.Types[n]; ok && tv.Type.String() == paperPath+".Key" && readsLabel(n) {
						t.Errorf("%s: a paper.Key built from a .Label", p.Fset.Position(n.Pos()))
					}
				case *ast.CallExpr:
					if s, ok := n.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "ParseKey" {
						if obj := p.TypesInfo.Uses[s.Sel]; obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == paperPath && readsLabel(n) {
							t.Errorf("%s: paper.ParseKey of a .Label", p.Fset.Position(n.Pos()))
						}
					}
				}
				return true
			})
		}
	}
	// The notebooks are not type-checked here: a regular expression over
	// their code cells stands in for the walk above.
	files, _ := filepath.Glob("../../notebooks/*.ipynb")
	re := regexp.MustCompile(`(paper\.ParseKey\([^)]*|paper\.Key\{[^}]*)\.Label\b`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if re.MatchString(line) {
				t.Errorf("%s:%d: a paper key built from a .Label", f, i+1)
			}
		}
	}
}
