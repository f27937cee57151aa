package codefp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fingerprint is the module's source hash here (the source is on
// disk), and the tag is 8 hex digits of it.
func TestFingerprintFromSource(t *testing.T) {
	if fp := Fingerprint(); !strings.HasPrefix(fp, "src:") {
		t.Fatalf("Fingerprint() = %q, want a source hash", fp)
	}
	if tag := Tag(); len(tag) != 8 || strings.Trim(tag, "0123456789abcdef") != "" {
		t.Fatalf("Tag() = %q", tag)
	}
}

// Any change to a non-test Go file changes the hash; test files,
// testdata and notebooks do not.
func TestHashGoSources(t *testing.T) {
	root := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module x\n")
	write("a/a.go", "package a\n")
	base, err := hashGoSources(root)
	if err != nil {
		t.Fatal(err)
	}
	write("a/a_test.go", "package a\n")
	write("a/testdata/t.go", "package t\n")
	write("notebooks/n.go", "package n\n")
	if h, _ := hashGoSources(root); h != base {
		t.Fatal("a test file, testdata or notebooks changed the hash")
	}
	write("a/a.go", "package a // changed\n")
	if h, _ := hashGoSources(root); h == base {
		t.Fatal("a change to a.go left the hash alone")
	}
	if _, err := hashGoSources(t.TempDir()); err == nil {
		t.Fatal("no go.mod: want an error")
	}
}
