package lab_test

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// Every table and figure of every suite has one builder: the suite's
// Report. The test runs every suite, fails when one cannot run, and fails
// when two suites (or one suite twice) produce the same id, so that `esr
// run`, the report and the notebooks (Result.Table) cannot show two builds
// of one table.
//
// knownTwice lists the one id two suites still both write (the same
// builder on the same rows, byte-identical files): `esr run boundary` has
// always written Table 5 beside the strata suite's. Dropping it from the
// boundary suite changes that suite's output, so it waits for a release that
// may; the test fails on any other duplicate and when this one is gone.
var knownTwice = map[string]lab.SuiteID{"table table5-strata": lab.SuiteBoundary}

// suiteBench is the benchmark each suite runs on here: the mini benchmark,
// except for the suites it has no questions for.
func suiteBench(t *testing.T, name lab.SuiteID) *bench.Bench {
	if name == lab.SuiteFacets {
		// Faceted questions: the first Debian streams.
		return benchtest.Subset(t, "debian", 12)
	}
	return benchtest.Mini(4)
}

func TestEachTableBuiltOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every suite")
	}
	rs, err := reader.ParseList("scripted:status-reader,scripted:time-sorter", llm.Setup{}, sim.Readers)
	if err != nil {
		t.Fatal(err)
	}
	owner := map[string]lab.SuiteID{}
	twice := maps.Clone(knownTwice)
	for _, su := range lab.AllSuites {
		s := lab.Setup{Bench: suiteBench(t, su.Name), Readers: rs, Stats: eval.StatOptions{B: 50}}
		res, err := su.Run(context.Background(), s)
		if err != nil {
			t.Errorf("suite %s cannot run: %v", su.Name, err)
			continue
		}
		var ids []string
		for _, tb := range res.Tables {
			ids = append(ids, "table "+string(tb.ID))
		}
		for _, e := range res.Skipped {
			ids = append(ids, "table "+string(e.Table))
		}
		for n := range res.Figures {
			ids = append(ids, "figure "+string(n))
		}
		if len(ids) == 0 {
			t.Errorf("suite %s built nothing", su.Name)
		}
		for _, id := range ids {
			if o, ok := owner[id]; ok {
				if twice[id] == su.Name {
					delete(twice, id)
					continue
				}
				t.Errorf("%s is built twice: by suite %s and by suite %s", id, o, su.Name)
				continue
			}
			owner[id] = su.Name
			t.Logf("%s: built by suite %s's Report", id, su.Name)
		}
	}
	for id, su := range twice {
		t.Errorf("%s is no longer built by suite %s too: remove it from knownTwice", id, su)
	}

	// The notebooks show those tables from the suites' results
	// (nbhelp.Run(...).Table(lab.SomeID)), never by calling their builders.
	builders := reportBuilders(t)
	if len(builders) < 10 {
		t.Fatalf("found only %d builders in the suites' Reports: %v", len(builders), builders)
	}
	t.Logf("builders the suites' Reports call: %s", strings.Join(builders, ", "))
	calls := regexp.MustCompile(`\blab\.([A-Z]\w*)\(`)
	files, err := filepath.Glob("../../notebooks/*.ipynb")
	if err != nil || len(files) == 0 {
		t.Fatalf("no notebooks: %v", err)
	}
	used := map[string]bool{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Type   string   `json:"cell_type"`
				Source []string `json:"source"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(raw, &nb); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		name := filepath.Base(f)
		for i, c := range nb.Cells {
			if c.Type != "code" {
				continue
			}
			for _, m := range calls.FindAllStringSubmatch(strings.Join(c.Source, ""), -1) {
				if !slices.Contains(builders, m[1]) {
					continue
				}
				key := name + " " + m[1]
				if _, ok := notebookBuilds[key]; ok {
					used[key] = true
					continue
				}
				t.Errorf("%s cell %d calls lab.%s, a table a suite's Report builds: show it from the suite's result (Table(lab.…ID))", name, i, m[1])
			}
		}
	}
	for key, why := range notebookBuilds {
		if !used[key] {
			t.Errorf("%s is allowed (%s) but no longer called: remove it from notebookBuilds", key, why)
		}
	}
}

// notebookBuilds are the notebook calls of a Report's builder that show a
// variant no suite builds ("NOTEBOOK BUILDER": why).
var notebookBuilds = map[string]string{
	"44-boundary.ipynb RefinesRecallTable": "the rule and the cross-validated learned scorer side by side; the boundary suite's table audits the rule scorer only (a report from cached rows does not refit)",
}

// reportBuilders lists lab's functions returning *eval.Table that a
// suite's Report calls, directly or through other functions of lab, found
// by parsing lab's non-test Go files. Only the exported ones can be called
// from a notebook; the unexported ones keep the count honest.
func reportBuilders(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, ok := pkgs["lab"]
	if !ok {
		t.Fatal("no package lab")
	}
	funcs := map[string]*ast.FuncDecl{}
	var reports []ast.Node
	for _, f := range pkg.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					funcs[d.Name.Name] = d
				}
			case *ast.GenDecl:
				ast.Inspect(d, func(n ast.Node) bool {
					cl, ok := n.(*ast.CompositeLit)
					if !ok {
						return true
					}
					if id, ok := cl.Type.(*ast.Ident); !ok || id.Name != "Suite" {
						return true
					}
					for _, e := range cl.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Report" {
								reports = append(reports, kv.Value)
							}
						}
					}
					return false
				})
			}
		}
	}
	if len(reports) < len(lab.AllSuites) {
		t.Fatalf("found %d Report functions for %d suites", len(reports), len(lab.AllSuites))
	}
	returnsTable := func(fd *ast.FuncDecl) bool {
		if fd.Type.Results == nil {
			return false
		}
		for _, r := range fd.Type.Results.List {
			if st, ok := r.Type.(*ast.StarExpr); ok {
				if se, ok := st.X.(*ast.SelectorExpr); ok && se.Sel.Name == "Table" {
					if x, ok := se.X.(*ast.Ident); ok && x.Name == "eval" {
						return true
					}
				}
			}
		}
		return false
	}
	found := map[string]bool{}
	seen := map[string]bool{}
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		ast.Inspect(n, func(m ast.Node) bool {
			var id *ast.Ident
			switch m := m.(type) {
			case *ast.CallExpr:
				id, _ = m.Fun.(*ast.Ident)
			case *ast.Ident:
				id = m // a named Report function
			}
			if id == nil {
				return true
			}
			fd, ok := funcs[id.Name]
			if !ok || seen[id.Name] {
				return true
			}
			seen[id.Name] = true
			if returnsTable(fd) {
				found[id.Name] = true
			}
			visit(fd.Body) // the builders and helpers it calls in turn
			return true
		})
	}
	for _, r := range reports {
		visit(r)
	}
	out := slices.Collect(maps.Keys(found))
	sort.Strings(out)
	return out
}
