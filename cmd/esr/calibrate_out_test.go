package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// esr calibrate --out takes as its own only files that carry its kind tag,
// whichever output it writes: a Jupyter notebook (which opens with
// "cells", as a validation file once did), a JSON document that opens
// with "params" (as a sensitivity once did) and a list of objects that
// open with "label" (as a grid once did) are refused before anything is
// computed and left byte for byte; the model card it wrote is its own and
// is written again.
func TestCalibrateOutReplacesOnlyFilesWithItsKindTag(t *testing.T) {
	dir := t.TempDir()
	notebook, err := os.ReadFile("../../notebooks/00-quickstart.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	foreign := map[string]string{
		"notebook.ipynb": string(notebook),
		"params.json":    "{\n  \"params\": [1, 2]\n}\n",
		"cells.json":     "{\n  \"cells\": []\n}\n",
		"fits.json":      "[\n  {\n    \"label\": \"mine\"\n  }\n]\n",
	}
	missing := filepath.Join(dir, "no-bench") // nothing is computed before --out is checked
	for _, mode := range [][]string{{"--card"}, {}, {"--grid", "identifiability"}, {"--grid", "sensitivity"}, {"--validate"}} {
		for name, content := range foreign {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"calibrate", "--bench", missing, "--out", path}, mode...)
			if name == "notebook.ipynb" && len(mode) == 1 && mode[0] == "--card" {
				args[2] = synthBench // the reported case: a card written over a notebook
			}
			_, errOut, code := runCLI(t, args...)
			if code == 0 || !strings.Contains(errOut, "not what esr calibrate writes") {
				t.Errorf("%v over %s: exit %d, %s", mode, name, code, errOut)
			}
			if got, _ := os.ReadFile(path); string(got) != content {
				t.Errorf("%v over %s: the file changed", mode, name)
			}
		}
	}
	card := filepath.Join(dir, "card.md")
	for range 2 {
		if _, errOut, code := runCLI(t, "calibrate", "--bench", synthBench, "--card", "--out", card); code != 0 {
			t.Fatalf("esr calibrate --card over its own card: %s", errOut)
		}
	}
}
