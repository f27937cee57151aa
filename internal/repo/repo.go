// Package repo finds the esrkit repository on disk: the one rule that the
// notebooks (nbhelp.Root) and the browser tests (browser.RepoRoot) share.
package repo

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Env names the environment variable that, when set, gives the repository
// root; scripts/run-notebooks.sh sets it for every notebook it runs.
const Env = "ESRKIT_ROOT"

// ModulePath is the module whose go.mod marks the repository root.
const ModulePath = "github.com/esrkit/esrkit"

// Root returns the absolute path of the repository: $ESRKIT_ROOT if set (it
// must be a directory), otherwise the nearest directory at or above the
// working directory whose go.mod declares ModulePath.
func Root() (string, error) {
	if env := os.Getenv(Env); env != "" {
		abs, err := filepath.Abs(env)
		if err != nil {
			return "", fmt.Errorf("%s=%q: %w", Env, env, err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return "", fmt.Errorf("%s=%q is not a directory", Env, env)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return RootFrom(wd)
}

// RootFrom walks up from dir to the directory holding esrkit's go.mod.
func RootFrom(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if IsRoot(d) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", errors.New("cannot find the esrkit repository: set " + Env +
				" or run from inside it (no go.mod for " + ModulePath + " at or above " + dir + ")")
		}
		d = parent
	}
}

// IsRoot reports whether dir/go.mod declares ModulePath.
func IsRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) >= 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == ModulePath
		}
	}
	return false
}
