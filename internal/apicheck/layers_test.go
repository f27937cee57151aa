package apicheck

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// The module's floors. The base is what every section stands on and holds
// no section's code; the sections answer the paper's questions (lab: every
// suite and its section's tables; theory: Appendix A) and import only the
// base; the top serves the notebooks (nbhelp).
var (
	basePackages = []string{"esr", "esr/bench", "esr/memory", "esr/relate", "esr/reader", "esr/reader/sim", "esr/llm", "esr/judge",
		"esr/eval", "esr/paper", "esr/runlog", "stats"}
	sectionPackages = []string{"esr/lab", "esr/theory"}
	topPackages     = []string{"nbhelp"}
)

func TestLayers(t *testing.T) {
	recordModuleInputs(t)
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports, Dir: "../.."}, module+"/...")
	if err != nil {
		t.Fatal(err)
	}
	floor := map[string]string{}
	for _, p := range basePackages {
		floor[p] = "base"
	}
	for _, p := range sectionPackages {
		floor[p] = "section"
	}
	for _, p := range topPackages {
		floor[p] = "top"
	}
	for _, p := range pkgs {
		if !public(p.PkgPath) || p.PkgPath == module {
			continue
		}
		rel := strings.TrimPrefix(p.PkgPath, module+"/")
		if strings.HasPrefix(rel, "examples/") {
			continue
		}
		f, ok := floor[rel]
		if !ok {
			t.Errorf("public package %s stands on no floor: add it to the base, the sections or the top", rel)
			continue
		}
		for imp := range p.Imports {
			if imp == module+"/internal/run" || strings.HasPrefix(imp, module+"/internal/run/") {
				t.Errorf("%s imports internal/run", rel)
			}
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			irel := strings.TrimPrefix(imp, module+"/")
			g := floor[irel]
			switch {
			case f == "base" && (g == "section" || g == "top"):
				t.Errorf("base package %s imports %s package %s", rel, g, irel)
			case f == "section" && g == "top":
				t.Errorf("section package %s imports top package %s", rel, irel)
			case f == "section" && g == "section":
				t.Errorf("section package %s imports section package %s: move what they share down into the base", rel, irel)
			}
		}
	}
}
