package nbhelp

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/rowcache"
)

var (
	benchVar = regexp.MustCompile(`(\w+)\s*:?=\s*nbhelp\.Bench\("([\w-]+)"\)`)
	runCall  = regexp.MustCompile(`nbhelp\.Run\(lab\.(\w+),\s*(\w+|nbhelp\.Bench\("[\w-]+"\))\)`)
)

// suiteConsts are the lab.SuiteID constants a notebook names a suite by.
var suiteConsts = map[string]lab.SuiteID{
	"SuiteRenderConfound": lab.SuiteRenderConfound, "SuiteProvenance": lab.SuiteProvenance, "SuiteNoise": lab.SuiteNoise,
	"SuiteStrata": lab.SuiteStrata, "SuiteChecks": lab.SuiteChecks, "SuiteExternal": lab.SuiteExternal,
	"SuiteBoundary": lab.SuiteBoundary, "SuiteFormats": lab.SuiteFormats, "SuiteDeployed": lab.SuiteDeployed,
	"SuiteFacets": lab.SuiteFacets,
}

// Every suite a notebook runs with the default readers is one of
// rowcache.NotebookRuns, so `esr prepare` computes it before the notebooks and
// no notebook evaluates it (or builds its tables) in a kernel; and prepare
// computes nothing that no notebook reads.
func TestPrepareCoversEveryRunOfTheNotebooks(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "notebooks", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks: %v", err)
	}
	used := map[rowcache.NotebookRun]bool{}
	for _, p := range paths {
		var code strings.Builder
		for _, c := range readCells(t, p) {
			if c.Type == "code" {
				code.WriteString(sourceText(c.Source) + "\n")
			}
		}
		vars := map[string]string{}
		for _, m := range benchVar.FindAllStringSubmatch(code.String(), -1) {
			vars[m[1]] = m[2]
		}
		for _, m := range runCall.FindAllStringSubmatch(code.String(), -1) {
			b, ok := vars[m[2]]
			if sub := benchVar.FindStringSubmatch("x=" + m[2]); sub != nil {
				b, ok = sub[2], true
			}
			if !ok {
				t.Errorf("%s: nbhelp.Run(%q, %s): cannot tell which benchmark %s is", p, m[1], m[2], m[2])
				continue
			}
			id, known := suiteConsts[m[1]]
			if !known {
				t.Errorf("%s: nbhelp.Run(lab.%s, …): no such suite constant", p, m[1])
				continue
			}
			run := rowcache.NotebookRun{Suite: id, Bench: b}
			used[run] = true
			if !slices.Contains(rowcache.NotebookRuns, run) {
				t.Errorf("%s runs %s on %s, which rowcache.NotebookRuns (esr prepare) does not compute", p, m[1], b)
			}
		}
	}
	for _, r := range rowcache.NotebookRuns {
		if !used[r] {
			t.Errorf("esr prepare computes %s, which no notebook runs", r)
		}
	}
}
