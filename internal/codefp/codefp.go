// Package codefp identifies the library's code, so that what the kit caches
// (a suite's outcome rows, a bootstrap interval) never outlives a change to
// the code that computed it.
//
// The code is the program's own: its module source as embedded when it was
// built (esrkit.Source), not the files on disk when it runs. A notebook
// cell and `go run` are built from the tree just before they run, so the
// two agree there; a built `esr` that was not rebuilt after a checkout or an
// edit names the code it runs, and CheckTree tells it from the tree (`esr
// prepare` refuses to fill a tree's notebook cache with another code's
// rows).
package codefp

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/esrkit/esrkit"
)

var (
	once  sync.Once
	code  string
	built string // the embedded source's hash
)

// sourcePatterns name the files the source hash covers, relative to the
// module root: the patterns of esrkit.Source's go:embed line (a test keeps
// the two in step). Of their matches, test files and anything under a
// testdata folder are left out.
var sourcePatterns = []string{"go.mod", "go.sum", "*.go", "cmd/*/*.go", "esr/*.go", "esr/*/*.go", "esr/*/*/*.go",
	"internal/*/*.go", "internal/*/*/*.go", "nbhelp/*.go", "stats/*.go"}

// Fingerprint identifies the code of this program: a hash of the module's
// go.mod, go.sum and non-test Go files as they were when it was built
// (esrkit.Source), with the Go toolchain's version and the target
// architecture (a compiler, a standard library or a fused multiply-add
// may change a float).
func Fingerprint() string {
	once.Do(func() {
		var err error
		if built, err = sourceHash(esrkit.Source); err != nil {
			// Embedded at build time: unreadable only if the build is broken.
			panic("codefp: the embedded source: " + err.Error())
		}
		code = fmt.Sprintf("src:%s %s %s", built, runtime.Version(), runtime.GOARCH)
	})
	return code
}

// Tree is the hash of the module source under root as Fingerprint hashes
// its own: the same files (sourcePatterns), read from disk.
func Tree(root string) (string, error) { return sourceHash(os.DirFS(root)) }

// CheckTree fails, saying what to do, when the module source under root is
// not the source this program was built from: a program that names its
// code by Fingerprint would then cache results under another code than the
// tree's own programs (a notebook's cells) name. A difference in test
// files does not count.
func CheckTree(root string) error {
	Fingerprint()
	tree, err := Tree(root)
	if err != nil {
		return fmt.Errorf("the module source under %s: %w", root, err)
	}
	if tree != built {
		return fmt.Errorf("this program was built from other code than the module source under %s (built from source %s, the files there hash to %s): build it again (`go build -o esr ./cmd/esr`) or run it with `go run ./cmd/esr`", root, built, tree)
	}
	return nil
}

// sourceHash hashes the paths and contents of fsys's files that
// sourcePatterns match (go.mod must be one), in walk order, leaving out
// test files and testdata. Only folders a pattern may reach are walked (on
// disk, not .git, data or the caches).
func sourceHash(fsys fs.FS) (string, error) {
	h := sha256.New()
	var buf []byte
	hasMod := false
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && !mayHold(p) {
				return fs.SkipDir
			}
			return nil
		}
		if !covered(p) || !matched(p) {
			return nil
		}
		if !d.Type().IsRegular() { // a FIFO would hang the read; go build refuses it too
			return fmt.Errorf("%s: not a regular file", p)
		}
		hasMod = hasMod || p == "go.mod"
		buf, err = hashFile(h, fsys, p, buf)
		return err
	})
	if err != nil {
		return "", err
	}
	if !hasMod {
		return "", errors.New("no go.mod")
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// matched reports whether a sourcePattern matches the file at p.
func matched(p string) bool {
	for _, pat := range sourcePatterns {
		if ok, _ := path.Match(pat, p); ok {
			return true
		}
	}
	return false
}

// mayHold reports whether a sourcePattern may match a file under the
// folder at dir: its leading elements match dir's.
func mayHold(dir string) bool {
	n := strings.Count(dir, "/") + 1
	for _, pat := range sourcePatterns {
		elems := strings.Split(pat, "/")
		if len(elems) <= n {
			continue
		}
		if ok, _ := path.Match(strings.Join(elems[:n], "/"), dir); ok {
			return true
		}
	}
	return false
}

// hashFile writes f's path, length and bytes to h, read into buf
// (returned, grown as needed): a new process hashes the module's 2 MB of
// source through one buffer, not a copy of each file.
func hashFile(h io.Writer, fsys fs.FS, f string, buf []byte) ([]byte, error) {
	r, err := fsys.Open(f)
	if err != nil {
		return buf, err
	}
	defer r.Close()
	st, err := r.Stat()
	if err != nil {
		return buf, err
	}
	n := int(st.Size())
	buf = slices.Grow(buf[:0], n+1)[:n+1]
	if got, err := io.ReadFull(r, buf); err != io.ErrUnexpectedEOF || got != n {
		return buf, fmt.Errorf("%s: changed while read (%d bytes, %d by its stat)", f, got, n)
	}
	fmt.Fprintf(h, "%s %d\n", f, n)
	h.Write(buf[:n])
	return buf, nil
}

// covered reports whether a file is hashed if a pattern matches it: go.mod,
// go.sum or a Go file, not a test file, not under testdata.
func covered(p string) bool {
	if p != "go.mod" && p != "go.sum" && (!strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go")) {
		return false
	}
	for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
		if path.Base(dir) == "testdata" {
			return false
		}
	}
	return true
}

// Tag is a short name of Fingerprint (8 hex digits) for cache file and
// folder names, so that entries of other code versions can be told apart
// without reading them.
func Tag() string {
	h := sha256.Sum256([]byte(Fingerprint()))
	return hex.EncodeToString(h[:4])
}
