package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// esr import debian builds the vendored sample of raw changelogs; missing
// flags and a bad raw file are errors naming what is wrong.
func TestImportDebian(t *testing.T) {
	const sample = "../../internal/debian/testdata"
	if _, errOut, code := dataRun(t, "import", "debian", "--src", sample+"/raw", "--out", t.TempDir()); code == 0 || !strings.Contains(errOut, "--packages is required") {
		t.Errorf("missing --packages: exit %d: %s", code, errOut)
	}
	out := t.TempDir()
	stdout, errOut, code := dataRun(t, "import", "debian", "--src", sample+"/raw", "--packages", sample+"/packages.txt", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, `"streams": 11`) || !strings.Contains(stdout, `"packages_excluded": 1`) {
		t.Errorf("report: %s", stdout)
	}
	for _, name := range []string{"streams.jsonl", "atoms.jsonl", "qa.jsonl", "exclusions.jsonl", "licenses.jsonl", "LICENSES.md", "PROVENANCE.md", "MANIFEST.json", "attributes.txt"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	// A broken trailer date in one raw changelog.
	raw := t.TempDir()
	if err := os.MkdirAll(filepath.Join(raw, "hello"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(raw, "hello", "changelog"), []byte("hello (1-1) unstable; urgency=low\n\n  * x\n\n -- A B <a@b.org>  someday\n"), 0o644)
	os.WriteFile(filepath.Join(raw, "hello", "copyright"), []byte("Copyright 2024 A B.\n"), 0o644)
	os.WriteFile(filepath.Join(raw, "list.txt"), []byte("hello\n"), 0o644)
	_, errOut, code = dataRun(t, "import", "debian", "--src", raw, "--packages", filepath.Join(raw, "list.txt"), "--out", t.TempDir())
	if code == 0 || !strings.Contains(errOut, `hello/changelog:5: field "date": "someday" is not an RFC 5322 date`) {
		t.Errorf("bad date: exit %d: %s", code, errOut)
	}
}
