package nbhelp

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// RootEnv names the environment variable that, when set, gives the repository root.
// scripts/run-notebooks.sh sets it for every notebook it runs.
const RootEnv = "ESRKIT_ROOT"

// modulePath is the module whose go.mod marks the repository root.
const modulePath = "github.com/esrkit/esrkit"

// Root returns the absolute path of the esrkit repository: $ESRKIT_ROOT if set,
// otherwise the nearest directory at or above the working directory whose go.mod
// declares module github.com/esrkit/esrkit. It panics if neither is found, which in
// a notebook shows as a cell error; use [FindRoot] to handle the error instead.
func Root() string {
	root, err := FindRoot()
	if err != nil {
		panic(err)
	}
	return root
}

// Path joins elem onto [Root], e.g. Path("data", "items.csv").
func Path(elem ...string) string {
	return filepath.Join(append([]string{Root()}, elem...)...)
}

// FindRoot is [Root] returning an error rather than panicking.
func FindRoot() (string, error) {
	if env := os.Getenv(RootEnv); env != "" {
		abs, err := filepath.Abs(env)
		if err != nil {
			return "", fmt.Errorf("nbhelp: %s=%q: %w", RootEnv, env, err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return "", fmt.Errorf("nbhelp: %s=%q is not a directory", RootEnv, env)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("nbhelp: %w", err)
	}
	return findRootFrom(wd)
}

// findRootFrom walks up from dir to the directory holding esrkit's go.mod.
func findRootFrom(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if isRepoRoot(d) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", errors.New("nbhelp: cannot find the esrkit repository: set " + RootEnv +
				" or run from inside it (no go.mod for " + modulePath + " at or above " + dir + ")")
		}
		d = parent
	}
}

// isRepoRoot reports whether dir/go.mod declares modulePath.
func isRepoRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == modulePath
		}
	}
	return false
}
