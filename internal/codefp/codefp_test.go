package codefp

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
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
	base, _, _, err := hashGoSources(root)
	if err != nil {
		t.Fatal(err)
	}
	write("a/a_test.go", "package a\n")
	write("a/testdata/t.go", "package t\n")
	write("notebooks/n.go", "package n\n")
	if h, _, _, _ := hashGoSources(root); h != base {
		t.Fatal("a test file, testdata or notebooks changed the hash")
	}
	write("a/a.go", "package a // changed\n")
	if h, _, _, _ := hashGoSources(root); h == base {
		t.Fatal("a change to a.go left the hash alone")
	}
	if _, _, _, err := hashGoSources(t.TempDir()); err == nil {
		t.Fatal("no go.mod: want an error")
	}
}

// The cache answers only for the very files it was made from: an edit
// that keeps the size, a new file or a damaged cache file each give the
// hash of the files as they are; a file written within the clock's
// granularity is not cached at all.
func TestCachedGoSourcesFollowEveryEdit(t *testing.T) {
	root := t.TempDir()
	cache := filepath.Join(root, cacheFile)
	hour := time.Now().Add(-time.Hour)
	write := func(name, body string, at time.Time) {
		t.Helper()
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string) string {
		t.Helper()
		got, err := cachedGoSources(root, cache)
		want, _, _, werr := hashGoSources(root)
		if err != nil || werr != nil || got != want {
			t.Fatalf("%s: cached %q (%v), hashed %q (%v)", what, got, err, want, werr)
		}
		return got
	}
	write("go.mod", "module x\n", hour)
	write("a/a.go", "package a // one\n", hour)
	first := check("first")
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	if check("again") != first {
		t.Fatal("the same files, another hash")
	}
	write("a/a.go", "package a // two\n", hour.Add(time.Minute)) // same size
	if check("edited") == first {
		t.Fatal("an edit of the same size kept the hash")
	}
	write("b.go", "package x\n", hour)
	check("added")
	if err := os.WriteFile(cache, []byte("0123456789abcdef\ngarbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("damaged cache")
	os.Remove(cache)
	write("b.go", "package x // now\n", time.Now())
	check("racy")
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Fatalf("a file written just now was cached (%v)", err)
	}
}

// A cache whose lines name the files' stat is trusted without reading
// them: that is the shortcut (and why the stat must be old enough).
func TestCachedGoSourcesTrustTheStat(t *testing.T) {
	root := t.TempDir()
	cache := filepath.Join(root, cacheFile)
	for _, name := range []string{"go.mod", "a.go"} {
		p := filepath.Join(root, name)
		os.WriteFile(p, []byte("module x\n"), 0o644)
		old := time.Now().Add(-time.Hour)
		os.Chtimes(p, old, old)
	}
	srcs, err := goSources(root)
	if err != nil {
		t.Fatal(err)
	}
	writeCache(cache, cacheText("feedfacefeedface", srcs))
	if got, err := cachedGoSources(root, cache); err != nil || got != "feedfacefeedface" {
		t.Fatalf("cachedGoSources = %q, %v; want the cached hash", got, err)
	}
}

// BenchmarkSourceHash times what a new process (a notebook cell) spends
// on the fingerprint of this module: reading and hashing every Go file
// (the baseline) against checking their stat against the cache file.
//
//	go test ./internal/codefp -run '^$' -bench SourceHash
func BenchmarkSourceHash(b *testing.B) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			if _, _, _, err := hashGoSources(root); err != nil {
				b.Fatal(err)
			}
		}
	})
	cache := filepath.Join(b.TempDir(), "codefp")
	if _, err := cachedGoSources(root, cache); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(cache); err != nil {
		b.Skip("no cache written (a source file changed within the last second)")
	}
	b.Run("stat", func(b *testing.B) {
		for b.Loop() {
			if _, err := cachedGoSources(root, cache); err != nil {
				b.Fatal(err)
			}
		}
	})
}
