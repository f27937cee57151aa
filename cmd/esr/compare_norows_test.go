package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run with no complete row is named as such, with its side and why (the
// file is empty, or its line 1 is not a complete row: one unfinished line,
// a JSON array written on one line), instead of being compared as a run
// with no judge ("runs on different judges … B has judge "); so is an esr
// run folder whose rows files hold none.
func TestCompareSaysWhichRunHasNoCompleteRow(t *testing.T) {
	dir := t.TempDir()
	a, _ := hostileRows(t, dir)
	first, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	line1 := strings.SplitAfter(string(first), "\n")[0]
	folder := filepath.Join(dir, "run")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ content, why string }{
		"empty.jsonl":          {"", "the file is empty"},
		"unfinished.jsonl":     {line1[:len(line1)/2], "line 1 is not a complete row"},
		"array.jsonl":          {"[" + strings.TrimSuffix(line1, "\n") + "]", "line 1 is not a complete row"},
		"run/x-outcomes.jsonl": {line1[:len(line1)/2], "none of its 1 *-outcomes.jsonl files holds a complete row"},
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(name, "run/") {
			p = folder
		}
		for side, args := range map[string][]string{"B": {"compare", a, p}, "A": {"compare", p, a}} {
			_, errOut, code := runCLI(t, append(args, "--B", "200")...)
			want := side + ": " + p + ": no outcome rows (" + c.why + ")"
			if code == 0 || !strings.Contains(errOut, want) || strings.Contains(errOut, "judge") {
				t.Errorf("%s as %s: exit %d, %q; want %q", name, side, code, errOut, want)
			}
		}
	}
}
