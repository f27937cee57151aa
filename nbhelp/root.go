package nbhelp

import (
	"fmt"
	"path/filepath"

	"github.com/esrkit/esrkit/internal/repo"
)

// rootEnv names the environment variable that, when set, gives the repository root.
// scripts/run-notebooks.sh sets it for every notebook it runs.
const rootEnv = repo.Env

// Root returns the absolute path of the esrkit repository: $ESRKIT_ROOT if set,
// otherwise the nearest directory at or above the working directory whose go.mod
// declares module github.com/esrkit/esrkit. It panics if neither is found, which in
// a notebook shows as a cell error; use [findRoot] to handle the error instead.
func Root() string {
	root, err := findRoot()
	if err != nil {
		panic(err)
	}
	return root
}

// Path joins elem onto [Root], e.g. Path("data", "items.csv").
func Path(elem ...string) string {
	return filepath.Join(append([]string{Root()}, elem...)...)
}

// findRoot is [Root] returning an error rather than panicking (repo.Root).
func findRoot() (string, error) {
	root, err := repo.Root()
	if err != nil {
		return "", fmt.Errorf("nbhelp: %w", err)
	}
	return root, nil
}
