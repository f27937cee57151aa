package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/esrkit/esrkit/internal/repo"
)

// TestsEnv names the environment variable that turns the browser tests on.
// `make test` sets ESRKIT_BROWSER_TESTS=1 after scripts/setup.sh installed
// Chromium and Jupyter; a plain `go test ./...` skips them, so the unit tests
// stay fast and need nothing outside Go.
const TestsEnv = "ESRKIT_BROWSER_TESTS"

// ShotsEnv names the folder where tests keep their screenshots (else a
// per-test temporary folder, removed after the test).
const ShotsEnv = "ESRKIT_BROWSER_SHOTS"

// Strict reports whether browser tests must run (ESRKIT_BROWSER_TESTS=1):
// then a missing Chromium or Jupyter fails the test instead of skipping it,
// so CI cannot pass by silently testing nothing.
func Strict() bool { return os.Getenv(TestsEnv) == "1" }

// requireOn skips t unless the browser tests are on.
func requireOn(t testing.TB) {
	t.Helper()
	if !Strict() {
		t.Skipf("browser test: set %s=1 to run it (make test does, after installing Chromium and Jupyter)", TestsEnv)
	}
}

// RequireChromium skips t unless browser tests are on, and fails it when they
// are on but Chromium is missing.
func RequireChromium(t testing.TB) {
	t.Helper()
	requireOn(t)
	if _, err := os.Stat(ChromiumPath()); err != nil {
		t.Fatalf("%s=1 but Chromium is missing at %s (run scripts/setup.sh or set %s): %v", TestsEnv, ChromiumPath(), ChromiumEnv, err)
	}
}

// RequireJupyter skips t unless browser tests are on, and fails it when they
// are on but Jupyter or GoNB (the kernel's binary) is missing.
func RequireJupyter(t testing.TB) {
	t.Helper()
	requireOn(t)
	if _, err := os.Stat(DefaultJupyter); err != nil {
		t.Fatalf("%s=1 but Jupyter is missing at %s (run scripts/setup.sh): %v", TestsEnv, DefaultJupyter, err)
	}
	path, err := goPath()
	if err != nil {
		t.Fatal(err)
	}
	gonb := filepath.Join(filepath.SplitList(path)[0], "gonb")
	if _, err := os.Stat(gonb); err != nil {
		t.Fatalf("%s=1 but GoNB is missing at %s (run scripts/setup.sh): %v", TestsEnv, gonb, err)
	}
}

// NewT starts a browser for t ([New]) and closes it when t ends. On failure
// it logs the tab's console, which usually says why.
func NewT(t testing.TB, ctx context.Context) *Browser {
	t.Helper()
	RequireChromium(t)
	b, err := New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("browser console:\n  %s", strings.Join(b.ConsoleLog(), "\n  "))
		}
		b.Close()
	})
	return b
}

// StartJupyterT starts Jupyter over dir for t ([StartJupyter]). When t ends it
// closes the server and fails t if any kernel process outlived the orderly
// shutdown; on failure it logs the server's output (token redacted).
func StartJupyterT(t testing.TB, ctx context.Context, dir string) *Jupyter {
	t.Helper()
	RequireJupyter(t)
	log := &lockedBuffer{}
	j, err := StartJupyter(ctx, dir, log)
	if err != nil {
		t.Fatalf("%v\nJupyter's log:\n%s", err, log.String())
	}
	t.Cleanup(func() {
		j.Close()
		if left := j.Leftovers(); len(left) > 0 {
			t.Errorf("processes of the Jupyter server outlived its shutdown (killed now):\n  %s", strings.Join(left, "\n  "))
		}
		if t.Failed() {
			t.Logf("Jupyter's log:\n%s", tail(log.String(), 8000))
		}
	})
	return j
}

// ShotDir returns the folder for t's screenshots: $ESRKIT_BROWSER_SHOTS/TEST
// (kept, to look at) when set, else a temporary folder.
func ShotDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(ShotsEnv)
	if dir == "" {
		return t.TempDir()
	}
	dir = filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

var (
	rootOnce sync.Once
	root     string
	rootErr  error
)

// RepoRoot returns the absolute path of the esrkit repository by the same
// rule as nbhelp.Root (repo.Root): $ESRKIT_ROOT when set, else the nearest
// folder at or above the working directory (go test runs in the package's
// folder) whose go.mod declares github.com/esrkit/esrkit.
func RepoRoot() (string, error) {
	rootOnce.Do(func() {
		if root, rootErr = repo.Root(); rootErr != nil {
			rootErr = fmt.Errorf("browser: %w", rootErr)
		}
	})
	return root, rootErr
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
