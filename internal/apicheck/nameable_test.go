package apicheck

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

const module = "github.com/esrkit/esrkit"

// public reports whether path is a package a user can import: inside the
// module, outside internal/ and cmd/.
func public(path string) bool {
	rel := strings.TrimPrefix(path, module)
	return strings.HasPrefix(path, module) && !strings.Contains(rel+"/", "/internal/") && !strings.HasPrefix(rel, "/cmd/")
}

// rel is a package's path inside the module ("esrkit" for the root
// package, which holds the embedded source).
func rel(path string) string {
	if path == module {
		return "esrkit"
	}
	return strings.TrimPrefix(path, module+"/")
}

// unnameable lists every exported identifier of a public package whose type
// (a parameter, result, field, element, …) mentions a named type a user
// cannot name: one declared under internal/. A user can call such a
// function only by passing values they cannot declare.
func unnameable(pkgs []*packages.Package) []string {
	// An internal type a public alias names is nameable through the alias.
	aliased := map[*types.TypeName]bool{}
	for _, p := range pkgs {
		if !public(p.PkgPath) {
			continue
		}
		for _, name := range p.Types.Scope().Names() {
			if o, ok := p.Types.Scope().Lookup(name).(*types.TypeName); ok && o.Exported() && o.IsAlias() {
				if n, ok := types.Unalias(o.Type()).(*types.Named); ok {
					aliased[n.Obj()] = true
				}
			}
		}
	}
	var out []string
	for _, p := range pkgs {
		if !public(p.PkgPath) {
			continue
		}
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if !obj.Exported() {
				continue
			}
			where := rel(p.PkgPath) + "." + name
			check := func(what string, t types.Type) {
				if bad := internalIn(t, aliased, map[types.Type]bool{}); bad != "" {
					out = append(out, fmt.Sprintf("%s%s mentions %s", where, what, bad))
				}
			}
			switch o := obj.(type) {
			case *types.TypeName:
				// An alias is a public name for its target; what a user
				// reaches through it (fields, methods) is checked below as
				// for a declared type.
				n, ok := types.Unalias(o.Type()).(*types.Named)
				if !ok {
					check("", types.Unalias(o.Type()))
					continue
				}
				if o.IsAlias() && public(n.Obj().Pkg().Path()) {
					continue // checked where it is declared
				}
				switch u := n.Underlying().(type) {
				case *types.Struct:
					for i := 0; i < u.NumFields(); i++ {
						if f := u.Field(i); f.Exported() {
							check("."+f.Name(), f.Type())
						}
					}
				case *types.Interface:
					for i := 0; i < u.NumMethods(); i++ {
						if m := u.Method(i); m.Exported() {
							check("."+m.Name(), m.Type())
						}
					}
				default:
					check("", u)
				}
				for i := 0; i < n.NumMethods(); i++ {
					if m := n.Method(i); m.Exported() {
						check("."+m.Name(), m.Type())
					}
				}
			default:
				check("", obj.Type())
			}
		}
	}
	sort.Strings(out)
	return out
}

// internalIn returns the first named type declared under internal/ that t
// mentions and no public alias names, or "".
func internalIn(t types.Type, aliased map[*types.TypeName]bool, seen map[types.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if pk := t.Obj().Pkg(); pk != nil && strings.HasPrefix(pk.Path(), module) && !public(pk.Path()) && !aliased[t.Obj()] {
			return rel(pk.Path()) + "." + t.Obj().Name()
		}
		if ta := t.TypeArgs(); ta != nil {
			for i := 0; i < ta.Len(); i++ {
				if s := internalIn(ta.At(i), aliased, seen); s != "" {
					return s
				}
			}
		}
		return "" // a public named type: its own declaration is checked where it is declared
	case *types.Alias:
		if pk := t.Obj().Pkg(); pk != nil && public(pk.Path()) {
			return "" // a public alias names its target
		}
		return internalIn(types.Unalias(t), aliased, seen)
	case *types.Pointer:
		return internalIn(t.Elem(), aliased, seen)
	case *types.Slice:
		return internalIn(t.Elem(), aliased, seen)
	case *types.Array:
		return internalIn(t.Elem(), aliased, seen)
	case *types.Chan:
		return internalIn(t.Elem(), aliased, seen)
	case *types.Map:
		if s := internalIn(t.Key(), aliased, seen); s != "" {
			return s
		}
		return internalIn(t.Elem(), aliased, seen)
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if s := internalIn(tup.At(i).Type(), aliased, seen); s != "" {
					return s
				}
			}
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if s := internalIn(t.Field(i).Type(), aliased, seen); s != "" {
				return s
			}
		}
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			if s := internalIn(t.Method(i).Type(), aliased, seen); s != "" {
				return s
			}
		}
	}
	return ""
}

// loaded is the module's packages, type-checked once for every test.
var loaded = sync.OnceValues(func() ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps, Dir: "../.."}
	pkgs, err := packages.Load(cfg, module+"/...")
	if err == nil && packages.PrintErrors(pkgs) > 0 {
		err = fmt.Errorf("packages did not load")
	}
	return pkgs, err
})

func load(t *testing.T) []*packages.Package {
	t.Helper()
	recordModuleInputs(t)
	pkgs, err := loaded()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// Every exported function's parameter and result types, every exported
// field's and variable's type, can be named from outside the module.
func TestPublicAPINameable(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: type-checks the whole module")
	}
	pkgs := load(t)
	n := 0
	for _, p := range pkgs {
		if public(p.PkgPath) {
			n++
		}
	}
	if n < 5 {
		t.Fatalf("found %d public packages; the walk is broken", n)
	}
	for _, s := range unnameable(pkgs) {
		t.Error(s)
	}
}

// The walk flags a signature that takes an internal type no alias names,
// and lets it pass once a public alias names it.
func TestInternalInFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: type-checks the whole module")
	}
	var server *types.TypeName
	for _, p := range load(t) {
		if p.PkgPath == module+"/internal/llmtest" {
			server, _ = p.Types.Scope().Lookup("Server").(*types.TypeName)
		}
	}
	if server == nil {
		t.Fatal("internal/llmtest.Server not found")
	}
	params := types.NewTuple(types.NewVar(0, nil, "s", types.NewPointer(server.Type())))
	sig := types.NewSignatureType(nil, nil, nil, params, nil, false)
	if got := internalIn(sig, map[*types.TypeName]bool{}, map[types.Type]bool{}); got != "internal/llmtest.Server" {
		t.Errorf("func(*llmtest.Server): got %q, want internal/llmtest.Server", got)
	}
	if got := internalIn(sig, map[*types.TypeName]bool{server: true}, map[types.Type]bool{}); got != "" {
		t.Errorf("with a public alias: got %q, want nameable", got)
	}
}

// No internal package sits between public layers: one imported by a public
// package imports no public package but esr, esr/bench and stats (the
// leaves' allowance) and the module's root package (the embedded source
// codefp hashes, which imports nothing of the module); plumbing that needs more (run, browser, site) is
// imported only by cmd/ and the notebook helpers' layer, never by esr/....
func TestNoSandwich(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: type-checks the whole module")
	}
	allowed := map[string]bool{module: true, module + "/esr": true, module + "/esr/bench": true, module + "/stats": true}
	importedByPublic := map[string][]string{}
	byPath := map[string]*packages.Package{}
	for _, p := range load(t) {
		byPath[p.PkgPath] = p
	}
	for _, p := range byPath {
		if !public(p.PkgPath) || p.PkgPath == module+"/nbhelp" {
			continue // nbhelp is the notebooks' top layer, like cmd/
		}
		for imp := range p.Imports {
			if strings.HasPrefix(imp, module) && !public(imp) {
				importedByPublic[imp] = append(importedByPublic[imp], p.PkgPath)
			}
		}
	}
	if len(importedByPublic) == 0 {
		t.Fatal("no internal package is imported by a public one; the walk is broken")
	}
	for in, users := range importedByPublic {
		for imp := range byPath[in].Imports {
			if public(imp) && !allowed[imp] {
				t.Errorf("%s is imported by %v and imports %s: public → internal → public", in, users, imp)
			}
		}
	}
}
