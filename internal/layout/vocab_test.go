package layout

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

// vocabFiles declare the render vocabulary, relative to this package: the
// renders' layout words (vocab.go) and the model's words renders show
// (esr/render.go: statuses, the key separator).
var vocabFiles = []string{"vocab.go", "../../esr/render.go"}

// renderFiles are the writers of the renders (esr/memory) and the readers'
// parser (this package, the scripted readers' eyes), relative to this
// package: the files that must take every render word from vocabFiles. In
// those with json set, struct tags are render JSON too (elsewhere they are
// data-file schemas: Atom, HistoryEntry, reader profiles).
var renderFiles = []struct {
	path string
	json bool
}{
	{"../../esr/atom.go", false}, {"../../esr/ledger.go", false}, {"../../esr/time.go", false},
	{"write.go", true}, {"../../esr/memory/fineledger.go", true}, {"../../esr/memory/graphrag.go", true}, {"../../esr/memory/coarse.go", true},
	{"../../esr/memory/graphiti.go", true}, {"../../esr/memory/mem0.go", true}, {"../../esr/memory/latest.go", true}, {"../../esr/memory/text.go", true},
	{"../../esr/memory/rag.go", true}, {"../../esr/memory/deployed.go", true},
	{"layout.go", true}, {"layout_deployed.go", true}, {"jsonline.go", true},
	{"factsplit.go", false}, {"../../esr/reader/sim/scripted.go", false},
}

// TestRenderVocabularyDeclaredOnce: no writer or parser file spells a word
// of the render vocabulary as a string literal (or, in render code, a JSON
// struct tag); each names the constant of vocabFiles instead, so a new
// status word or column is changed in one place. Words without letters
// (separators, date layouts) are too common in code to police this way and
// are left out; import paths are not words.
func TestRenderVocabularyDeclaredOnce(t *testing.T) {
	fset := token.NewFileSet()
	vocab := map[string]string{} // value → constant name
	var decls []ast.Decl
	for _, name := range vocabFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		decls = append(decls, f.Decls...)
	}
	for _, d := range decls {
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
		t.Fatalf("read %d vocabulary words from %v, want the whole vocabulary", len(vocab), vocabFiles)
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
						t.Errorf("%s: JSON tag %q spells %s", fset.Position(n.Tag.Pos()), name, c)
					}
				}
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(n.Value)
				if c, ok := vocab[s]; ok {
					t.Errorf("%s: literal %q spells %s", fset.Position(n.Pos()), s, c)
				}
			}
			return true
		})
	}
}
