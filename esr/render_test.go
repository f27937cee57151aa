package esr

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// renderFiles are the writers of the renders (esr/memory) and the readers'
// parser (internal/layout, the scripted readers' eyes), relative to this package: the files that must take
// every render word from render.go. In those with json set, struct tags are
// render JSON too (elsewhere they are data-file schemas: Atom, HistoryEntry,
// reader profiles).
var renderFiles = []struct {
	path string
	json bool
}{
	{"atom.go", false}, {"ledger.go", false}, {"time.go", false},
	{"../internal/layout/write.go", true}, {"memory/fineledger.go", true}, {"memory/graphrag.go", true}, {"memory/coarse.go", true},
	{"memory/graphiti.go", true}, {"memory/mem0.go", true}, {"memory/latest.go", true}, {"memory/text.go", true},
	{"memory/rag.go", true}, {"memory/deployed.go", true},
	{"../internal/layout/layout.go", true}, {"../internal/layout/layout_deployed.go", true}, {"../internal/layout/jsonline.go", true},
	{"../internal/layout/factsplit.go", false}, {"reader/sim/scripted.go", false},
}

// TestRenderVocabularyDeclaredOnce: no writer or parser file spells a word
// of the render vocabulary as a string literal (or, in render code, a JSON
// struct tag); each names the constant in render.go instead, so a new
// status word or column is changed in one place. Words without letters
// (separators, date layouts) are too common in code to police this way and
// are left out; import paths are not words.
func TestRenderVocabularyDeclaredOnce(t *testing.T) {
	fset := token.NewFileSet()
	vocab := map[string]string{} // value → constant name
	f, err := parser.ParseFile(fset, "render.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, v := range vs.Values {
				lit, ok := v.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				s, _ := strconv.Unquote(lit.Value)
				if strings.IndexFunc(s, unicode.IsLetter) >= 0 {
					vocab[s] = vs.Names[i].Name
				}
			}
		}
	}
	if len(vocab) < 40 {
		t.Fatalf("read %d vocabulary words from render.go, want the whole vocabulary", len(vocab))
	}
	for _, rf := range renderFiles {
		file, err := parser.ParseFile(fset, rf.path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.Field:
				if n.Tag != nil && rf.json {
					tag, _ := strconv.Unquote(n.Tag.Value)
					name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
					if c, ok := vocab[name]; ok {
						t.Errorf("%s: JSON tag %q spells esr.%s", fset.Position(n.Tag.Pos()), name, c)
					}
				}
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(n.Value)
				if c, ok := vocab[s]; ok {
					t.Errorf("%s: literal %q spells esr.%s", fset.Position(n.Pos()), s, c)
				}
			}
			return true
		})
	}
}
