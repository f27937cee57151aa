// Package codefp identifies the library's code, so that what the kit caches
// (a suite's outcome rows, a bootstrap interval) never outlives a change to
// the code that computed it.
package codefp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

var (
	once sync.Once
	code string
)

// Fingerprint identifies the library's code, so that cached results never
// outlive a change to it: a hash of every non-test Go file of the module
// when its source is on disk (found from this file's compile-time path, as
// in notebooks and `go run`, or from $ESRKIT_ROOT), else the build's module
// versions and VCS revision.
func Fingerprint() string {
	once.Do(func() {
		var roots []string
		if _, file, _, ok := runtime.Caller(0); ok {
			roots = append(roots, filepath.Dir(filepath.Dir(filepath.Dir(file)))) // internal/codefp/codefp.go → module root
		}
		if r := os.Getenv("ESRKIT_ROOT"); r != "" { // set by the notebook runner; a -trimpath build has no source path
			roots = append(roots, r)
		}
		for _, root := range roots {
			if fp, err := hashGoSources(root); err == nil {
				code = "src:" + fp
				return
			}
		}
		h := sha256.New()
		if bi, ok := debug.ReadBuildInfo(); ok {
			fmt.Fprintf(h, "%s %s\n", bi.Main.Path, bi.Main.Version)
			for _, d := range bi.Deps {
				fmt.Fprintf(h, "%s %s %s\n", d.Path, d.Version, d.Sum)
			}
			for _, kv := range bi.Settings {
				fmt.Fprintf(h, "%s=%s\n", kv.Key, kv.Value)
			}
		}
		code = "build:" + hex.EncodeToString(h.Sum(nil))[:16]
	})
	return code
}

// hashGoSources hashes the paths and contents of the non-test Go files
// under root (go.mod must be there), in walk order.
func hashGoSources(root string) (string, error) {
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return "", err
	}
	h := sha256.New()
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "notebooks" || name == "data" || name == "figures") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(b))
		h.Write(b)
		n++
		return nil
	})
	if err != nil {
		return "", err
	}
	if n == 0 {
		return "", fmt.Errorf("no Go sources under %s", root)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Tag is a short name of Fingerprint (8 hex digits) for cache file and
// folder names, so that entries of other code versions can be told apart
// without reading them.
func Tag() string {
	h := sha256.Sum256([]byte(Fingerprint()))
	return hex.EncodeToString(h[:4])
}
