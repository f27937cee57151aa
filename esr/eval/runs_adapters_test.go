package eval_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// markerAdapter writes an executable into dir that, run, leaves the file
// it returns and fails (it speaks no protocol).
func markerAdapter(t *testing.T, dir string) (script, marker string) {
	t.Helper()
	script, marker = filepath.Join(dir, "helper.sh"), filepath.Join(dir, "ran")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho ran > '"+marker+"'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, marker
}

// A rows file is data, never code: comparing runs whose rows name an exec:
// adapter (as the memory, or as the class a memory keeps the atoms of)
// starts no process, neither to rebuild the flips' renders nor to answer
// a missing control; notes say what is left out and how to name the
// adapter. Named by the caller (RunCompareOptions.Adapters, written
// another way), the same adapter runs.
func TestCompareRunsStartsNoAdapterNamedOnlyInTheRows(t *testing.T) {
	ma, mb := mustSpec(t, "graphiti@paraphrase=0@dup=0"), mustSpec(t, "graphiti@paraphrase=1@dup=0")
	rows := evaluateTwo(t, ma, mb)
	dir := t.TempDir()
	script, marker := markerAdapter(t, dir)
	for _, name := range []string{"exec:" + script, "graphrag-abstain@kept=exec:" + script} {
		m := mustSpec(t, name)
		b := only(rows, mb)
		for i := range b {
			b[i].Memory = m
		}
		run := func(opt eval.RunCompareOptions) *eval.RunComparison {
			t.Helper()
			opt.Stats, opt.Bench = quick, synthetic(t)
			rc, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", only(rows, ma)), eval.StoredRunOf("b", b), opt)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(rc.Flips) == 0 {
				t.Fatalf("%s: no flips: nothing would be rendered", name)
			}
			return rc
		}
		rc := run(eval.RunCompareOptions{Controls: true, Readers: twoScripted(t)})
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s: the adapter named in the rows ran", name)
		}
		notes := strings.Join(rc.Notes, "\n")
		if strings.Count(notes, "is named only in the rows") != 2 || !strings.Contains(notes, "renders of") ||
			!strings.Contains(notes, "the control of") || !strings.Contains(notes, "--adapters exec:"+script) {
			t.Errorf("%s: notes do not say what was left out for the adapter:\n%s", name, notes)
		}
		for _, f := range rc.Flips {
			if f.RenderB != "" {
				t.Errorf("%s: flip %s has a render of B", name, f.QID)
			}
		}
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(wd, script)
		if err != nil {
			t.Fatal(err)
		}
		run(eval.RunCompareOptions{Adapters: []memory.Class{memory.Class(memory.ExecPrefix + "./" + rel)}})
		if _, err := os.Stat(marker); err != nil {
			t.Errorf("%s: the adapter the caller named did not run: %v", name, err)
		}
		os.Remove(marker)
	}
}
