package codefp

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit"
)

// moduleRoot is the module's root folder, from this file's path.
func moduleRoot(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller")
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// The fingerprint is the embedded source's hash with the toolchain, the
// tag 8 hex digits of it, and this test binary, built from the tree, finds
// the tree to be its own code.
func TestFingerprintNamesTheEmbeddedSource(t *testing.T) {
	fp := Fingerprint()
	if want := "src:" + built + " " + runtime.Version() + " " + runtime.GOARCH; fp != want || len(built) != 16 {
		t.Fatalf("Fingerprint() = %q, want %q", fp, want)
	}
	if tag := Tag(); len(tag) != 8 || strings.Trim(tag, "0123456789abcdef") != "" {
		t.Fatalf("Tag() = %q", tag)
	}
	if err := CheckTree(moduleRoot(t)); err != nil {
		t.Fatalf("the tree this test was built from: %v", err)
	}
	if err := CheckTree(t.TempDir()); err == nil {
		t.Fatal("CheckTree of a folder without the module: want an error")
	}
}

// sourcePatterns are esrkit.Source's go:embed patterns, word for word.
func TestSourcePatternsAreTheEmbedDirective(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(moduleRoot(t), "source.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//go:embed "); ok {
			if got := strings.Fields(rest); !slices.Equal(got, sourcePatterns) {
				t.Fatalf("source.go embeds %q, codefp hashes %q", got, sourcePatterns)
			}
			return
		}
	}
	t.Fatal("no go:embed line in source.go")
}

// Every Go file of the module's packages (not a test, not under a hidden
// folder, testdata, notebooks, data or figures) is in the embedded source:
// a package added where the patterns do not reach fails here, naming it.
func TestEmbeddedSourceCoversEveryPackage(t *testing.T) {
	root := moduleRoot(t)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "notebooks" || name == "data" || name == "figures") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if _, err := fs.Stat(esrkit.Source, filepath.ToSlash(rel)); err != nil {
			t.Errorf("%s is not in esrkit.Source: add its folder's pattern to source.go and sourcePatterns", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The source hash follows every edit of a covered file, go.mod and go.sum
// included, even one that keeps the file's size and gives it back its
// modification time (cp -p, touch -r: nothing is taken from a file's stat);
// test files, testdata and folders outside the patterns do not count.
func TestTreeHashFollowsEveryEdit(t *testing.T) {
	root := t.TempDir()
	hour := time.Now().Add(-time.Hour)
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, hour, hour); err != nil {
			t.Fatal(err)
		}
	}
	hash := func() string {
		t.Helper()
		h, err := Tree(root)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	write("go.mod", "module x\n")
	write("go.sum", "y v1.0.0 h1:aaaa=\n")
	write("esr/a/a.go", "package a // one\n")
	base := hash()
	if hash() != base {
		t.Fatal("the same files, another hash")
	}
	write("esr/a/a_test.go", "package a\n")
	write("esr/a/testdata/t.go", "package t\n")
	write("notebooks/n.go", "package n\n")
	if hash() != base {
		t.Fatal("a test file, testdata or notebooks changed the hash")
	}
	for _, edit := range []struct{ name, body string }{
		{"esr/a/a.go", "package a // two\n"}, // same size, same modification time
		{"go.sum", "y v1.0.0 h1:bbbb=\n"},
		{"go.mod", "module x\n\ngo 1.26\n"},
		{"esr/b.go", "package esr\n"},
	} {
		before := hash()
		write(edit.name, edit.body)
		if hash() == before {
			t.Errorf("an edit of %s kept the hash", edit.name)
		}
	}
	if _, err := Tree(t.TempDir()); err == nil {
		t.Fatal("no go.mod: want an error")
	}
}

// A program built from other code than the tree on disk (here: one file
// replaced in the build by -overlay, as a binary left unbuilt after a
// checkout is) names the code it was built from, not the tree's, and
// CheckTree tells it from the tree.
func TestBuiltProgramNamesTheCodeItWasBuiltFrom(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		gobin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	root := moduleRoot(t)
	tmp := t.TempDir()
	src := filepath.Join(root, "stats", "doc.go")
	body, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(tmp, "doc.go")
	if err := os.WriteFile(edited, append(body, "\n// Built from other code than the tree on disk.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {src: edited}})
	overlay := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlay, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "fpmain")
	build := func(args ...string) {
		t.Helper()
		cmd := exec.Command(gobin, append(append([]string{"build"}, args...), "-o", bin, "./internal/codefp/testdata/fpmain")...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	run := func() (fp, check string) {
		t.Helper()
		out, err := exec.Command(bin, root).Output()
		if err != nil {
			t.Fatal(err)
		}
		fp, check, _ = strings.Cut(strings.TrimSpace(string(out)), "\n")
		return fp, check
	}
	build("-overlay", overlay)
	if fp, check := run(); fp == Fingerprint() || !strings.Contains(check, "built from other code") {
		t.Fatalf("built from other code: fingerprint %s (the tree's: %s), CheckTree: %s", fp, Fingerprint(), check)
	}
	build()
	if fp, check := run(); fp != Fingerprint() || check != "ok" {
		t.Fatalf("built from the tree: fingerprint %s (the tree's: %s), CheckTree: %s", fp, Fingerprint(), check)
	}
}

// BenchmarkFingerprint times what a new process (a notebook cell) spends
// on the fingerprint: hashing the source embedded in it, against reading
// and hashing the tree on disk (what CheckTree does, once per esr prepare).
//
//	go test ./internal/codefp -run '^$' -bench Fingerprint
func BenchmarkFingerprint(b *testing.B) {
	root := moduleRoot(b)
	b.Run("embedded", func(b *testing.B) {
		for b.Loop() {
			if _, err := sourceHash(esrkit.Source); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tree", func(b *testing.B) {
		for b.Loop() {
			if _, err := Tree(root); err != nil {
				b.Fatal(err)
			}
		}
	})
}
