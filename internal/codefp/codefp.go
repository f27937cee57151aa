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
	"time"

	"github.com/esrkit/esrkit/internal/safefile"
	"github.com/esrkit/esrkit/internal/snapfresh"
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
			if fp, err := cachedGoSources(root, filepath.Join(root, cacheFile)); err == nil {
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

// cacheFile, under the module root, keeps the last source hash with the
// stat of every file it covers (cachedGoSources).
const cacheFile = ".esr-cache/codefp"

// source is a non-test Go file under the module root, as its stat shows it.
type source struct {
	rel     string // slash-separated, from the root
	size    int64
	modTime int64 // Unix nanoseconds
}

// goSources lists the non-test Go files under root (go.mod must be there),
// in walk order: not under a hidden folder, testdata, notebooks, data or
// figures.
func goSources(root string) ([]source, error) {
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return nil, err
	}
	var srcs []source
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
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		srcs = append(srcs, source{rel: filepath.ToSlash(rel), size: fi.Size(), modTime: fi.ModTime().UnixNano()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(srcs) == 0 {
		return nil, fmt.Errorf("no Go sources under %s", root)
	}
	return srcs, nil
}

// hashGoSources hashes the paths and contents of the non-test Go files
// under root (go.mod must be there), in walk order. stable is false when
// a file read is not as long as its stat said (it changed meanwhile).
func hashGoSources(root string) (fp string, srcs []source, stable bool, err error) {
	if srcs, err = goSources(root); err != nil {
		return "", nil, false, err
	}
	fp, stable, err = hashSources(root, srcs)
	return fp, srcs, stable, err
}

// hashSources hashes srcs' paths and contents (hashGoSources).
func hashSources(root string, srcs []source) (fp string, stable bool, err error) {
	h := sha256.New()
	stable = true
	for _, s := range srcs {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(s.rel)))
		if err != nil {
			return "", false, err
		}
		stable = stable && int64(len(b)) == s.size
		fmt.Fprintf(h, "%s %d\n", s.rel, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], stable, nil
}

// cachedGoSources is hashGoSources, skipping the reading and hashing when
// the cache file at cache holds the hash of these very files: the same
// paths, sizes and modification times, each written at least
// snapfresh.Granularity before the hash was taken (git's "racily clean"
// rule: a file rewritten within one tick of the clock may keep its time).
// A notebook cell is a new process, and reading the module's Go files took
// most of the 20 ms its start-up spent here. The cache is only a shortcut:
// one that is missing, damaged or not writable costs the hash, never a
// wrong fingerprint.
func cachedGoSources(root, cache string) (string, error) {
	srcs, err := goSources(root)
	if err != nil {
		return "", err
	}
	want := cacheText("", srcs)
	if b, err := os.ReadFile(cache); err == nil {
		if fp, rest, ok := strings.Cut(string(b), "\n"); ok && len(fp) == 16 && strings.Trim(fp, "0123456789abcdef") == "" && rest == want {
			return fp, nil
		}
	}
	taken := time.Now()
	fp, stable, err := hashSources(root, srcs)
	if err != nil {
		return "", err
	}
	for _, s := range srcs {
		stable = stable && !time.Unix(0, s.modTime).After(taken.Add(-snapfresh.Granularity))
	}
	if stable {
		writeCache(cache, cacheText(fp, srcs))
	}
	return fp, nil
}

// cacheText is the cache file's content: the hash on the first line, then
// one line per file (path, size, modification time).
func cacheText(fp string, srcs []source) string {
	var b strings.Builder
	if fp != "" {
		b.WriteString(fp + "\n")
	}
	for _, s := range srcs {
		fmt.Fprintf(&b, "%q %d %d\n", s.rel, s.size, s.modTime)
	}
	return b.String()
}

// writeCache replaces the cache file whole (safefile: a reader sees the
// old one or the new one), creating its folder; a failure leaves it as it
// was.
func writeCache(path, text string) {
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		_ = safefile.WriteFile(path, []byte(text), 0o644)
	}
}

// Tag is a short name of Fingerprint (8 hex digits) for cache file and
// folder names, so that entries of other code versions can be told apart
// without reading them.
func Tag() string {
	h := sha256.Sum256([]byte(Fingerprint()))
	return hex.EncodeToString(h[:4])
}
